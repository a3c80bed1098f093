/**
 * Where the plain formats (fp64, and int8 / int4 stored at their nominal width for every
 * parameter: formats/weights.ts PLAIN_INT) can run. One table for the URL / CLI rules
 * (scenario/rules.ts) and the estimator's own checks (estimate-checks.ts):
 * - training: PyTorch autograd only lets floating-point tensors require grad
 *   (torch/csrc/autograd/variable.cpp, "Only Tensors of floating point and complex dtype can require
 *   gradients"), and PEFT's LoRA base layers wrap bitsandbytes / GPTQ / AWQ Linears, none plain
 *   int8 / int4 (peft/tuners/lora/model.py _create_new_module dispatchers); fp64 is no training
 *   precision here (the `precision` key sets what training stores);
 * - vLLM: its `dtype` is half / float16 / bfloat16 / float / float32 (vllm/config.py
 *   _STR_DTYPE_TO_TORCH_DTYPE), its integer weights come through a quantization method (fp8, GPTQ,
 *   AWQ, bitsandbytes);
 * - llama.cpp loads GGUF files (its nearest types are q8_0 and q4_0).
 * transformers inference loads all three (torch_dtype=torch.float64; int8 / int4 as the nominal width).
 */
import type { WeightFormat } from '../types';

export const PLAIN_FORMATS: readonly WeightFormat[] = ['fp64', 'int8', 'int4'];

export type PlainWhere = 'training' | 'vllm' | 'llama.cpp';

/** Why `w` cannot run `where`, or null when it can (or is not a plain format). */
export function plainRefusal(w: WeightFormat, where: PlainWhere): string | null {
  if (!PLAIN_FORMATS.includes(w)) return null;
  if (where === 'training') {
    return w === 'fp64'
      ? 'weights=fp64 is not a training format here: the precision key (fp32, amp-fp16, amp-bf16, bf16, fp16) sets what training stores'
      : `weights=${w} is plain integer storage, which PyTorch cannot train (only floating-point tensors take gradients) and PEFT has no LoRA layer over; train LoRA over bnb-int8, nf4, gptq-int8, gptq-int4 or awq-int4`;
  }
  if (where === 'vllm') {
    return w === 'fp64'
      ? 'engine=vllm runs fp32, fp16 or bf16 models, not fp64'
      : `engine=vllm has no plain ${w} weights: its 8- and 4-bit weights are fp8, bnb-int8, gptq-int8, gptq-int4 or awq-int4`;
  }
  return `engine=llama.cpp runs GGUF weights (or f32/f16/bf16), not ${w}${w === 'fp64' ? '' : `: its nearest type is gguf-${w === 'int8' ? 'q8_0' : 'q4_0'}`}`;
}
