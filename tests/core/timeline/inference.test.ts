/**
 * Inference timeline of a tiny 2-layer model with HF DynamicCache: g = 8 KV heads of d = 64 in
 * bf16, so one layer's K (or V) holds 8·64·2 = 1,024 B per token (batch 1).
 * transformers cache_utils.py DynamicCache.update: `torch.cat([self.key_cache[i], key_states], dim=-2)`
 * makes a new K one token longer per layer and frees the old one (likewise V).
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { stepTimeline } from '../../../src/core/timeline';
import type { Scenario } from '../../../src/core/types';

const s: Scenario = {
  ...defaultScenario(),
  model: 'custom',
  mode: 'inference',
  engine: 'transformers',
  weights: 'bf16',
  kv: 'bf16',
  batch: 1,
  prompt: 100,
  gen: 4,
  arch: { family: 'llama', hidden: 512, layers: 2, heads: 8, kvHeads: 8, headDim: 64, ffn: 1024, vocab: 1000 },
};
const PER_TOKEN = 8 * 64 * 2;

describe('inference timeline (DynamicCache)', () => {
  const r = stepTimeline(s, { record: true });
  if (!r.ok) throw new Error('rejected');
  const tl = r.value;
  const allocs = (tl.trace ?? []).flatMap((e) => (e.op === 'alloc' ? [e.size] : []));

  it('prefill: the prompt K and V of each layer, 100 tokens × 1,024 B', () => {
    expect(allocs.filter((x) => x === 100 * PER_TOKEN).length).toBe(2 * 2);
    expect(tl.points.filter((p) => p.phase === 'prefill').length).toBe(1 + 2);
  });

  it('decode: every token a new K and V per layer, one token longer (torch.cat), the old freed', () => {
    for (let t = 1; t <= 4; t++) expect(allocs.filter((x) => x === (100 + t) * PER_TOKEN).length).toBe(2 * 2);
    const decode = tl.points.filter((p) => p.phase === 'decode');
    expect(decode.length).toBe(4);
    // after the last token: K and V of 104 tokens in both layers
    const last = tl.points[tl.points.length - 1];
    expect(last.byCategory.kv).toBeGreaterThanOrEqual(2 * 2 * 104 * PER_TOKEN);
  });

  it('peak of requested bytes = the closed form allocated peak', () => {
    const e = estimate(s);
    if (!e.ok) throw new Error('rejected');
    expect(Math.abs(tl.peakRequested / e.value.allocatedBytes - 1)).toBeLessThan(1e-3);
  });
});
