/**
 * Model-state bytes per parameter: working weights, gradients, fp32 master copy and
 * optimizer state, for each training precision × optimizer.
 *
 * Sources (formulas.md §4.1):
 * - ZeRO paper (Rajbhandari et al. 2020, arXiv 1910.02054 §3.1): mixed-precision Adam is
 *   2Ψ (fp16 weights) + 2Ψ (fp16 grads) + 12Ψ (fp32 master + m + v) = 16Ψ.
 * - HF docs `model_memory_anatomy`: torch AMP keeps fp32 params (4) + a half copy (2),
 *   fp32 grads (4) and AdamW m, v (8) = 18 B/param.
 * - PyTorch AdamW keeps exp_avg / exp_avg_sq in the parameter dtype (pure bf16: 2 + 2).
 * - bitsandbytes `optim/optimizer.py`: 8-bit states are uint8 plus one fp32 absmax per
 *   256-element block, per state.
 * - Lion (Chen et al. 2023, arXiv 2302.06675): one momentum buffer.
 * - Adafactor (Shazeer & Stern 2018, arXiv 1804.04235): factored second moment, a row and a
 *   column accumulator per matrix (β1 = None, HF default).
 */
import type { AdapterDtype, OptimImpl, Optimizer, Precision } from '../types';

/** Bytes per trainable parameter, split the way the estimate reports them. */
export interface ModelStateBytes {
  /** working copy used in forward/backward */
  weights: number;
  gradients: number;
  /** fp32 master copy (AMP only) */
  master: number;
  /** optimizer state proper (moments, factored accumulators) */
  optimizer: number;
  /** citation for the split */
  source: string;
}

/** bitsandbytes blockwise 8-bit state: 1 B + one fp32 absmax per 256 values. */
const BNB_8BIT_STATE_BYTES = 1 + 4 / 256;

/** Number of full-size state tensors each optimizer keeps per parameter. */
const STATE_COUNT: Record<Optimizer, number> = {
  adamw: 2,
  'adamw-8bit': 2,
  'paged-adamw': 2,
  'paged-adamw-8bit': 2,
  sgd: 0,
  'sgd-momentum': 1,
  adafactor: 0,
  lion: 1,
};

/** True for recipes that keep a separate fp32 master copy (AMP). */
export function hasMasterCopy(precision: Precision): boolean {
  return precision === 'amp-fp16' || precision === 'amp-bf16';
}

/** Bytes of one element of the working weights / optimizer states for a precision. */
function paramDtypeBytes(precision: Precision): number {
  return precision === 'bf16' || precision === 'fp16' ? 2 : 4;
}

/**
 * Optimizer-state bytes per parameter (moments only; the AMP master copy is separate).
 * States live in the parameter dtype for PyTorch optimizers (fp32 under AMP, where the
 * optimizer steps the fp32 master), in blockwise uint8 for bitsandbytes 8-bit ones.
 * Adafactor's factored accumulators cost 4·(n + m) bytes per n × m matrix; `hidden` gives
 * the typical square shape (n = m = h), i.e. 8/h B/param. Paged variants hold the same bytes
 * in CUDA unified memory (QLoRA paper, arXiv 2305.14314 §3).
 */
export function optimizerBytesPerParam(optimizer: Optimizer, precision: Precision, hidden = 4096): number {
  if (optimizer === 'adafactor') return (4 * 2 * Math.max(1, hidden)) / Math.max(1, hidden) ** 2;
  const perState = optimizer.endsWith('8bit') ? BNB_8BIT_STATE_BYTES : paramDtypeBytes(precision);
  return STATE_COUNT[optimizer] * perState;
}

/**
 * Per-parameter model-state bytes for a full fine-tune.
 * `deepspeedGrads`: under ZeRO (DeepSpeed / FSDP mixed precision) AMP gradients are kept and
 * reduced in 16-bit (ZeRO paper: 2Ψ); plain torch autocast produces fp32 grads on fp32 params.
 */
