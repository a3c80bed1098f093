import { describe, expect, it } from 'vitest';
import { estimate } from '../../src/core/estimate';
import { fitsOn, maxBatch, maxContext, minGpus, sweep } from '../../src/core/solve';
import { defaultScenario } from '../../src/core/scenario/schema';
import type { Scenario } from '../../src/core/types';

const GiB = 2 ** 30;
const LLAMA2 = 'meta-llama/Llama-2-7b-hf';
const base: Scenario = { ...defaultScenario(), model: LLAMA2, weights: 'bf16', kv: 'fp16', prompt: 2048, gen: 256, attn: 'flash' };
const device = (s: Scenario) => {
  const r = estimate(s);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.deviceBytes;
};
const ok = <T>(r: { ok: true; value: T } | { ok: false }) => {
  if (!r.ok) throw new Error('solver failed');
  return r.value;
};

describe('maxBatch / maxContext', () => {
  it('Llama-2-7b bf16 on 24 GiB: the boundary batch fits and the next does not', () => {
    const b = ok(maxBatch(base, 24 * GiB));
    expect(device({ ...base, batch: b })).toBeLessThanOrEqual(24 * GiB);
    expect(device({ ...base, batch: b + 1 })).toBeGreaterThan(24 * GiB);
    // first principles: (24 GiB − 2·P − context) / (0.5 MiB × 2304 tokens) bounds it from above
    const upper = (24 * GiB - 2 * 6_738_415_616 - 500 * 2 ** 20) / (0.5 * 2 ** 20 * 2304);
    expect(b).toBeLessThanOrEqual(Math.floor(upper));
    expect(b).toBeGreaterThanOrEqual(Math.floor(upper) - 2);
  });
  it('returns 0 when the weights alone exceed the capacity', () => {
    expect(ok(maxBatch(base, 8 * GiB))).toBe(0);
  });
  it('maxContext varies the prompt at inference and seq in training', () => {
    // memory is the bound only once the model's own 4,096-token limit is lifted (e.g. rope scaling)
    const long: Scenario = { ...base, arch: { maxContext: 1 << 20 } };
    const p = ok(maxContext(long, 16 * GiB));
    expect(device({ ...long, prompt: p })).toBeLessThanOrEqual(16 * GiB);
    expect(device({ ...long, prompt: p + 1 })).toBeGreaterThan(16 * GiB);
    // as published (max_position_embeddings 4096), the prompt stops at 4096 − 256 generated tokens
    expect(ok(maxContext(base, 16 * GiB))).toBe(4096 - 256);
    const train: Scenario = { ...long, mode: 'training', method: 'qlora', weights: 'nf4', gradCkpt: 'full' };
    const s = ok(maxContext(train, 24 * GiB));
    expect(device({ ...train, seq: s })).toBeLessThanOrEqual(24 * GiB);
    expect(device({ ...train, seq: s + 1 })).toBeGreaterThan(24 * GiB);
  });
  it('vLLM: max batch is the KV pool in whole contexts', () => {
    const v: Scenario = { ...base, engine: 'vllm', kv: 'bf16' };
    const b = ok(maxBatch(v, 80 * GiB));
    const r = estimate({ ...v, gpu: '80GiB' });
    expect(r.ok && Math.floor((r.value.engine?.kvTokens ?? 0) / 2304)).toBe(b);
  });
  it('rejects a capacity that is not finite', () => {
    expect(maxBatch(base, Number.NaN).ok).toBe(false);
  });
});

describe('fitsOn: the one fit rule', () => {
  const P = 6_738_415_616; // Llama-2-7b, published count
  it('bf16 weights alone (2·P = 12.55 GiB) do not fit 12 GiB; on 80 GiB it fits with its estimate', () => {
    expect(2 * P).toBeGreaterThan(12 * GiB);
    expect(ok(fitsOn(base, 12 * GiB)).fits).toBe(false);
    const on80 = ok(fitsOn(base, 80 * GiB));
    expect(on80.fits).toBe(true);
    expect(on80.estimate.deviceBytes).toBeLessThanOrEqual(80 * GiB);
    expect(on80.estimate.params.total).toBe(P);
  });
  it('vLLM on 24 GiB: 64 × 2304 tokens exceed any KV pool of (0.9·24 GiB − 2·P) / 0.5 MiB ≈ 18.5k tokens, though the device total is within capacity', () => {
    const v: Scenario = { ...base, engine: 'vllm', gpuUtil: 0.9 };
    const upperTokens = (0.9 * 24 * GiB - 2 * P) / 2 ** 19;
    expect(64 * 2304).toBeGreaterThan(upperTokens);
    const big = ok(fitsOn({ ...v, batch: 64 }, 24 * GiB));
    expect(big.estimate.deviceBytes).toBeLessThanOrEqual(24 * GiB);
    expect(big.fits).toBe(false);
    expect(ok(fitsOn({ ...v, batch: 1 }, 24 * GiB)).fits).toBe(true);
  });
  it('rejects a capacity outside 1 MiB – 64 TiB and passes scenario errors through', () => {
    for (const c of [NaN, 0, 2 ** 47]) {
      const r = fitsOn(base, c);
      expect(!r.ok && r.errors[0].code).toBe('capacity-range');
    }
    const r = fitsOn({ ...base, batch: 0 }, 24 * GiB);
    expect(!r.ok && r.errors[0].key).toBe('batch');
  });
});

describe('minGpus', () => {
  it('ZeRO-3 full fine-tune of Llama-2-7b on 80 GiB GPUs: the plan fits and one rank fewer does not', () => {
    const t: Scenario = { ...base, mode: 'training', precision: 'amp-bf16', zero: 3, seq: 2048, gradCkpt: 'full' };
    const plan = ok(minGpus(t, 80 * GiB));
    expect(plan).not.toBeNull();
    const n = plan!.gpus;
    expect(device({ ...t, gpus: n })).toBeLessThanOrEqual(80 * GiB);
    expect(device({ ...t, gpus: n - 1 })).toBeGreaterThan(80 * GiB);
    // 16 B/param of states alone need more than one 80 GiB GPU
    expect(n).toBeGreaterThan(1);
  });
  it('inference splits layers (pp) until the weights fit', () => {
    const plan = ok(minGpus({ ...base, model: 'meta-llama/Llama-2-7b-hf' }, 10 * GiB));
    expect(plan?.pp).toBe(2);
  });
});

describe('sweep', () => {
  it('returns one estimate per value, non-decreasing in batch', () => {
    const pts = sweep(base, 'batch', [1, 2, 4, 8]);
    expect(pts.map((p) => p.x)).toEqual([1, 2, 4, 8]);
    const totals = pts.map((p) => (p.result.ok ? p.result.value.deviceBytes : NaN));
    for (let i = 1; i < totals.length; i++) expect(totals[i]).toBeGreaterThan(totals[i - 1]);
  });
});

describe('minGpus edge cases', () => {
  it('an invalid scenario returns its errors instead of searching', () => {
    const r = minGpus({ ...base, batch: Number.NaN }, 80 * GiB);
    expect(r.ok).toBe(false);
  });
  it('null when no pipeline split fits (more stages than layers would be needed)', () => {
    expect(ok(minGpus(base, 0.7 * GiB))).toBeNull();
  });
});
