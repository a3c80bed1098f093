/**
 * LoRA over a quantized base: how each library's quantized Linear runs under autograd, read from
 * its source — the weight-sized temporaries of its dequantization in forward and backward, and
 * what its forward leaves saved for backward (counted per layer in lora-activations.ts).
 *
 * - bitsandbytes 4-bit (nf4 / fp4), `bitsandbytes/autograd/_functions.py` `MatMul4Bit` (0.43.2 –
 *   0.49): forward `linear(A, dequantize_4bit(B, quant_state).to(A.dtype).t())` inside the
 *   autograd Function (no graph: nothing of it saved); `ctx.tensors = (None, B)` — the input A is
 *   not kept (bitsandbytes PR #1270, "delete useless buffered activation", July 2024; before 0.43.2
 *   it was `(A, B)`, which bnb-version=legacy counts); backward
 *   `matmul(grad_output, dequantize_4bit(B).to(grad_output.dtype))` dequantizes again.
 *   Temporaries: formats/quantized.ts bnbDequantBytes, forward and backward.
 * - bitsandbytes LLM.int8 (`weights=bnb-int8`), `MatMul8bitLt`: forward quantizes the input row-wise
 *   to int8 (`int8_vectorwise_quant`, CA: 1 B per input element) and runs an int8 GEMM against the
 *   stored CB — no weight-sized buffer, but token-sized ones (bnb ≥ 0.45 backends/default/ops.py
 *   `int8_scaled_mm`): the int32 product (4 B per output) and `int8_mm_dequant`'s fp16 result,
 *   cast by `.to(A.dtype)` while both exist unless A is fp16 (2 B more);
 *   `if any(ctx.needs_input_grad[:2]): ctx.tensors = (CAt, subA, A)` keeps the input A itself (CAt
 *   is None on the fast path taken when B needs no gradient; subA holds only the outlier columns);
 *   backward `CB = state.CB.to(ctx.dtype_A, copy=True).mul_(SCB…)` builds the whole weight in the
 *   input's dtype for grad_A.
 * - GPTQ through PEFT (auto-gptq `nn_modules/qlinear/qlinear_cuda_old.py` / `qlinear_cuda.py`
 *   `QuantLinear.forward`, the kernels transformers/optimum pick with exllama disabled, which
 *   training needs: `qlinear_exllama` raises "Exllama kernel does not support training"): past
 *   `kernel_switch_threshold` (128 rows) it unpacks with plain torch ops — `bitwise_right_shift`
 *   of the int32 qweight expanded to every weight (int32, 4 B each), `.to(int8)` (int16 for 8-bit),
 *   `bitwise_and`, `scales * (weight - zeros)` (fp16) — then `torch.matmul(x, weights)`. That matmul
 *   is recorded by autograd with an x that requires grad, so MmBackward saves `weights`, the whole
 *   16-bit dequantized weight of every such Linear, until backward (derivatives.yaml `mm`: self's
 *   gradient needs mat2). Nothing is dequantized in backward.
 * - AWQ, autoawq `awq/modules/linear/gemm.py` `WQLinear_GEMM.forward` (`x.half()`, then
 *   `WQLinearMMFunction`, whose forward calls `ctx.save_for_backward(x, qweight, qzeros, scales,
 *   bias)` — the fp16 input is kept for every Linear — and, from 1024 tokens on,
 *   `dequantize_weights_cuda` + `torch.matmul`); its backward dequantizes again and builds
 *   `weights.transpose(0, 1).unsqueeze(0).repeat(batch_size, 1, 1)`: b more copies of the weight.
 */
import type { BnbCompute, ModelArch, WeightFormat } from '../types';
import { AWQ_DEQUANT_ROWS, bnbDequantBytes } from '../formats/quantized';
import { blockKinds } from '../model/tensors';

export type BaseKernel = 'dense' | 'bnb-4bit' | 'bnb-int8' | 'gptq' | 'awq';

