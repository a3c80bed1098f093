// The largest published models at the largest settings the schema takes: Llama-3.1-405B and
// DeepSeek-V3 (671B) with 1M-token contexts, 1,024 GPUs, batch 4,096, ZeRO-3 + TP + PP.
// Every figure must be finite and positive, ordered as physics demands, the KV cache must match
// 2·L·g·d·s·bytes computed here from the published configs (docs/reference/formulas.md §3.1; configs in
// data/models.json), model states must match the ZeRO paper's 16 bytes/parameter
// (arXiv 1910.02054 §3.1) split over the GPUs, and the solvers must terminate.
import { describe, expect, test } from 'vitest';
import { estimate } from '../../src/core/estimate';
import { parseScenario } from '../../src/core/scenario';
import { maxBatch, maxContext, minGpus } from '../../src/core/solve';
import type { Estimate, Scenario, TermId } from '../../src/core/types';

const L405 = 'meta-llama/Llama-3.1-405B';
const DSV3 = 'deepseek-ai/DeepSeek-V3';
/** Published parameter counts (models.json: computed from config, matching the model cards). */
const P405 = 405_853_388_800;
const PDSV3 = 671_026_419_200;
const GIB = 2 ** 30;
const M_TOKENS = 2 ** 20;

function scenario(rec: Record<string, string>): Scenario {
  const p = parseScenario(rec);
  expect(p.errors).toEqual([]);
  return p.scenario;
}

function run(s: Scenario): Estimate {
  const r = estimate(s);
  if (!r.ok) throw new Error(r.errors.map((e) => e.message).join('; '));
  const e = r.value;
  for (const t of e.terms) {
    expect(Number.isFinite(t.bytes), t.id).toBe(true);
    expect(t.bytes, t.id).toBeGreaterThanOrEqual(0);
  }
  for (const v of [e.allocatedBytes, e.reservedBytes, e.deviceBytes, e.params.total, e.params.active]) {
    expect(Number.isFinite(v)).toBe(true);
    expect(v).toBeGreaterThan(0);
  }
  expect(e.reservedBytes).toBeGreaterThanOrEqual(e.allocatedBytes);
  expect(e.deviceBytes).toBeGreaterThanOrEqual(e.reservedBytes);
  return e;
}

const term = (e: Estimate, id: TermId) => e.terms.find((t) => t.id === id)?.bytes ?? 0;
const states = (e: Estimate) => term(e, 'weights') + term(e, 'gradients') + term(e, 'optimizer') + term(e, 'master-weights');

describe('inference at a 1M-token context', () => {
  const base = { prompt: String(M_TOKENS - 576), gen: '576', tp: '8', gpus: '8', weights: 'fp8' };

  test('Llama-3.1-405B: KV = 2·L·g·d·s·2 B / tp with L = 126, g = 8, d = 128', () => {
    const e = run(scenario({ model: L405, ...base }));
    expect(e.params.total).toBe(P405);
    expect(term(e, 'kv-cache')).toBe((2 * 126 * 8 * 128 * M_TOKENS * 2) / 8);
    // fp8 weights: 1 byte per quantized parameter, embedding and head kept in 16 bits: between P/8 and 2P/8
    expect(term(e, 'weights')).toBeGreaterThanOrEqual(P405 / 8);
    expect(term(e, 'weights')).toBeLessThanOrEqual((2 * P405) / 8);
  });

  test('DeepSeek-V3 in transformers: expanded K/V of all heads, (128/tp)·(d_nope + d_rope + d_v)·L per token', () => {
    const e = run(scenario({ model: DSV3, ...base }));
    expect(e.params.total).toBe(PDSV3);
    expect(term(e, 'kv-cache')).toBe(61 * (128 / 8) * (128 + 64 + 128) * M_TOKENS * 2);
  });

  test('a longer context never decreases the KV cache or the total', () => {
    for (const model of [L405, DSV3]) {
      let prev: Estimate | null = null;
      for (const prompt of [1024, 8192, 65536, 524288, M_TOKENS, 4 * M_TOKENS, 2 ** 24 - 576]) {
        const e = run(scenario({ model, ...base, prompt: String(prompt) }));
        if (prev) {
          expect(term(e, 'kv-cache')).toBeGreaterThan(term(prev, 'kv-cache'));
          expect(e.deviceBytes).toBeGreaterThanOrEqual(prev.deviceBytes);
        }
        prev = e;
      }
    }
  });
});

