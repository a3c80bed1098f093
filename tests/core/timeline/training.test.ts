/**
 * Training step timeline of a tiny 2-layer Llama-style model, checked against hand arithmetic:
 * h = 512, a = g = 8, d = 64, f = 1024, V = 1000, s = 128, b = 1, pure bf16 (e = e_res = 2).
 * Saved per layer (activations.ts layerActivation, Llama style, docs/reference/formulas.md §5.3):
 *   s·b·(2·(4 + e_res + e)·h + e·(2ad + 2gd + 4f)) = 128·(16·512 + 2·(1024 + 1024 + 4096)) = 2,621,440 B,
 * made by the layer's forward in the order transformers runs it (training/full-forward.ts), among
 * its temporaries: s·b·h·4 = 262,144 B, s·b·f·e = 262,144 B and s·b·h·e = 131,072 B tensors (all
 * ≤ 1 MiB: small pool, blocks of exactly the request since all are multiples of 512,
 * docs/reference/allocator.md §1, §4).
 */
import { describe, expect, it } from 'vitest';
import { estimate, estimateDetail } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { estimateWithReplay, replayLengths, stepTimeline } from '../../../src/core/timeline';
import type { Scenario } from '../../../src/core/types';
import { normalQuantile, runRecords } from '../../../src/core/timeline/lengths';

const tiny = (over: Partial<Scenario> = {}): Scenario => ({
  ...defaultScenario(),
  model: 'custom',
  arch: { family: 'llama', hidden: 512, layers: 2, heads: 8, kvHeads: 8, headDim: 64, ffn: 1024, vocab: 1000, gatedMlp: true, norm: 'rmsnorm', tiedEmbeddings: false },
  mode: 'training',
  method: 'full',
  precision: 'bf16',
  optimizer: 'adamw',
  attn: 'sdpa',
  seq: 128,
  batch: 1,
  ...over,
});

const LAYER = 128 * (16 * 512 + 2 * (1024 + 1024 + 4096));

