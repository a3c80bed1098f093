/**
 * LoRA over quantized bases (src/core/training/quant-base.ts), Llama-2-7b (h 4096, f 11008, 32 layers,
 * a = g = 32, d 128; docs/reference/formulas.md §1.1), s = 1024, b = 1, rank 16 on q, v, 16-bit adapters, SDPA.
 * Each expected value is the plain-LoRA inventory (lora-activations.ts) plus what the library's
 * quantized Linear keeps, written from its source:
 * - auto-gptq qlinear_cuda_old QuantLinear.forward: torch.matmul(x, weights) with x requiring grad
 *   saves the fp16 dequantized weight (2 B per weight) of every Linear; forward unpacks through an
 *   int32 shift (4 B) and an int8 (int16 for 8-bit) cast;
 * - bitsandbytes MatMul8bitLt: ctx.tensors = (CAt, subA, A) keeps each Linear's input as it arrives;
 *   forward's int8_scaled_mm makes token-sized int32 and fp16 results; backward builds CB.to(dtype_A)
 *   (the whole weight at the input's width);
 * - autoawq WQLinear_GEMM: x.half() then save_for_backward(x, …); backward dequantizes (2 B) and
 *   repeats the weight batch_size times.
 * kbit-prep is off here (its fp32 upcast is tested in kbit-prep.test.ts).
 */
import { describe, expect, it } from 'vitest';
import type { Estimate, Scenario } from '../../../src/core/types';
import { run } from './llama2';

const h = 4096,
  f = 11008,
  L = 32,
  s = 1024,
  b = 1;
const acts = (e: Estimate) => e.terms.find((t) => t.id === 'activations')!.bytes;
const dequant = (e: Estimate) => e.terms.find((t) => t.id === 'dequant-buffer')?.bytes ?? 0;
const base: Partial<Scenario> = { attn: 'sdpa', seq: s, batch: b, loraRank: 16, loraTargets: ['q', 'v'], adapterDtype: 'base', kbitPrep: 'off' };
const plain = (precision: Scenario['precision']) => acts(run({ ...base, precision, weights: precision === 'fp16' ? 'fp16' : 'bf16', method: 'lora' }));
const n = h * f; // largest Linear: gate / up / down, 4096 × 11008

describe('GPTQ base (auto-gptq torch dequantization path)', () => {
  // one layer's Linears: q, k, v, o (h × h each, a = g) and gate, up, down (h × f each)
  const layerWeights = 4 * h * h + 3 * h * f;

  it("every layer keeps its Linears' 16-bit dequantized weights saved for backward", () => {
    const got = acts(run({ ...base, precision: 'fp16', weights: 'gptq-int4', method: 'qlora' }));
    expect(got - plain('fp16')).toBe(L * 2 * layerWeights);
  });

  it("with full checkpointing only the recomputed layer's weights are saved", () => {
    const q = acts(run({ ...base, precision: 'fp16', weights: 'gptq-int4', method: 'qlora', gradCkpt: 'full' }));
    const l = acts(run({ ...base, precision: 'fp16', weights: 'fp16', method: 'lora', gradCkpt: 'full' }));
    expect(q - l).toBe(2 * layerWeights);
  });

  it('forward unpack: int32 shift + int8 cast (4-bit) = 5 B per weight; int16 cast (8-bit) = 6 B', () => {
    expect(dequant(run({ ...base, precision: 'fp16', weights: 'gptq-int4', method: 'qlora' }))).toBe(5 * n);
    expect(dequant(run({ ...base, precision: 'fp16', weights: 'gptq-int8', method: 'lora' }))).toBe(6 * n);
  });

  it('method lora and qlora over the same GPTQ base are the same run', () => {
    const a = run({ ...base, precision: 'fp16', weights: 'gptq-int4', method: 'qlora' });
    const c = run({ ...base, precision: 'fp16', weights: 'gptq-int4', method: 'lora' });
    expect(c.allocatedBytes).toBe(a.allocatedBytes);
  });
});

