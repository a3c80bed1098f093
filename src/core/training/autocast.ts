/**
 * Whether the training forward runs under torch.autocast.
 *
 * - AMP precisions (amp-bf16 / amp-fp16) are autocast over fp32 parameters by definition.
 * - 16-bit weights (precision bf16 / fp16) with `autocast=on`: HF Trainer builds its Accelerator
 *   with mixed_precision from `bf16=True` / `fp16=True`, and accelerate's `prepare_model`
 *   (accelerate/accelerator.py) wraps `model.forward` in `torch.autocast` whenever native AMP is on,
 *   whatever dtype the weights were loaded in. For an all-16-bit model that changes nothing (autocast
 *   leaves 16-bit inputs as they are), but fp32 parameters in it — PEFT's fp32 LoRA adapters
 *   (`autocast_adapter_dtype=True`), prepare_model_for_kbit_training's fp32 norms, embedding and
 *   head — then compute their matmuls in 16-bit: lora_A saves a 16-bit cast of its input, not an
 *   fp32 one (aten/src/ATen/autocast_mode.cpp: `linear` is on the lower-precision list).
 * - `autocast=off`: torchtune recipes and plain loops without a `torch.autocast` block.
 */
import type { Scenario } from '../types';

export function autocastActive(s: Pick<Scenario, 'precision' | 'autocast'>): boolean {
  if (s.precision === 'amp-bf16' || s.precision === 'amp-fp16') return true;
  return (s.precision === 'bf16' || s.precision === 'fp16') && s.autocast === 'on';
}