function timeline(s: Scenario) {
  const r = stepTimeline(s, { record: true });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

describe('training step timeline', () => {
  it('forward: each layer makes its tensors in the model’s order and keeps its saves', () => {
    expect(LAYER).toBe(2_621_440);
    const tl = timeline(tiny());
    const fwd = tl.points.filter((p) => p.step === 0 && p.phase === 'forward');
    // setup, layer 0, layer 1, loss
    expect(fwd.length).toBe(4);
    // a layer peaks as its output is made: its saves, the residual sum after attention, down_proj's
    // output and the output itself, 3 × s·b·h·e above them (its input went at that residual sum);
    // layer 0's group also holds the forward thread's cuBLAS workspace, 32 MiB, made at its first matmul
    const H = 128 * 512 * 2;
    expect(fwd[1].allocated - fwd[0].allocated).toBe(LAYER + 3 * H + 32 * 2 ** 20);
    expect(fwd[2].allocated - fwd[1].allocated).toBe(LAYER);
    // after the forward's workspace: the embedding's output handed to layer 0 (s·b·h·e), then layer 0
    const sizes = (tl.trace ?? []).filter((e) => e.op === 'alloc').map((e) => (e.op === 'alloc' ? e.size : 0));
    const at = sizes.indexOf(32 * 2 ** 20) + 1;
    const N = 128 * 512 * 4;
    const F = 128 * 1024 * 2;
    // norm: fp32 copy, pow, normalised, 16-bit cast, output; rotary: q·cos, −x2 (half), cat, ·sin, sum
    const norm = [N, N, N, H, H];
    const rope = [H, H / 2, H, H, H];
    expect(sizes.slice(at, at + 33)).toEqual([H, ...norm, H, H, H, ...rope, ...rope, H, H, H, ...norm, F, F, F, F, H, H]);
  });

  it('the loss: logits s·b·V·(e + 4 + 4) at its peak, s·b·V·4 held into backward (HF ForCausalLMLoss; Trainer drops the logits)', () => {
    const tl = timeline(tiny());
    const fwd = tl.points.filter((p) => p.step === 0 && p.phase === 'forward');
    // final LlamaRMSNorm's fp32 copy and bf16 x̂, and the LM-head input: s·b·h·(4 + e_res + e) = 524,288;
    // logits peak 128·1000·10 = 1,280,000; the last layer's peak held 3 × s·b·h·e of its own
    // temporaries and output above its saves
    expect(fwd[3].allocated - fwd[2].allocated).toBe(128 * 512 * 8 + 128 * 1000 * 10 - 3 * 128 * 512 * 2);
    // at that peak the logits, their fp32 upcast and the log-softmax are all live
    expect(fwd[3].byCategory.loss).toBe(128 * 1000 * 10);
    // the loss's tensors one by one, as the real snapshot makes them: bf16 logits, fp32 upcast,
    // fp32 log-softmax; in backward NllLossBackward's and _log_softmax_backward_data's fp32 outputs
    // (s·b·V·(4 + 4) on top of the held log-softmax, training/loss.ts), then the bf16 gradient of the
    // logits, and the LM head's backward matmul, the first on autograd's device thread, makes that
    // thread's 32 MiB cuBLAS workspace
    const sizes = (tl.trace ?? []).flatMap((e) => (e.op === 'alloc' ? [e.size] : []));
    const at = sizes.indexOf(256_000);
    expect(sizes.slice(at, at + 3)).toEqual([256_000, 512_000, 512_000]);
    expect(sizes.slice(at + 3, at + 7)).toEqual([512_000, 512_000, 256_000, 32 * 2 ** 20]);
    // so the first backward group peaks there, with the loss's 16-bit gradient and both workspaces
    const bwd = tl.points.filter((p) => p.step === 0 && p.phase === 'backward');
    expect(bwd[0].byCategory.loss).toBe(128 * 1000 * 2);
    expect(bwd[0].byCategory.buffers).toBe(2 * 32 * 2 ** 20);
  });

  it('backward frees the layers in reverse order; gradients replace them; the step frees the gradients', () => {
    const tl = timeline(tiny());
    const bwd = tl.points.filter((p) => p.step === 0 && p.phase === 'backward');
    // loss/head, layer 1, layer 0, the outer gradients
    expect(bwd.length).toBe(4);
    // a point's categories are those at its group's peak: layer 1's group peaks before it frees
    // all of its tensors, layer 0's after layer 1 is gone; the last group holds none
    expect(bwd[1].byCategory.activations).toBeGreaterThan(LAYER);
    expect(bwd[2].byCategory.activations).toBeLessThanOrEqual(LAYER);
    expect(bwd[3].byCategory.activations).toBe(0);
    const opt = tl.points.filter((p) => p.phase === 'optimizer');
    expect(opt.length).toBe(2);
    // zero_grad(set_to_none=True): no gradient is left when the next step's forward runs, whose
    // first layer at its peak holds only its own temporaries (the residual sum, down_proj's output)
    expect(tl.points[opt[0].t + 1].byCategory.gradients).toBe(0);
    expect(tl.points[opt[0].t + 1].byCategory.temporary).toBe(2 * 128 * 512 * 2);
    // AdamW states appear in step 1 (torch.optim _init_group) and stay
    expect(opt[0].byCategory.optimizer).toBeGreaterThan(0);
    expect(opt[1].byCategory.optimizer).toBe(opt[0].byCategory.optimizer);
  });

  it('accumulated gradients: made by the first micro-step’s backward, freed by zero_grad(set_to_none=True) after the step; set_to_none=False keeps them', () => {
    // AccumulateGrad keeps the first incoming gradient as .grad (torch/csrc/autograd/functions/accumulate_grad.h)
    // and adds later ones into it; Optimizer.zero_grad sets .grad to None (torch/optim/optimizer.py).
    // Every parameter trains, bf16 gradients: 2 layers × (4·h² + 3·h·f + 2·h) + embedding and head V·h + final norm h
    const grads = 2 * (2 * (4 * 512 * 512 + 3 * 512 * 1024 + 2 * 512) + 2 * 1000 * 512 + 512);
    // all of them, once: blocks hold ≥ the request (512-byte rounding, up to 1 MiB unsplit in the large pool)
    const near = (x: number) => x >= grads && x < 2 * grads;
    const acc = timeline(tiny({ gradAccum: 2 }));
    const firstBackward = acc.points.findIndex((p) => p.phase === 'backward');
    // the first micro-step's forward: no gradient exists yet
    expect(acc.points.slice(0, firstBackward).every((p) => p.byCategory.gradients === 0)).toBe(true);
    // the second micro-step's forward runs next to all of them
    const second = acc.points.findIndex((p, i) => i > firstBackward && p.phase === 'forward');
    expect(near(acc.points[second].byCategory.gradients)).toBe(true);
    // after the optimizer step, none: the next step's first micro-step makes them again
    const opt = acc.points.findIndex((p) => p.phase === 'optimizer');
    expect(acc.points[opt + 1].byCategory.gradients).toBe(0);
    // zero_grad(set_to_none=False): the first backward makes them and the next step's forward still has them
    const kept = timeline(tiny({ gradZero: 'zeros' }));
    expect(kept.points[0].byCategory.gradients).toBe(0);
    const keptOpt = kept.points.findIndex((p) => p.phase === 'optimizer');
    expect(near(kept.points[keptOpt + 1].byCategory.gradients)).toBe(true);
  });

  it('with fixed lengths the replayed peak of requested bytes is the closed form allocated peak', () => {
    for (const over of [
      {},
      { gradCkpt: 'full' as const },
      { method: 'lora' as const, loraTargets: ['q', 'v'] as Scenario['loraTargets'] },
      { precision: 'amp-bf16' as const, batch: 4 },
      { gradAccum: 2 },
      { gradZero: 'zeros' as const },
    ]) {
      const s = tiny(over);
      const e = estimate(s);
      if (!e.ok) throw new Error('rejected');
      const tl = timeline(s);
      // requested bytes: fractional weight shares round up to whole bytes, nothing else differs
      expect(Math.abs(tl.peakRequested / e.value.allocatedBytes - 1)).toBeLessThan(1e-3);
      // blocks add ≤ 1 MiB of unsplit slack per large-pool tensor (docs/reference/allocator.md §4): a few % on a 70 MB model
      expect(tl.peakAllocated).toBeGreaterThanOrEqual(tl.peakRequested);
      expect(tl.peakReserved).toBeGreaterThanOrEqual(tl.peakAllocated);
    }
  });

  it('varied lengths: deterministic; the records of the run, rising to seq; reserved from the replay', () => {
    const s = tiny({ lengths: 'varied', seq: 1024, batch: 2 });
    const a = replayLengths(s);
    expect(a).toEqual(replayLengths(s));
    expect(a.steps[0]).toBe(0);
    a.lengths.slice(1).forEach((n, i) => {
      expect(n).toBeGreaterThan(a.lengths[i]);
      expect(a.steps[i + 1]).toBeGreaterThan(a.steps[i]);
    });
    // P(a sample ≥ seq) = P(Z > (ln 2 + σ²/2)/σ) ≈ 7 % at the default mean seq/2, σ 0.6: a 1,000-step run reaches seq
    expect(a.lengths[a.lengths.length - 1]).toBe(1024);
    expect(Math.min(...a.lengths)).toBeGreaterThanOrEqual(1);
    // another draw, another order; a run of 1 step has one record
    expect(replayLengths(s, undefined, 1)).not.toEqual(a);
    expect(replayLengths(s, 1).lengths).toHaveLength(1);
    const closed = estimate(s);
    const replayed = estimateWithReplay(s);
    if (!closed.ok || !replayed.ok) throw new Error('rejected');
    const tl = timeline(s);
    expect(replayed.value.reservedBytes).toBe(Math.max(closed.value.allocatedBytes, tl.peakReserved));
    expect(replayed.value.allocatedBytes).toBe(closed.value.allocatedBytes);
    expect(replayed.value.deviceBytes - replayed.value.reservedBytes).toBe(closed.value.deviceBytes - closed.value.reservedBytes);
    // fixed lengths on one process without ZeRO (timeline/applies.ts): reserved from two replayed steps
    const fixed = tiny({ seq: 1024, batch: 2 });
    const fr = estimateWithReplay(fixed);
    const fc = estimate(fixed);
    if (!fr.ok || !fc.ok) throw new Error('rejected');
    expect(timeline(fixed).lengths).toEqual([1024, 1024]);
    expect(fr.value.reservedBytes).toBe(Math.max(fc.value.allocatedBytes, timeline(fixed).peakReserved));
    expect(fr.value.allocatedBytes).toBe(fc.value.allocatedBytes);
    // ZeRO's buffers are not replayed: the closed form unchanged
    const zero = tiny({ seq: 1024, batch: 2, gpus: 2, zero: 2 });
    expect(estimateWithReplay(zero)).toEqual(estimate(zero));
  });
});

/**
 * The bool attention mask of a padded batch (lengths=varied, b 2, one step of 128 tokens):
 * masking_utils.py `sdpa_mask` builds it once per forward before the rotary embedding's matmul
 * (the forward's cuBLAS workspace): the causal pattern (1, 1, s, s) = 128² = 16,384 B, `and_masks`'s
 * first result (16,384 B, the pattern freed), then the (2, 1, 128, 128) mask = 32,768 B (the first
 * result freed). Each layer's SDPA call makes its bf16 additive mask, 2 · 128² · 2 = 65,536 B.
 */
describe('the attention mask of a padded batch', () => {
  const padded = (gradCkpt: Scenario['gradCkpt']) => {
    const r = stepTimeline(tiny({ batch: 2, lengths: 'varied', lenSpread: 0.6, gradCkpt }), { record: true, lengths: [128] });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const trace = r.value.trace ?? [];
    const sizes = new Map<string, number>();
    return trace.map((e) => {
      if (e.op === 'alloc') sizes.set(e.name, e.size);
      return e.op === 'alloc' ? e.size : e.op === 'free' ? -(sizes.get(e.name) ?? NaN) : 0;
    });
  };
  it('is built before the forward’s first matmul and held by the checkpointed layers until layer 0’s backward', () => {
    const ev = padded('full');
    const ws = ev.indexOf(32 * 2 ** 20);
    expect(ev.slice(ws - 5, ws)).toEqual([16_384, 16_384, -16_384, 32_768, -16_384]);
    // each layer's SDPA call makes and (checkpointed) frees its additive mask: twice in forward, twice in the recomputes
    expect(ev.filter((x) => x === 65_536)).toHaveLength(4);
    // the mask is freed once, after the last recompute's additive mask
    const freed = ev.lastIndexOf(-32_768);
    expect(ev.indexOf(-32_768)).toBe(freed);
    expect(freed).toBeGreaterThan(ev.lastIndexOf(65_536));
  });
  it('without checkpointing it goes when the model’s forward returns, before the loss', () => {
    const ev = padded('none');
    const freed = ev.indexOf(-32_768);
    expect(freed).toBeGreaterThan(ev.lastIndexOf(65_536));
    // the next allocations after it are the loss's (logits: b·s·V·2 = 2 · 128 · 1,000 · 2)
    expect(ev.slice(freed + 1).find((x) => x > 0)).toBe(2 * 128 * 1000 * 2);
  });
});

describe('the attention mask in the closed form', () => {
  it('a window shorter than the sequence masks every layer at fixed lengths: the replay’s requested peak is the closed form’s, mask included', () => {
    for (const gradCkpt of ['full', 'none'] as const) {
      // b 4, s 1,024, window 512: the mask is 4 · 1,024² = 4 MiB, about 2 % of the peak
      const arch = { ...tiny().arch!, slidingWindow: { window: 512, layers: 2 } };
      const s = tiny({ arch, gradCkpt, batch: 4, seq: 1024 });
      const e = estimate(s);
      if (!e.ok) throw new Error('rejected');
      const t = stepTimeline(s);
      if (!t.ok) throw new Error('rejected');
      expect(Math.abs(t.value.peakRequested / e.value.allocatedBytes - 1)).toBeLessThan(1e-3);
      expect((4 * 2 ** 20) / e.value.allocatedBytes).toBeGreaterThan(1e-2);
    }
  });
});

/**
 * Eager attention reads `eager_mask`'s additive mask (masking_utils.py: the bool (b, 1, s, s) from
 * `sdpa_mask`, then `torch.where(mask, 0.0, min_dtype)` in the embedding's dtype, the bool freed);
 * a LoRA run's masked SDPA (here a 64-token window every layer slides, s = 128) reads the bool mask.
 * b 2, s 128, bf16: pattern and first result 128² = 16,384 B each, bool mask 2 · 128² = 32,768 B,
 * additive mask 2 · 128² · 2 = 65,536 B.
 */
describe('the model-level mask of eager attention and of LoRA layers', () => {
  const beforeWorkspace = (over: Partial<Scenario>) => {
    const trace = timeline(tiny({ batch: 2, ...over })).trace ?? [];
    const sizes = new Map<string, number>();
    const ev = trace.map((e) => {
      if (e.op === 'alloc') sizes.set(e.name, e.size);
      return e.op === 'alloc' ? e.size : e.op === 'free' ? -(sizes.get(e.name) ?? NaN) : 0;
    });
    return ev.slice(0, ev.indexOf(32 * 2 ** 20));
  };
  const grouped = { ...tiny().arch!, kvHeads: 2 };
  it('full fine-tuning, eager: the bool mask, then its additive bf16 copy, the bool freed', () => {
    expect(beforeWorkspace({ arch: grouped, attn: 'eager' }).slice(-7)).toEqual([16_384, 16_384, -16_384, 32_768, -16_384, 65_536, -32_768]);
  });
  it('LoRA, SDPA masked in every layer: the bool mask', () => {
    const windowed = { ...grouped, slidingWindow: { window: 64, layers: 2 } };
    expect(beforeWorkspace({ arch: windowed, method: 'lora', loraTargets: ['q', 'v'], loraRank: 8 }).slice(-5)).toEqual([16_384, 16_384, -16_384, 32_768, -16_384]);
  });
  it('full and sliding layers (Gemma-2’s layer_types): one mask of each, both made', () => {
    const mixed = { ...grouped, slidingWindow: { window: 64, layers: 1 } };
    const one = [16_384, 16_384, -16_384, 32_768, -16_384, 65_536, -32_768];
    expect(beforeWorkspace({ arch: mixed, attn: 'eager', method: 'lora', loraTargets: ['q', 'v'], loraRank: 8 }).slice(-14)).toEqual([...one, ...one]);
  });
  it('the closed form holds them: t025’s layout (gemma-2-2b LoRA, eager, b 2, s 2,048) adds two bf16 masks of 2 · 2,048² · 2 B', () => {
    const run = (attn: Scenario['attn']) => {
      const e = estimateDetail({ ...defaultScenario(), model: 'google/gemma-2-2b', mode: 'training', method: 'lora', precision: 'bf16', attn, batch: 2, seq: 2048, gradCkpt: 'full' });
      if (!e.ok) throw new Error('rejected');
      return e.value.built.phases?.attnMask;
    };
    expect(run('eager')).toEqual({ bool: 2 * 2048 ** 2, float: 2 * 2 * 2048 ** 2, count: 2 });
    expect(run('sdpa')).toBeUndefined();
  });
  it('no mask where SDPA runs is_causal', () => {
    expect(beforeWorkspace({ arch: grouped, method: 'lora', loraTargets: ['q', 'v'], loraRank: 8 })).not.toContain(32_768);
  });
});

describe('drawing the longest of a batch in one step (lengths.ts)', () => {
  it('Φ⁻¹ matches the normal table: 0.5 → 0, 0.975 → 1.959964, 0.001 → −3.090232, 0.99 → 2.326348', () => {
    expect(normalQuantile(0.5)).toBeCloseTo(0, 9);
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 6);
    expect(normalQuantile(0.001)).toBeCloseTo(-3.090232, 6);
    expect(normalQuantile(0.99)).toBeCloseTo(2.326348, 6);
  });
  it('the first step of a run is the longest of b samples: its median over 2,001 orders is the order statistic’s, exp(μ + σ·Φ⁻¹(0.5^(1/b)))', () => {
    // mean 1,024 of 4,096, σ 0.6, b = 2: μ = ln 1024 − 0.18, Φ⁻¹(√0.5) = 0.544952 → 1,186.1 tokens
    const firsts = Array.from({ length: 2001 }, (_, draw) => runRecords({ seq: 4096, batch: 2, mean: 1024, spread: 0.6, draw, steps: 1 }).lengths[0]).sort((a, b) => a - b);
    expect(Math.abs(firsts[1000] / 1186.1 - 1)).toBeLessThan(0.03);
  });
});

