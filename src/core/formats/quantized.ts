/**
 * Bytes of one quantized Linear weight (din → dout) in each weight-only scheme, from the
 * buffers each library allocates. Only block Linears are quantized; embeddings, LM head,
 * norms, biases and routers stay in the 16-bit compute dtype (docs/reference/formulas.md §2.2, §2.3).
 * - bitsandbytes LLM.int8 (`Int8Params`: CB int8 [out, in] + SCB fp32 [out]) and 4-bit
 *   (`Params4bit` / `functional.quantize_4bit`: packed 4-bit, absmax per 64 weights, fp32 or,
 *   with double quantization, uint8 + fp32 absmax per 256 blocks + fp32 offset): docs/reference/formulas.md §2.2.
 * - GPTQ (AutoGPTQ `QuantLinear`: qweight, qzeros, scales, g_idx) and AWQ (AutoAWQ
 *   `WQLinear_GEMM`: qweight, qzeros, scales): docs/reference/formulas.md §2.3.
 * - FP8 (vLLM `Fp8LinearMethod`): 1 B per weight + one fp32 per-tensor scale: docs/reference/formulas.md §2.1.
 */
import type { BnbCompute, ModelArch, WeightFormat } from '../types';
import { blockKinds } from '../model/tensors';

/** bitsandbytes 4-bit quantization block (blocksize=64) and double-quant block of absmax values (256). */
export const BNB4_BLOCK = 64;
export const BNB4_DQ_BLOCK = 256;
/** Default GPTQ/AWQ group size (AutoGPTQ / AutoAWQ default, and the common published checkpoints). */
export const DEFAULT_GROUP_SIZE = 128;

/** Quantized formats PEFT trains LoRA adapters over (QLoRA and its GPTQ / AWQ / LLM.int8 kin). */
export const ADAPTER_QUANTIZED: readonly WeightFormat[] = ['nf4', 'fp4', 'bnb-int8', 'gptq-int4', 'gptq-int8', 'awq-int4'];

export type LinearBytes = (din: number, dout: number) => number;

/** LLM.int8(): int8 weight + one fp32 absmax per output row. */
export const bnbInt8: LinearBytes = (din, dout) => din * dout + 4 * dout;

/** bitsandbytes NF4/FP4 over the flattened weight; doubleQuant = `compress_statistics`. */
export function bnb4bit(doubleQuant: boolean): LinearBytes {
  return (din, dout) => {
    const n = din * dout;
    const blocks = Math.ceil(n / BNB4_BLOCK);
    const stats = doubleQuant ? blocks + 4 * Math.ceil(blocks / BNB4_DQ_BLOCK) + 4 : 4 * blocks;
    return Math.ceil(n / 2) + stats;
  };
}

/** GPTQ: qweight int32 [in·w/32, out], qzeros int32 [in/G, out·w/32], scales fp16 [in/G, out], g_idx int32 [in]. */
export function gptq(bits: number, group: number): LinearBytes {
  return (din, dout) => {
    const groups = Math.ceil(din / group);
    return 4 * Math.ceil((din * bits) / 32) * dout + 4 * groups * Math.ceil((dout * bits) / 32) + 2 * groups * dout + 4 * din;
  };
}

/** AWQ GEMM: qweight int32 [in, out·w/32], qzeros int32 [in/G, out·w/32], scales fp16 [in/G, out]. */
export function awq(bits: number, group: number): LinearBytes {
  return (din, dout) => {
    const groups = Math.ceil(din / group);
    const packed = 4 * Math.ceil((dout * bits) / 32);
    return din * packed + groups * packed + 2 * groups * dout;
  };
}

/**
 * ChatGLM's own quantization (THUDM chatglm `quantization.py` `QuantizedLinear`, what
 * `model.quantize(bits)` and the -int4 / -int8 checkpoints load): an int8 weight [out, in·bits/8]
 * (two 4-bit values per byte) and one fp16 `weight_scale` per output row.
 */
export function chatglmInt(bits: number): LinearBytes {
  return (din, dout) => dout * Math.ceil((din * bits) / 8) + 2 * dout;
}

/** Plain int8 / int4 on a ChatGLM model are its own quantize() (chatglmInt), not every parameter at its nominal width. */
export function chatglmQuantized(family: string, weights: WeightFormat): boolean {
  return family === 'chatglm' && (weights === 'int8' || weights === 'int4');
}

/** FP8 e4m3 weight + fp32 per-tensor scale. */
export const fp8: LinearBytes = (din, dout) => din * dout + 4;

/** Σ over every block Linear (all layers, all experts) of the scheme's bytes. */
export function sumLinears(arch: ModelArch, bytes: LinearBytes): number {
  let total = 0;
  for (const kind of blockKinds(arch)) {
    for (const t of kind.linears) total += kind.count * t.copies * bytes(t.din, t.dout);
  }
  return total;
}

/**
 * Asymptotic bits per weight of each scheme for large matrices, used when only a parameter
 * count is known (per-row and per-tensor terms such as g_idx and SCB dropped).
 */
export function nominalBits(scheme: 'int8' | 'nf4' | 'nf4-dq' | 'gptq' | 'awq' | 'fp8', bits: number, group: number): number {
  switch (scheme) {
    case 'int8':
    case 'fp8':
      return 8;
    case 'nf4':
      return 4 + 32 / BNB4_BLOCK;
    case 'nf4-dq':
      return 4 + 8 / BNB4_BLOCK + 32 / (BNB4_BLOCK * BNB4_DQ_BLOCK);
    case 'gptq':
    case 'awq':
      return bits + (16 + bits) / group;
  }
}

/** bitsandbytes 4-bit formats (Linear4bit): the ones double-quant and bnb-compute change. */
export const bnb4bitFormat = (w: WeightFormat): boolean => w === 'nf4' || w === 'fp4';

/**
 * bitsandbytes 4-bit matmul for more than one token (bitsandbytes autograd/_functions.py
 * `matmul_4bit`: `linear(A, dequantize_4bit(B).to(A.dtype).t())`, with A cast to
 * `bnb_4bit_compute_dtype` by Linear4bit.forward): the 16-bit dequantized weight, plus its fp32
 * copy while `.to()` runs when the compute dtype is float32 (transformers' default).
 */
export function bnbDequantBytes(compute: BnbCompute, largestLinear: number): number {
  return largestLinear * (2 + (compute === 'fp32' ? 4 : 0));
}

/** AutoAWQ's FP16_MATMUL_HEURISTIC_CONDITION: `x.shape[0] * x.shape[1] >= 1024` (batch × tokens). */
export const AWQ_DEQUANT_ROWS = 1024;
