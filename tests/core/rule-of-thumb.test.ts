import { describe, expect, test } from 'vitest';
import { estimate, resolveModel } from '../../src/core/estimate';
import { ruleOfThumb } from '../../src/core/rule-of-thumb';
import { defaultScenario } from '../../src/core/scenario/schema';
import type { Scenario } from '../../src/core/types';

// Llama-2-7b (meta-llama/Llama-2-7b-hf config.json): h 4096, i 11008, L 32; 6,738,415,616 parameters
const P = 6_738_415_616;
const rule = (over: Partial<Scenario>, dtype: string) => {
  const s = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', ...over };
  const e = estimate(s);
  const m = resolveModel(s);
  if (!e.ok || !m.ok) throw new Error('scenario');
  return ruleOfThumb(s, m.value.arch, e.value, dtype);
};

describe("the guides' rule of thumb: weights + gradients + 2× optimizer + batch·(h + i)·seq·L·b", () => {
  test('Llama-2-7b in int8 at batch 50, seq 2048: 6.74 + 6.74 + 13.48 GB + 50 × 0.99 GB ≈ 77 GB', () => {
    const r = rule({ mode: 'training', batch: 50, seq: 2048 }, 'int8');
    if (!r.ok) throw new Error(r.errors[0].message);
    const perSample = (4096 + 11008) * 2048 * 32 * 1; // 989,855,744 B ≈ 0.99 GB
    expect(r.value.terms.map((t) => [t.id, t.bytes])).toEqual([
      ['weights', P],
      ['gradients', P],
      ['optimizer', 2 * P],
      ['activations', 50 * perSample],
    ]);
    expect(r.value.bytes).toBe(4 * P + 50 * perSample);
    expect(Math.abs(r.value.bytes / 77e9 - 1)).toBeLessThan(0.01);
    expect(r.value.largestBatch).toBeNull();
  });

  test('largest batch on an A100 80GB (81,920 MiB): ⌊(81920·2^20 − 4·P) / per-sample⌋', () => {
    const r = rule({ mode: 'training', batch: 50, seq: 2048, gpu: 'a100-80gb-sxm4' }, 'int8');
    if (!r.ok) throw new Error('rule');
    expect(r.value.largestBatch).toBe(Math.floor((81920 * 2 ** 20 - 4 * P) / ((4096 + 11008) * 2048 * 32)));
  });

  test('each rule term stands beside the estimate terms of its kind, with the reason', () => {
    const r = rule({ mode: 'training', batch: 4, seq: 512 }, 'fp16');
    if (!r.ok) throw new Error('rule');
    const c = Object.fromEntries(r.value.comparison.map((x) => [x.id, x]));
    expect(Object.keys(c)).toEqual(['weights', 'gradients', 'optimizer', 'activations', 'other']);
    expect(c.optimizer.terms).toContain('master-weights');
    expect(c.weights.rule).toBe(2 * P);
    expect(c.other.rule).toBe(0);
    expect(c.other.estimate).toBeGreaterThan(0);
    for (const x of r.value.comparison) expect([x.reason.code, x.reason.text.length > 20]).toEqual([`rule.why.${x.id}`, true]);
  });

  test('at inference the rule is the weights alone: 7b fp64 = 7e9 · 8 B', () => {
    const r = rule({ model: '', params: 7e9 }, 'fp64');
    if (!r.ok) throw new Error('rule');
    expect(r.value.terms.map((t) => t.id)).toEqual(['weights']);
    expect(r.value.bytes).toBe(7e9 * 8);
  });

  test('a dtype outside the table is a clear error, not NaN', () => {
    const r = rule({ mode: 'training' }, 'int3');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].message).toMatch(/expected one of fp64, fp32, fp16, bf16, int8, int4/);
  });
});