describe('an auto mean length is not known (timeline/index.ts AUTO_MEANS)', () => {
  // Llama-3.2-1B LoRA at 2 × 2,048: t027, t052 and t053 ran means of 300–384 tokens of this max_length
  const s: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-3.2-1B', mode: 'training', method: 'lora', seq: 2048, batch: 2, gradCkpt: 'full', lengths: 'varied', lenMean: null };
  const spread = (x: Scenario) => {
    const e = estimateWithReplay(x);
    if (!e.ok || !e.value.orderSpread) throw new Error('no spread');
    return { reserved: e.value.reservedBytes, ...e.value.orderSpread };
  };
  it('the estimate keeps mean seq/2; its spread also covers the orders of means seq/4 and seq/8', () => {
    const auto = spread(s);
    const half = spread({ ...s, lenMean: 1024 });
    expect(auto.reserved).toBe(half.reserved);
    for (const mean of [512, 256]) {
      const other = spread({ ...s, lenMean: mean });
      expect(auto.p10).toBeLessThanOrEqual(Math.min(half.p10, other.p10));
      expect(auto.p90).toBeGreaterThanOrEqual(Math.max(half.p90, other.p90));
    }
    // shorter means reach further at this shape, beyond the runs of short samples measured here (t027 21.3 GiB, t052 22.7, t053 24.7)
    expect(auto.p90).toBeGreaterThan(1.2 * half.p90);
    expect(auto.p90).toBeGreaterThan(24.7 * 2 ** 30);
  });
});