export function baseKernel(w: WeightFormat): BaseKernel {
  switch (w) {
    case 'nf4':
    case 'fp4':
      return 'bnb-4bit';
    case 'bnb-int8':
      return 'bnb-int8';
    case 'gptq-int4':
    case 'gptq-int8':
      return 'gptq';
    case 'awq-int4':
      return 'awq';
    default:
      return 'dense';
  }
}

/**
 * What a base Linear's forward keeps for backward: its input as it arrives ('as-is', MatMul8bitLt's
 * A: the same storage however many Linears read it), its input cast to a dtype ('cast', `castTo`:
 * WQLinear_GEMM's `x.half()`; bitsandbytes ≤ 0.43.1's MatMul4Bit keeps `Linear4bit.forward`'s
 * `x.to(compute_dtype)`) — the input itself where it already has that dtype, else a copy per
 * Linear — or nothing; `weight16`: the 16-bit dequantized weight (GPTQ).
 */
export interface BaseSaves {
  input: 'none' | 'as-is' | 'cast';
  /** the dtype an input of `bytes` (fp16 or not) is cast to: its element size, and whether a 2-byte one is fp16 (else bf16) */
  castTo?: (bytes: number, fp16: boolean) => Dtype;
  /** whose kernel casts (the formula names it) */
  by?: 'awq' | 'bnb';
  /** bytes per input element each Linear keeps besides (LLM.int8 ≤ 0.43.1: CAt, its input's int8 transpose) */
  perLinear?: number;
  weight16: boolean;
}

/**
 * The dtype a bitsandbytes 4-bit Linear computes in: `Linear4bit.set_compute_type` (nn/modules.py,
 * since 0.41.0) runs at its first forward and takes the input's own dtype when that is fp32 or bf16;
 * only an fp16 input keeps `bnb_4bit_compute_dtype` (the `bnb-compute` key). `inputBytes` / `fp16Input`: that input.
 */
export function bnbEffectiveCompute(configured: BnbCompute, inputBytes: number, fp16Input: boolean): BnbCompute {
  return inputBytes === 4 ? 'fp32' : fp16Input ? configured : 'bf16';
}

/** A floating dtype by element size, with fp16 told from bf16. */
export interface Dtype {
  bytes: number;
  fp16: boolean;
}

const FP16: Dtype = { bytes: 2, fp16: true };
const dtypeOf = (c: BnbCompute): Dtype => ({ bytes: c === 'fp32' ? 4 : 2, fp16: c === 'fp16' });

/**
 * `legacy`: bitsandbytes ≤ 0.43.1 (bnb-version=legacy), with the 4-bit compute dtype: its MatMul4Bit
 * keeps `ctx.tensors = (A, B)`, and its MatMul8bitLt quantizes every input with `double_quant`,
 * which also makes CAt (int8, the input's shape), kept in `ctx.tensors = (CAt, subA, A)`.
 */
export function baseSaves(k: BaseKernel, legacy: BnbCompute | null = null): BaseSaves {
  switch (k) {
    case 'bnb-int8':
      return legacy ? { input: 'as-is', perLinear: 1, weight16: false } : { input: 'as-is', weight16: false };
    case 'bnb-4bit':
      // Linear4bit.forward's x.to(compute_dtype), in the dtype set_compute_type chose for that input
      return legacy ? { input: 'cast', castTo: (b, f) => dtypeOf(bnbEffectiveCompute(legacy, b, f)), by: 'bnb', weight16: false } : { input: 'none', weight16: false };
    case 'awq':
      return { input: 'cast', castTo: () => FP16, by: 'awq', weight16: false };
    case 'gptq':
      return { input: 'none', weight16: true };
    default:
      return { input: 'none', weight16: false };
  }
}

export interface DequantTemps {
  /** transient bytes while the largest Linear runs forward */
  forward: number;
  /** … and backward */
  backward: number;
  formula: string;
  source: string;
}