export function modelStateBytes(precision: Precision, optimizer: Optimizer, deepspeedGrads = false, hidden = 4096): ModelStateBytes {
  const amp = hasMasterCopy(precision);
  const weights = precision === 'fp32' ? 4 : 2;
  const gradients = precision === 'fp32' ? 4 : amp && !deepspeedGrads ? 4 : 2;
  const master = amp ? 4 : 0;
  const source = amp
    ? deepspeedGrads
      ? 'ZeRO, arXiv 1910.02054 §3.1 (16-bit weights+grads, fp32 master+states)'
      : 'HF docs model_memory_anatomy (AMP: fp32 params + 16-bit copy, fp32 grads)'
    : precision === 'fp32'
      ? 'PyTorch optimizers: states in param dtype (fp32)'
      : 'PyTorch optimizers: states in param dtype (transformers PR #21312, pure 16-bit)';
  return { weights, gradients, master, optimizer: optimizerBytesPerParam(optimizer, precision, hidden), source };
}

/**
 * Per-parameter state bytes of LoRA / QLoRA adapters. PEFT creates adapters in fp32 even on a
 * 16-bit base: `get_peft_model(..., autocast_adapter_dtype=True)` (the default since PEFT 0.12)
 * "will only cast adapter weights using float16 and bfloat16 to float32". So pure fp16/bf16 runs
 * train fp32 adapters with fp32 gradients and fp32 optimizer states (16 B/param for AdamW, formulas.md
 * §6.2: "w = 4, g = 4, o = 8"): `adapterDtype` 'fp32'. torchtune builds `LoRALinear`'s lora_a /
 * lora_b as ordinary `nn.Linear`s inside a model created in the recipe's `dtype` (bf16), so they,
 * their gradients and the torch.optim states (kept in the parameter dtype) are 16-bit: 'base', the
 * same bytes as a pure 16-bit full fine-tune (2 + 2 + 4 for AdamW); PEFT with
 * `autocast_adapter_dtype=False` does the same. AMP and fp32 recipes hold fp32 parameters, adapters
 * included, whatever `adapterDtype` says: the same split as a full fine-tune of that precision (under
 * AMP the fp32 adapter is the master copy and autocast makes the 16-bit working copy). Under
 * DeepSpeed (`deepspeedGrads`) the engine casts the whole module, adapters included, to its 16-bit
 * dtype (engine.py `_configure_distributed_model`: module.half() / .bfloat16()), as for a full model.
 */
export function adapterStateBytes(precision: Precision, optimizer: Optimizer, deepspeedGrads = false, hidden = 4096, adapterDtype: AdapterDtype = 'fp32'): ModelStateBytes {
  if ((precision !== 'bf16' && precision !== 'fp16') || deepspeedGrads) return modelStateBytes(precision, optimizer, deepspeedGrads, hidden);
  if (adapterDtype === 'base') {
    return { ...modelStateBytes(precision, optimizer, false, hidden), source: 'adapters in the model dtype (torchtune LoRALinear; PEFT autocast_adapter_dtype=False): states in param dtype' };
  }
  return {
    weights: 4,
    gradients: 4,
    master: 0,
    optimizer: optimizerBytesPerParam(optimizer, 'fp32', hidden),
    source: 'PEFT autocast_adapter_dtype=True (≥ 0.12): fp16/bf16 adapters cast to fp32; formulas.md §6.2',
  };
}

/** Sum of the four model-state components. */
export function totalStateBytes(m: ModelStateBytes): number {
  return m.weights + m.gradients + m.master + m.optimizer;
}

/**
 * Temporary of torch AdamW's step (torch/optim/adamw.py, adam.py): the multi-tensor path
 * (`foreach`, default on CUDA) builds `exp_avg_sq_sqrt = torch._foreach_sqrt(exp_avg_sqs)` over
 * every parameter at once, one state's worth ("foreach … uses ~sizeof(params) more peak memory",
 * torch.optim docs); `fused=True` updates in one kernel with no temporary; the per-parameter loop
 * (`foreach=False`, transformers' adamw_hf) builds `denom` for one tensor at a time, so the
 * largest parameter's state-sized temporary.
 */
export function adamStepTemp(impl: OptimImpl, oneStateBytes: number, largestParamStateBytes: number): number {
  if (impl === 'fused') return 0;
  return impl === 'for-loop' ? largestParamStateBytes : oneStateBytes;
}
