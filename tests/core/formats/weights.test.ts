import { describe, expect, test } from 'vitest';
import { findPreset, PRESETS } from '../../../src/core/model/presets';
import { countParams } from '../../../src/core/model/params';
import { bytesPerParamNominal, kvBytesPerElement, weightBytes } from '../../../src/core/formats/weights';
import { ggufBytesFromArch } from '../../../src/core/formats/gguf';
import { WEIGHT_FORMATS } from '../../../src/core/scenario/schema';
import type { ParamBreakdown, WeightFormat } from '../../../src/core/types';

const GiB = 2 ** 30;
const preset = (id: string) => {
  const arch = findPreset(id)!.arch;
  return { arch, b: countParams(arch) };
};
const llama3 = preset('meta-llama/Meta-Llama-3-8B');
const llama2 = preset('meta-llama/Llama-2-7b-hf');

describe('GGUF mixes with llama.cpp per-tensor rules', () => {
  // llama.cpp tools/quantize/quantize.cpp QUANT_OPTIONS sizes for Llama-3-8B (GiB), docs/reference/formulas.md §2.4.
  test.each([
    ['gguf-q8_0', 7.96],
    ['gguf-q6_k', 6.14],
    ['gguf-q5_k_m', 5.33],
    ['gguf-q4_k_m', 4.58],
    ['gguf-q4_k_s', 4.37],
    ['gguf-q4_0', 4.34],
    ['gguf-q3_k_m', 3.74],
    ['gguf-q2_k', 2.96],
  ] as [WeightFormat, number][])('Llama-3-8B %s ≈ %f GiB (within 0.5%%)', (format, gib) => {
    const w = weightBytes(llama3.arch, llama3.b, format);
    expect(Math.abs(w.bytes / GiB / gib - 1)).toBeLessThan(0.005);
  });

  test('8-expert models keep attn_k and attn_v in Q8_0 (Mixtral-8x7B Q4_K_M)', () => {
    const { arch, b } = preset('mistralai/Mixtral-8x7B-v0.1');
    const g = ggufBytesFromArch(arch, b, 'q4_k_m')!;
    expect(g.paramsByType.q8_0).toBe(32 * 2 * 4096 * 1024);
  });

  test('70B rule: Llama-2-70B Q4_K_S stores every attn_v (and ffn_down of the first eighth) as Q5_K', () => {
    const { arch, b } = preset('meta-llama/Llama-2-70b-hf');
    const g = ggufBytesFromArch(arch, b, 'q4_k_s')!;
    expect(g.paramsByType.q5_k).toBe(80 * 8192 * 1024 + 10 * 28672 * 8192);
  });

  test('rows that are not whole 256-blocks fall back (Qwen2.5-0.5B, h = 896): tied head in Q8_0, Q4_K -> Q5_0', () => {
    const { arch, b } = preset('Qwen/Qwen2.5-0.5B');
    const g = ggufBytesFromArch(arch, b, 'q4_k_m')!;
    expect(g.paramsByType.q8_0).toBeGreaterThanOrEqual(151936 * 896);
    expect(g.paramsByType.q5_0).toBeGreaterThan(0);
  });

  test('norms stay F32: 4 bytes each', () => {
    const g = ggufBytesFromArch(llama3.arch, llama3.b, 'q8_0')!;
    expect(g.paramsByType.f32).toBe(32 * 2 * 4096 + 4096);
  });

  test('without an architecture: average bpw of docs/reference/formulas.md §2.4, flagged heuristic', () => {
    const w = weightBytes(null, llama3.b, 'gguf-q4_k_m');
    expect(w.bytes).toBeCloseTo((8_030_261_248 * 4.89) / 8, -3);
    expect(w.derivation.confidence).toBe('heuristic');
  });
});

describe('bitsandbytes, GPTQ, AWQ', () => {
  const bits = (format: WeightFormat, opts = {}) => Number(weightBytes(llama2.arch, llama2.b, format, opts).derivation.values.bits_per_linear_weight);

  test('NF4 with double quantization: 4 + 8/64 + 32/(64·256) = 4.127 bits on linear layers (QLoRA §3)', () => {
    expect(bits('nf4')).toBeCloseTo(4 + 8 / 64 + 32 / (64 * 256), 5);
  });

  test('NF4/FP4 without double quantization: 4 + 32/64 = 4.5 bits; fp4 defaults to no double quant', () => {
    expect(bits('nf4', { doubleQuant: false })).toBe(4.5);
    expect(bits('fp4')).toBe(4.5);
  });

  test('Llama-2-7b NF4-DQ ≈ 3.87 GB (docs/reference/formulas.md §2.2)', () => {
    expect(weightBytes(llama2.arch, llama2.b, 'nf4').bytes / 1e9).toBeCloseTo(3.87, 1);
    expect(Math.abs(weightBytes(llama2.arch, llama2.b, 'nf4').bytes / 3.87e9 - 1)).toBeLessThan(0.005);
  });

  test('Llama-2-7b GPTQ 4-bit g128 ≈ 3.89 GB (docs/reference/formulas.md §2.3)', () => {
    expect(Math.abs(weightBytes(llama2.arch, llama2.b, 'gptq-int4').bytes / 3.89e9 - 1)).toBeLessThan(0.005);
  });

  test('GPTQ bits = w + 16/G + w/G + 32/out; AWQ = 4.156 for w = 4, G = 128', () => {
    expect(bits('gptq-int4')).toBeGreaterThan(4 + 16 / 128 + 4 / 128);
    expect(bits('gptq-int4')).toBeLessThan(4 + 16 / 128 + 4 / 128 + 32 / 4096);
    expect(bits('awq-int4')).toBe(4 + 16 / 128 + 4 / 128);
    expect(bits('awq-int4', { groupSize: 64 })).toBe(4 + 16 / 64 + 4 / 64);
  });

  test('LLM.int8: 1 byte per weight + 4 bytes per output row', () => {
    const b = llama2.b;
    const rows = 32 * (4 * 4096 + 2 * 11008 + 4096); // q,k,v,o + gate,up (11008 rows) + down (4096 rows)
    expect(weightBytes(llama2.arch, b, 'bnb-int8').bytes).toBe(b.blockLinear + 4 * rows + 2 * (b.total - b.blockLinear));
  });

  test('embeddings, LM head and norms stay 16-bit', () => {
    const b = llama2.b;
    const w = weightBytes(llama2.arch, b, 'nf4');
    expect(w.bytes - (b.blockLinear * bits('nf4')) / 8).toBeCloseTo(2 * (b.embedding + b.lmHead + b.other), -1);
  });
});