describe('training on 1,024 GPUs with ZeRO-3 + TP + PP', () => {
  const cases = [
    { model: L405, P: P405, tp: 8, pp: 8, seq: 4096, batch: 4096 },
    { model: L405, P: P405, tp: 8, pp: 8, seq: M_TOKENS, batch: 1 },
    { model: DSV3, P: PDSV3, tp: 8, pp: 16, seq: 4096, batch: 4096 },
    { model: DSV3, P: PDSV3, tp: 8, pp: 16, seq: M_TOKENS, batch: 1 },
  ];
  const rec = (c: (typeof cases)[number], gpus: number) => ({
    model: c.model,
    mode: 'training',
    seq: String(c.seq),
    batch: String(c.batch),
    gpus: String(gpus),
    zero: '3',
    tp: String(c.tp),
    pp: String(c.pp),
    'grad-ckpt': 'full',
    precision: 'amp-bf16',
    optimizer: 'adamw',
  });

  test.each(cases)('$model seq $seq batch $batch: model states are 16 B/param over the GPUs, within the stage imbalance', (c) => {
    const e = run(scenario(rec(c, 1024)));
    // AMP + Adam: 2 (bf16 weights) + 2 (grads) + 4 + 4 (moments) + 4 (fp32 master) bytes per parameter
    const even = (16 * c.P) / 1024;
    expect(states(e)).toBeGreaterThanOrEqual(even * 0.98);
    expect(states(e)).toBeLessThanOrEqual(even * 1.25);
  });

  test.each(cases)('$model seq $seq: more data-parallel GPUs never raise per-GPU memory', (c) => {
    let prev: Estimate | null = null;
    for (const dp of [1, 2, 4, 8, 16]) {
      const e = run(scenario(rec(c, dp * c.tp * c.pp)));
      if (prev) {
        expect(e.deviceBytes).toBeLessThanOrEqual(prev.deviceBytes);
        expect(states(e)).toBeLessThan(states(prev));
      }
      prev = e;
    }
  });

  test('a longer sequence never lowers activation memory', () => {
    let prev = 0;
    for (const seq of [4096, 65536, M_TOKENS, 2 ** 24]) {
      const e = run(scenario({ ...rec(cases[0], 1024), seq: String(seq), batch: '1' }));
      expect(term(e, 'activations')).toBeGreaterThan(prev);
      prev = term(e, 'activations');
    }
  });
});

describe('solvers terminate on the extremes', () => {
  const timedOk = <T>(fn: () => T): T => {
    const t0 = performance.now();
    const v = fn();
    expect(performance.now() - t0).toBeLessThan(20_000);
    return v;
  };

  test('max context of Llama-3.1-405B on 8 × 141 GB: the boundary fits and one more token does not', () => {
    const published = scenario({ model: L405, tp: '8', gpus: '8', weights: 'fp8', gen: '0' });
    const cap = 141e9;
    // as published the prompt stops at max_position_embeddings = 131,072; lift it to find memory's bound
    const capped = maxContext(published, cap);
    expect(capped.ok && capped.value).toBe(131_072);
    const s = { ...published, arch: { ...published.arch, maxContext: 2 ** 24 } };
    const r = timedOk(() => maxContext(s, cap));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toBeGreaterThan(0);
    expect(run({ ...s, prompt: r.value }).deviceBytes).toBeLessThanOrEqual(cap);
    expect(run({ ...s, prompt: r.value + 1 }).deviceBytes).toBeGreaterThan(cap);
  });

  test('max batch and fewest GPUs for DeepSeek-V3 ZeRO-3 training on 80 GiB', () => {
    const s = scenario({ model: DSV3, mode: 'training', seq: '4096', gpus: '1024', zero: '3', tp: '8', pp: '16', 'grad-ckpt': 'full' });
    const b = timedOk(() => maxBatch(s, 80 * GIB));
    expect(b.ok && b.value >= 0 && b.value <= 65536).toBe(true);
    const g = timedOk(() => minGpus({ ...s, batch: 1 }, 80 * GIB));
    expect(g.ok).toBe(true);
    if (g.ok && g.value) {
      expect(g.value.gpus % (8 * 16)).toBe(0);
      expect(run({ ...s, batch: 1, ...g.value }).deviceBytes).toBeLessThanOrEqual(80 * GIB);
    }
  });
});
