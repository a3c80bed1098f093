/**
 * Inference timeline of a tiny 2-layer model with HF DynamicCache: g = 8 KV heads of d = 64 in
 * bf16, so one layer's K (or V) holds 8·64·2 = 1,024 B per token (batch 1).
 * transformers cache_utils.py DynamicCache.update: `torch.cat([self.key_cache[i], key_states], dim=-2)`
 * makes a new K one token longer per layer and frees the old one (likewise V).
 */
import { describe, expect, it } from 'vitest';
import { estimate, estimateDetail } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { estimateWithReplay, stepTimeline } from '../../../src/core/timeline';
import { GENERATE_ROWS, generateScenario } from '../../../src/validation/measured-generate';
import { NATIVE_ROWS, REMOTE_ROWS, remoteScenario } from '../../../src/validation/measured-remote';
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

  it('prefill: the prompt K and V of each layer, 100 tokens × 1,024 B, held by the cache', () => {
    const prefill = tl.points.filter((p) => p.phase === 'prefill');
    // the weights, each layer, and the model's end (final norm, the last row's logits)
    expect(prefill.length).toBe(1 + 2 + 1);
    // after layer 1: its K and V; after layer 2: both layers' (102,400 B is a whole number of 512 B blocks)
    expect(prefill[1].byCategory.kv).toBe(2 * 100 * PER_TOKEN);
    expect(prefill[2].byCategory.kv).toBe(2 * 2 * 100 * PER_TOKEN);
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

describe('inference timeline of a vision-language model', () => {
  // Qwen2-VL-7B, one 4,096-px image with eager attention: the tower's one image of scores
  // (16 · 65,536² · 8 B) is the largest moment, before the prompt's KV cache exists
  const vlm: Scenario = { ...defaultScenario(), model: 'Qwen/Qwen2-VL-7B-Instruct', mode: 'inference', images: 1, resolution: 4096, attn: 'eager', prompt: 16, gen: 2 };
  it('replays the tower before the prefill: its peak is the closed form one', () => {
    const r = stepTimeline(vlm, { record: true });
    const e = estimate(vlm);
    if (!r.ok || !e.ok) throw new Error('rejected');
    const tower = e.value.terms.find((t) => t.id === 'vision-encoder')!.bytes;
    expect(r.value.trace?.some((x) => x.op === 'alloc' && x.size === tower)).toBe(true);
    expect(Math.abs(r.value.peakRequested / e.value.allocatedBytes - 1)).toBeLessThan(1e-3);
  });
});

describe('estimateWithReplay for transformers generate', () => {
  // our H200 run g014 (validation/fixtures/measured-generate.json): Llama-3.1-8B, 32k prompt, 64 new tokens
  const generate: Scenario = generateScenario(GENERATE_ROWS.find((r) => r.id === 'g014')!);
  it('takes reserved from the replay where the prompt pass is laid out tensor by tensor, at least the allocated peak', () => {
    const r = estimateWithReplay(generate);
    const tl = stepTimeline(generate);
    const closed = estimate(generate);
    if (!r.ok || !tl.ok || !closed.ok) throw new Error('rejected');
    expect(r.value.reservedBytes).toBe(Math.max(closed.value.allocatedBytes, tl.value.peakReserved));
    expect(r.value.allocatedBytes).toBe(closed.value.allocatedBytes);
  });
  it('keeps the closed form for a forward it does not lay out and whose attention materialises nothing (GPT-2 under SDPA)', () => {
    const gpt2 = { ...generate, model: 'openai-community/gpt2-xl' };
    const r = estimateWithReplay(gpt2);
    const closed = estimate(gpt2);
    if (!r.ok || !closed.ok) throw new Error('rejected');
    expect(r.value.reservedBytes).toBe(closed.value.reservedBytes);
  });
  it("Falcon-7B under SDPA's math kernel (our runs n002, n005: 2,048 tokens) replays its fp32 scores, softmax and bool at their own sizes", () => {
    const falcon = generateScenario(NATIVE_ROWS.find((r) => r.id === 'n002')!);
    const closed = estimateDetail(falcon);
    if (!closed.ok) throw new Error('rejected');
    expect(closed.value.built.inference?.prefillScores?.by).toBe('sdpa-math');
    // loading the tied embedding's copy first, as the run did (65,024 × 4,544 × 2 B)
    const replayed = estimateWithReplay(falcon, { loadTransient: 65_024 * 4544 * 2 });
    if (!replayed.ok) throw new Error('rejected');
    // the run reserved 16,949,182,464 B
    expect(Math.abs(replayed.value.reservedBytes / 16_949_182_464 - 1)).toBeLessThan(0.01);
  });
  it('Gemma-2 (our runs g006–g008): the replayed prompt pass peaks at the closed form allocated', () => {
    for (const id of ['g006', 'g007', 'g008']) {
      const gemma = generateScenario(GENERATE_ROWS.find((r) => r.id === id)!);
      const tl = stepTimeline(gemma);
      const closed = estimateDetail(gemma);
      if (!tl.ok || !closed.ok) throw new Error('rejected');
      expect(closed.value.built.inference?.sequence?.forward, id).toBe('gemma2');
      // the closed form takes the 32k prompt's masked SDPA call at layer 24, before layer 25's K and V exist
      expect(Math.abs(tl.value.peakRequested / closed.value.estimate.allocatedBytes - 1), id).toBeLessThan(1e-3);
    }
  });
});

describe("a remote-code file's tuple cache (inference/remote-runtime.ts OwnCache)", () => {
  // our H200 runs (validation/fixtures/measured-remote.json): Qwen-7B, ChatGLM3-6B, Baichuan2-13B, batch 1 and 4
  const rows = REMOTE_ROWS.filter((r) => r.settings.gen > 0);
  it('the replay holds the old tuple (and the prompt views) through each decode step: its peak is the closed form one', () => {
    expect(rows.length).toBe(10);
    for (const row of rows) {
      const sc = remoteScenario(row)!;
      const tl = stepTimeline(sc);
      const closed = estimate(sc);
      if (!tl.ok || !closed.ok) throw new Error('rejected');
      expect(Math.abs(tl.value.peakRequested / closed.value.allocatedBytes - 1), row.id).toBeLessThan(1e-3);
    }
  });
  it('Baichuan2-13B, batch 8, 4,096 + 256: the first decode step holds the prompt’s cache and views with the mask at 4,097 keys, not at the last step’s 4,352', () => {
    const sc = { ...remoteScenario(REMOTE_ROWS.find((r) => r.id === 'r002')!)!, batch: 8, prompt: 4096, gen: 256 };
    const closed = estimate(sc);
    const tl = stepTimeline(sc);
    if (!tl.ok || !closed.ok) throw new Error('rejected');
    // K + V per token: 8 × 40 layers × 2 × 5,120 × 2 B = 6,553,600; views 8 × 40 × 4,096 × 5,120 × 2;
    // held at the first step: kv(4,096) + views + kv(4,097) − kv(4,352)
    expect(closed.value.terms.find((t) => t.id === 'kv-held')?.bytes).toBe(6_553_600 * (4096 + 4097 - 4352) + 8 * 40 * 4096 * 5120 * 2);
    // the moment the closed form took before (that step's cache beside the last step's [8, 42, k, k] mask) was 1.3 % above the replay
    expect(Math.abs(tl.value.peakRequested / closed.value.allocatedBytes - 1)).toBeLessThan(1e-3);
  });
});

describe("prompt passes laid out tensor by tensor (inference/hf-prefill.ts: eagerCall, Phi-3's fused projections)", () => {
  // our H200 runs (validation/fixtures/measured-remote.json), reserved: Llama-3.2-1B eager at 4,096 tokens
  // in bf16 and fp16 (n003, n006; its tied embedding's load copy first, 128,256 × 2,048 × 2 B);
  // Phi-3-mini-4k at 2,048 tokens, SDPA with its 2,047-token window's mask and eager (n000, n001)
  const LLAMA_LOAD = 128_256 * 2048 * 2;
  for (const [id, reserved, forward, eager, loadTransient] of [
    ['n003', 9_447_669_760, 'llama', true, LLAMA_LOAD],
    ['n006', 7_300_186_112, 'llama', true, LLAMA_LOAD],
    ['n000', 8_956_936_192, 'phi3', false, 0],
    ['n001', 10_500_440_064, 'phi3', true, 0],
  ] as const) {
    it(`${id}: the replay peaks at the closed form allocated, and its reserved is the run's within 1 %`, () => {
      const sc = generateScenario(NATIVE_ROWS.find((r) => r.id === id)!);
      const tl = stepTimeline(sc);
      const closed = estimateDetail(sc);
      const replayed = estimateWithReplay(sc, { loadTransient });
      if (!tl.ok || !closed.ok || !replayed.ok) throw new Error('rejected');
      const shape = closed.value.built.inference?.sequence;
      expect([shape?.forward, shape?.eager !== null]).toEqual([forward, eager]);
      expect(Math.abs(tl.value.peakRequested / closed.value.estimate.allocatedBytes - 1)).toBeLessThan(1e-3);
      expect(Math.abs(replayed.value.reservedBytes / reserved - 1)).toBeLessThan(0.01);
    });
  }
});