describe('bytes split by role', () => {
  test('parts sum to the total for every format', () => {
    for (const f of ['bf16', 'nf4', 'gptq-int4', 'gguf-q4_k_m'] as WeightFormat[]) {
      for (const arch of [llama3.arch, null]) {
        const w = weightBytes(arch, llama3.b, f);
        expect(w.parts.embedding + w.parts.lmHead + w.parts.blocks + w.parts.other).toBeCloseTo(w.bytes, 0);
      }
    }
  });

  test('GGUF Q4_K_M Llama-3-8B: head Q6_K (210 B / 256), untied embedding Q4_K (144 B / 256)', () => {
    const w = weightBytes(llama3.arch, llama3.b, 'gguf-q4_k_m');
    expect(w.parts.lmHead).toBe((128256 * 4096 * 210) / 256);
    expect(w.parts.embedding).toBe((128256 * 4096 * 144) / 256);
  });

  test('bnb keeps embedding and head in 16 bits', () => {
    const w = weightBytes(llama2.arch, llama2.b, 'nf4');
    expect(w.parts.embedding).toBe(2 * 32000 * 4096);
    expect(w.parts.lmHead).toBe(2 * 32000 * 4096);
  });
});

describe('dense formats and the quick method', () => {
  const bare = (total: number): ParamBreakdown => ({ total, active: total, embedding: 0, lmHead: 0, blockLinear: total, other: 0, largestLinear: 0, perLayer: 0 });

  test('7b: fp32 26.08 GiB, fp16 13.04, int8 6.52, int4 3.26 (7e9 · b / 2^30)', () => {
    expect((7e9 * bytesPerParamNominal('fp32')) / GiB).toBeCloseTo(26.08, 2);
    expect((7e9 * bytesPerParamNominal('fp16')) / GiB).toBeCloseTo(13.04, 2);
    expect((7e9 * bytesPerParamNominal('int8')) / GiB).toBeCloseTo(6.52, 2);
    expect((7e9 * bytesPerParamNominal('gptq-int4')) / GiB).toBeCloseTo(3.26, 2);
    expect(weightBytes(null, bare(7e9), 'fp32').bytes / GiB).toBeCloseTo(26.08, 2);
    expect(weightBytes(null, bare(7e9), 'bf16').bytes).toBe(14e9);
  });

  test('nominal widths', () => {
    expect(bytesPerParamNominal('fp64')).toBe(8);
    expect(bytesPerParamNominal('bf16')).toBe(2);
    expect(bytesPerParamNominal('nf4')).toBe(0.5);
    expect(bytesPerParamNominal('gguf-q8_0')).toBe(1);
  });

  test('KV element sizes (ggml block_q8_0 34 B / 32, block_q4_0 18 B / 32)', () => {
    expect([kvBytesPerElement('fp32'), kvBytesPerElement('fp16'), kvBytesPerElement('bf16'), kvBytesPerElement('fp8')]).toEqual([4, 2, 2, 1]);
    expect([kvBytesPerElement('int8'), kvBytesPerElement('int4')]).toEqual([1, 0.5]);
    expect(kvBytesPerElement('q8_0')).toBe(34 / 32);
    expect(kvBytesPerElement('q4_0')).toBe(18 / 32);
  });
});

describe('every preset × every format', () => {
  // every format the schema offers, fp64 aside (it is wider than bf16 by definition)
  const FORMATS = WEIGHT_FORMATS.filter((f) => f !== 'fp64');
  test('finite, positive, and below the bf16 size for every quantized format', () => {
    for (const p of PRESETS) {
      const b = countParams(p.arch);
      for (const f of FORMATS) {
        for (const arch of [p.arch, null]) {
          const w = weightBytes(arch, b, f);
          expect(Number.isFinite(w.bytes) && w.bytes > 0).toBe(true);
          if (f !== 'fp32') expect(w.bytes).toBeLessThanOrEqual(2 * b.total * 1.001);
        }
      }
    }
  });
});