/** What sizes a quantized Linear's temporaries in one micro-batch. */
export interface QuantLinearRun {
  /** the base weights' format and bitsandbytes 4-bit compute dtype */
  w: WeightFormat;
  compute: BnbCompute;
  /** elements of the largest Linear (d_in·d_out) */
  n: number;
  /** element size of the Linears' input (MatMul8bitLt's dtype_A), and whether that input is fp16 */
  inputBytes: number;
  fp16Input: boolean;
  /** sequences per micro-batch (AWQ's backward repeats the weight once per sequence) and their tokens (b·s) */
  batch: number;
  tokens: number;
}

/**
 * Bytes LLM.int8's forward makes beside one Linear's output, the largest over the block's Linears:
 * CA (d_in) + the int32 product (4·d_out) + the fp16 result before its cast (2·d_out, unless the
 * input is fp16), per token.
 */
function int8ForwardTemps(arch: ModelArch, tokens: number, fp16Input: boolean): number {
  let most = 0;
  for (const k of blockKinds(arch)) for (const t of k.linears) most = Math.max(most, t.din + t.dout * (fp16Input ? 4 : 6));
  return tokens * most;
}

/**
 * Temporaries of the largest quantized Linear in forward and backward: weight-sized
 * (dequantized copies) or, for LLM.int8's forward, token-sized (`int8ForwardTemps`).
 */
export function dequantTemps(arch: ModelArch, r: QuantLinearRun): DequantTemps | null {
  const { w, n, compute, inputBytes, batch, tokens } = r;
  switch (baseKernel(w)) {
    case 'bnb-4bit': {
      const b = bnbDequantBytes(compute, n);
      return {
        forward: b,
        backward: b,
        formula: compute === 'fp32' ? '(2 + 4)·max(d_in·d_out) (16-bit dequant + fp32 cast), forward and backward' : '2·max(d_in·d_out), forward and backward',
        source: 'bitsandbytes autograd/_functions.py MatMul4Bit.forward / backward (dequantize_4bit)',
      };
    }
    case 'bnb-int8':
      return {
        forward: int8ForwardTemps(arch, tokens, r.fp16Input),
        backward: n * inputBytes,
        formula: `forward: b·s·max(d_in + ${r.fp16Input ? '4' : '(4 + 2)'}·d_out) (CA int8, int32 product${r.fp16Input ? '' : ', fp16 result before .to(dtype_A)'}); backward: max(d_in·d_out)·e_in (CB.to(dtype_A, copy=True))`,
        source: 'bitsandbytes autograd/_functions.py MatMul8bitLt.forward / backward, backends/default/ops.py int8_scaled_mm',
      };
    case 'gptq': {
      // int32 unpack of every weight + its int8 (4-bit) / int16 (8-bit) cast live together
      const narrow = w === 'gptq-int8' ? 2 : 1;
      return {
        forward: n * (4 + narrow),
        backward: 0,
        formula: `forward: max(d_in·d_out)·(4 + ${narrow}) (int32 bitwise_right_shift + .to(int${8 * narrow})); the fp16 result is saved (activations)`,
        source: 'auto-gptq nn_modules/qlinear/qlinear_cuda_old.py QuantLinear.forward (torch dequantization path)',
      };
    }
    case 'awq': {
      const fwd = tokens >= AWQ_DEQUANT_ROWS;
      return {
        forward: fwd ? 2 * n : 0,
        backward: 2 * n * (1 + batch),
        formula: `forward: ${fwd ? '2·max(d_in·d_out) (dequantize_weights_cuda, b·s ≥ 1024)' : 'packed GEMM (b·s < 1024)'}; backward: 2·max(d_in·d_out)·(1 + b) (dequantized weight + .repeat(batch_size, 1, 1))`,
        source: 'autoawq awq/modules/linear/gemm.py WQLinearMMFunction.forward / backward',
      };
    }
    default:
      return null;
  }
}