describe('bitsandbytes LLM.int8 base (MatMul8bitLt)', () => {
  it('saves each Linear input: the MLP norm output (gate / up, read by no adapter) and the down input; q / k / v share the tensor lora_A keeps; the o input is the SDPA output', () => {
    const e = 2;
    const got = acts(run({ ...base, precision: 'bf16', weights: 'bnb-int8', method: 'qlora' }));
    expect(got - plain('bf16')).toBe(L * s * b * (e * h + e * f));
  });

  it('backward rebuilds the largest weight at the input width (2 B)', () => {
    expect(dequant(run({ ...base, precision: 'bf16', weights: 'bnb-int8', method: 'qlora' }))).toBe(2 * n);
  });

  // bnb ≥ 0.45 int8_scaled_mm: CA (1 B per input) + int32 product (4 B per output) + int8_mm_dequant's
  // fp16 result (2 B) beside the .to(dtype_A) copy the Linear returns; up_proj (4096 → 11008) is the widest
  it('forward at 4,096 tokens outgrows the backward copy: up_proj with bf16 input makes 4,096·(4096 + 6·11008) B', () => {
    expect(dequant(run({ ...base, seq: 4096, precision: 'bf16', weights: 'bnb-int8', method: 'qlora' }))).toBe(4096 * (h + 6 * f));
  });
  it('an fp16 input: the fp16 result is the output itself, 4,096·(4096 + 4·11008) B', () => {
    expect(dequant(run({ ...base, seq: 4096, precision: 'fp16', weights: 'bnb-int8', method: 'qlora' }))).toBe(4096 * (h + 4 * f));
  });
});

describe('AWQ base (autoawq WQLinear_GEMM)', () => {
  it('fp16 model: x.half() is x, so like LLM.int8 each distinct input is kept once', () => {
    const got = acts(run({ ...base, precision: 'fp16', weights: 'awq-int4', method: 'qlora' }));
    expect(got - plain('fp16')).toBe(L * s * b * 2 * (h + f));
  });

  it('bf16 model: each Linear keeps its own fp16 copy (q, k, v, o, gate, up, down)', () => {
    const got = acts(run({ ...base, precision: 'bf16', weights: 'awq-int4', method: 'qlora' }));
    expect(got - plain('bf16')).toBe(L * s * b * 2 * (3 * h + h + 2 * h + f));
  });

  it('backward: dequantized weight + batch_size repeats (b = 2: 3 copies of 2 B)', () => {
    expect(dequant(run({ ...base, precision: 'fp16', weights: 'awq-int4', method: 'qlora', batch: 2 }))).toBe(2 * n * 3);
  });
});

describe('bitsandbytes 4-bit, bnb-version=legacy (≤ 0.43.1: MatMul4Bit ctx.tensors = (A, B))', () => {
  // Linear4bit.forward: x = x.to(compute_dtype), then MatMul4Bit keeps that A for every Linear; 0.43.2 keeps (None, B)
  const qlora = (precision: Scenario['precision'], bnbCompute: Scenario['bnbCompute'], bnbVersion: Scenario['bnbVersion']) =>
    acts(run({ ...base, precision, weights: 'nf4', method: 'qlora', bnbCompute, bnbVersion }));
  it('a bf16 model: no cast, so like LLM.int8 each distinct input is kept once (the MLP norm output and the down input)', () => {
    const e = 2;
    expect(qlora('bf16', 'bf16', 'legacy') - qlora('bf16', 'bf16', 'current')).toBe(L * s * b * (e * h + e * f));
  });
  it("a bf16 input computes in bf16 whatever bnb_4bit_compute_dtype says (set_compute_type): float32's saves are bf16's", () => {
    expect(qlora('bf16', 'fp32', 'legacy') - qlora('bf16', 'fp32', 'current')).toBe(qlora('bf16', 'bf16', 'legacy') - qlora('bf16', 'bf16', 'current'));
  });
  it("an fp16 model under float32 compute (transformers' default): every Linear keeps its own fp32 copy: q, k, v, o, gate, up (h wide) and down (f wide)", () => {
    expect(qlora('fp16', 'fp32', 'legacy') - qlora('fp16', 'fp32', 'current')).toBe(L * s * b * 4 * (6 * h + f));
  });
});

describe('LLM.int8, bnb-version=legacy (≤ 0.43.1: double_quant, ctx.tensors = (CAt, subA, A))', () => {
  it("each Linear keeps its input's int8 transpose CAt beside the input: 1 B per input element of q, k, v, o, gate, up (h) and down (f)", () => {
    const int8 = (bnbVersion: Scenario['bnbVersion']) => acts(run({ ...base, precision: 'bf16', weights: 'bnb-int8', method: 'qlora', bnbVersion }));
    expect(int8('legacy') - int8('current')).toBe(L * s * b * (6 * h + f));
  });
});
