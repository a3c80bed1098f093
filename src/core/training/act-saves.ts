/**
 * What an MLP activation (types.ts MlpAct) saves for backward beyond a fused GELU / SiLU.
 *
 * The layer inventories (activations.ts, lora-activations.ts) count a fused activation (F.gelu,
 * F.silu): it saves its input x, the fc1 / gate output. transformers composes `gelu_new`,
 * `gelu_fast` and `quick_gelu` from tensor ops (activations.py NewGELUActivation,
 * FastGELUActivation, QuickGELUActivation), and autograd saves what each op's derivative reads
 * (tools/autograd/derivatives.yaml): `mul(Tensor, Tensor)` both operands when both need a gradient,
 * `mul` / `add` by a Python scalar nothing, `tanh` and `sigmoid` their result, `pow(Tensor, Scalar)`
 * its input. Python evaluates `0.5 * x * (…)` as `(0.5 * x) * (…)`.
 *
 * Autocast (aten/src/ATen/autocast_mode.cpp) runs `pow` on its fp32 list: the input is cast to fp32
 * (a copy, not cached: only leaf weights' casts are), the result is fp32, and the chain after it
 * promotes to fp32 (bf16 + fp32 → fp32). `tanh`, `sigmoid`, `mul` and `add` are on no list.
 *
 * NewGELU, n = f-wide elements, e the Linear output's dtype:
 * - under autocast (e < 4): pow saves x's fp32 copy; tanh its fp32 result; the last mul `0.5·x`
 *   (e) and `1 + tanh` (fp32). x itself is saved by nothing (its copy is): 4 + e + 4 + 4 − e = 12
 *   bytes beyond the fused count. The result is fp32: a plain MLP's fc2 casts it to e (the copy it
 *   saves is the inventory's fc2 input), while a gated MLP's `act(gate) * up` saves it as it is,
 *   4 − e more than the e-sized act output counted;
 * - without autocast: pow saves x itself; `0.5·x`, tanh's result and `1 + tanh`: 3e.
 * FastGELU (no fp32-list op): `0.044715·x` and x by their mul, `x·0.7978…` and `1 + 0.044715·x·x`
 * by theirs, tanh's result, `0.5·x` and `1 + tanh`: 6e. QuickGELU: sigmoid's result: e.
 *
 * ReLU (nn.ReLU, not in place: OPT, T5 v1.0) is one kernel whose backward reads its result
 * (derivatives.yaml `relu: threshold_backward(grad, result, 0)`), so it saves its output, not its
 * input. That output is the tensor the next op saves anyway (a plain MLP's fc2 input, a gated
 * MLP's `act(gate)` operand of the product), so the fc1 / gate output is saved by nothing: −e per
 * f-wide element against the fused count. Its backward is one kernel, as a fused activation's.
 */
import type { ModelArch } from '../types';
import type { ActDtypes } from './activations';

/** f-wide tensors saved beyond the fused activation's: `wide` fp32 ones, `narrow` (signed) ones of e bytes. */
export interface ActSaves {
  wide: number;
  narrow: number;
}

export const NO_ACT_SAVES: ActSaves = { wide: 0, narrow: 0 };

/**
 * The f-wide tensors one MLP's activation saves beyond a fused one's (ReLU: one fewer). Autocast's fp32-list ops run wider
 * than the matmul dtype exactly when `dt.eF32 > dt.e` (training/terms.ts trainingDtypes).
 */
export function mlpActSaves(arch: ModelArch, dt: ActDtypes): ActSaves {
  switch (arch.mlpAct) {
    case 'tanh-gelu': {
      if (dt.eF32 <= dt.e) return { wide: 0, narrow: 3 };
      return arch.gatedMlp ? { wide: 4, narrow: -1 } : { wide: 3, narrow: 0 };
    }
    case 'fast-gelu':
      return { wide: 0, narrow: 6 };
    case 'quick-gelu':
      return { wide: 0, narrow: 1 };
    case 'relu':
      return { wide: 0, narrow: -1 };
    default:
      return NO_ACT_SAVES;
  }
}

/** Bytes per f-wide element of `mlpActSaves` at matmul dtype e. */
export function actSavesBytes(x: ActSaves, e: number): number {
  return 4 * x.wide + e * x.narrow;
}

/** The per-layer formula's note for an activation's saves beyond a fused one's ('' for none). */
export function actFormula(x: ActSaves, e: number): string {
  const bytes = actSavesBytes(x, e);
  if (bytes < 0) return ` [− ${-bytes}·f/t: ReLU saves its output, which the next op saves too]`;
  return bytes === 0 ? '' : ` [+ ${bytes}·f/t: the composed MLP activation's intermediates]`;
}

/**
 * Bytes per f-wide element of the gradients live at a composed activation's first backward node,
 * beyond the two e-sized ones (incoming, outgoing) a fused activation's backward holds. Each
 * composed chain ends in a tensor × tensor mul; `MulBackward0` writes both operands' gradients
 * (derivatives.yaml `mul_tensor_backward`, computed in the wider dtype, then cast to each input's
 * dtype by torch/csrc/autograd/engine.cpp `validate_outputs`) while the incoming one is live:
 * - gelu_new under autocast: the incoming gradient is fp32 (the fp32 result's, from the Linear's
 *   autocast cast, ToCopyBackward) and both products are fp32: 3·4 − 2e;
 * - otherwise three e-sized tensors: e.
 * Found in our H200 trace of t039 (GPT-2 XL, full checkpointing, bf16 under autocast): three
 * 100 MiB fp32 blocks, 4,096 × 6,400 × 4 B, at the recomputed layer's GELU backward.
 */
export function composedActBackward(arch: ModelArch, dt: ActDtypes): number {
  if (!arch.mlpAct || arch.mlpAct === 'fused' || arch.mlpAct === 'relu') return 0;
  return arch.mlpAct === 'tanh-gelu' && dt.eF32 > dt.e ? 12 - 2 * dt.e : dt.e;
}
