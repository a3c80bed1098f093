/**
 * print(model) of the PyTorch quickstart NeuralNetwork as the tutorial prints it
 * (pytorch/tutorials beginner_source/basics/quickstart_tutorial.py), with `extra` put in its
 * place just before the closing parenthesis: a line no module repr has.
 */
export function quickstartRepr(extra: string): string {
  return `NeuralNetwork(
  (flatten): Flatten(start_dim=1, end_dim=-1)
  (linear_relu_stack): Sequential(
    (0): Linear(in_features=784, out_features=512, bias=True)
    (1): ReLU()
    (2): Linear(in_features=512, out_features=512, bias=True)
    (3): ReLU()
    (4): Linear(in_features=512, out_features=10, bias=True)
  )
  ${extra}
)`;
}
