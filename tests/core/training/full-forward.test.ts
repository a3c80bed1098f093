/**
 * A full fine-tune's layer forward (training/full-forward.ts), by hand from transformers 5.x
 * modeling_llama.py and aten's autograd saves, for one Llama-3.2-1B layer (h 2048, 32 heads, 8 KV
 * heads, head_dim 64, ffn 8192) at 16 tokens; and against t028's recorded run (Llama-3.2-1B, bf16,
 * checkpointing, 1,024 tokens; tests/fixtures/torch-trace/t028.trace.json.gz, torch 2.11): the
 * checkpointed forward of a layer and its recompute in backward, every tensor of ≥ 512 KiB in order.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { activationBytes, layerActivation } from '../../../src/core/training/activations';
import { fullLayerPlan, fullLayerPlans, fullLayerShape, type FullLayerShape } from '../../../src/core/training/full-forward';
import { planCached, planPeak, planSaved } from '../../../src/core/training/layer-plan';
import type { ModelArch } from '../../../src/core/types';
import { signed } from './plan-events';

const LLAMA_1B: ModelArch = {
  family: 'llama',
  hidden: 2048,
  layers: 16,
  heads: 32,
  kvHeads: 8,
  headDim: 64,
  ffn: 8192,
  vocab: 128256,
  gatedMlp: true,
  norm: 'rmsnorm',
  tiedEmbeddings: true,
  normsPerLayer: 2,
  qkvBias: false,
  oBias: false,
  mlpBias: false,
};

const T = 16;
// s·h·4 (fp32 h-wide), s·h·2, q = s·a·d·2, kv = s·g·d·2, s·f·2
const N = T * 2048 * 4;
const H = T * 2048 * 2;
const Q = T * 32 * 64 * 2;
const KV = T * 8 * 64 * 2;
const F = T * 8192 * 2;
const bf16: FullLayerShape = { tokens: T, hidden: 2048, q: 2048, kv: 512, ffn: 8192, e: 2, eRes: 2, autocast: true, weightCopies: false, qkNorm: false };
const amp: FullLayerShape = { ...bf16, eRes: 4 };

describe('one Llama-3.2-1B layer’s forward, full fine-tuning, 16 tokens', () => {
  it('bf16: norms, projections, rotary, SDPA, MLP; the input goes at the first residual sum', () => {
    expect([N, H, Q, KV, F]).toEqual([131_072, 65_536, 65_536, 16_384, 262_144]);
    // RMSNorm: fp32 copy (saved), pow (freed by mean), normalised fp32, bf16 cast (saved), output (saved), normalised freed
    const norm = [N, N, -N, N, H, H, -N];
    // (x·cos) + (rotate_half(x)·sin): x·cos, −x2 (half), cat, −x2 freed, ·sin, cat freed, sum (saved), the two products freed
    const rope = (w: number) => [w, w / 2, w, -w / 2, w, -w, w, -w, -w];
    expect(signed(fullLayerPlan(bf16, 'forward'), H)).toEqual([
      ...norm,
      ...[Q, KV, KV],
      ...rope(Q),
      ...rope(KV),
      // the un-rotated q and k; SDPA's output (saved); o_proj; the residual sum; o_proj's output and the input freed
      ...[-Q, -KV, Q, H, H, -H, -H],
      ...norm,
      // gate, SiLU, up, product (all saved), down, the output, then down's output and the residual sum freed
      ...[F, F, F, F, H, H, -H, -H],
    ]);
  });

  it('bf16 saves what layerActivation counts: s·(2·(4 + 2 + 2)·h + 2·(2ad + 2gd) + 2·4f)', () => {
    const saved = planSaved(fullLayerPlan(bf16, 'forward'));
    expect(saved).toBe(T * (2 * 8 * 2048 + 2 * (2 * 2048 + 2 * 512) + 2 * 4 * 8192));
    expect(saved).toBe(layerActivation(LLAMA_1B, T, 1, { e: 2, eRes: 2, eF32: 2 }, 'sdpa', 1).linear);
  });

  it('AMP: the fp32 stream is saved as it is; autocast’s bf16 copies of the norm outputs and the fp32 rotary sums are what the matmuls save', () => {
    const norm = [N, -N, N, N]; // pow, freed; normalised (saved: .to(float32) is a no-op); fp32 output
    // q·cos and ·sin promote to fp32 (cos in the fp32 embedding's dtype); −x2 and cat stay bf16
    const rope = (w: number) => [2 * w, w / 2, w, -w / 2, 2 * w, -w, 2 * w, -2 * w, -2 * w];
    expect(signed(fullLayerPlan(amp, 'forward'))).toEqual([
      ...norm,
      // each projection casts the fp32 norm output to bf16 (saved) before its output
      ...[H, Q, H, KV, H, KV],
      ...rope(Q),
      ...rope(KV),
      // SDPA casts the fp32 q and k (saved), then its output; o_proj; the fp32 sums and the norm output go
      ...[-Q, -KV, Q, KV, Q, H, -2 * Q, -2 * KV, -N],
      // the residual sum (fp32, saved by the next norm as it is), o_proj's output freed
      ...[N, -H],
      ...norm,
      // gate's cast, gate, SiLU, up's cast, up, product, down, the norm output freed, the output, down freed
      ...[H, F, F, H, F, F, H, -N, N, -H],
    ]);
    // with the input the layer keeps (its first norm saves it as it is): 2·(4 + 4 + 2)·h + 3 more bf16 casts, attention, MLP
    const saved = planSaved(fullLayerPlan(amp, 'forward')) + N;
    expect(saved).toBe(T * (2 * 10 * 2048 + 3 * 2 * 2048 + 2 * (2 * 2048 + 2 * 512) + 2 * 4 * 8192));
    expect(saved).toBe(layerActivation(LLAMA_1B, T, 1, { e: 2, eRes: 4, eF32: 4 }, 'sdpa', 1).linear);
  });

  it('AMP’s weight copies: each Linear’s bf16 weight cast after its input’s cast, before its output, kept in the cache', () => {
    const ev = fullLayerPlan({ ...amp, weightCopies: true }, 'checkpointed');
    const copies = ev.flatMap((e) => ('alloc' in e && e.cached ? [e.alloc] : []));
    // q, k, v, o, gate, up, down: d_in·d_out·2
    expect(copies).toEqual([2048 * 2048 * 2, 2048 * 512 * 2, 2048 * 512 * 2, 2048 * 2048 * 2, 2048 * 8192 * 2, 2048 * 8192 * 2, 8192 * 2048 * 2]);
    // q_proj in a checkpointed forward: the input's cast, the weight's, the output, the input's cast freed
    const at = ev.findIndex((e) => 'alloc' in e && e.cached === true);
    expect(signed(ev).slice(at - 1, at + 3)).toEqual([H, 2048 * 2048 * 2, Q, -H]);
    // the copies are no save: the plan's saves are those without them
    expect(planSaved(ev)).toBe(planSaved(fullLayerPlan(amp, 'checkpointed')));
    // the recompute stops once down_proj has saved its input and its weight's copy: all seven are made
    const all = 2 * 2048 * (2048 + 512 + 512 + 2048 + 3 * 8192);
    expect(planCached(fullLayerPlan({ ...amp, weightCopies: true }, 'recompute'))).toBe(all);
    expect(planCached(ev)).toBe(all);
  });

  it('the plan’s peak: bf16 at the output, with the residual sum and down’s output above the saves', () => {
    const saves = T * (2 * 8 * 2048 + 2 * (2 * 2048 + 2 * 512) + 2 * 4 * 8192);
    expect(planPeak(fullLayerPlan(bf16, 'forward'), H)).toBe(saves + 3 * H);
  });

  it('is laid out only for the layers it follows: Llama-style, SDPA without a mask, no repeated K / V', () => {
    const run = { tokens: T, tp: 1, dt: { e: 2, eRes: 2, eF32: 2 }, attn: 'sdpa' as const, autocast: true, maskedShare: 0, weightCopies: false };
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'sdpa', maskedShare: 0 })).toEqual(bf16);
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'eager', maskedShare: 0 })).toBeNull();
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'flash', maskedShare: 0 })).toBeNull();
    // masked: laid out with its mask (b·s·s elements) where the run gives s
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'sdpa', maskedShare: 1 })).toBeNull();
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'sdpa', maskedShare: 1, seq: 8 })).toEqual({ ...bf16, mask: T * 8, repeatKv: true });
    // Phi-3's layer with its fused qkv_proj / gate_up_proj (tests/core/training/fused-views.test.ts)
    expect(fullLayerShape({ ...LLAMA_1B, family: 'phi3' }, { ...run, attn: 'sdpa', maskedShare: 0 })).toEqual({ ...bf16, fused: true });
    expect(fullLayerShape({ ...LLAMA_1B, normsPerLayer: 4 }, { ...run, attn: 'sdpa', maskedShare: 0 })).toBeNull();
    // head_dim 320 > 256: SDPA gets K and V repeated to all heads (repeat_kv), without a mask
    expect(fullLayerShape({ ...LLAMA_1B, headDim: 320 }, { ...run, attn: 'sdpa', maskedShare: 0 })).toEqual({ ...bf16, q: 32 * 320, kv: 8 * 320, repeatKv: true });
    // some layers masked, some not (a window on part of the layers): not one plan for all
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'sdpa', maskedShare: 0.5, seq: T })).toBeNull();
  });

  it('refuses a plan whose saves are not the inventory’s', () => {
    const inv = layerActivation(LLAMA_1B, T, 1, { e: 2, eRes: 2, eF32: 2 }, 'sdpa', 1).linear;
    const acts = { bytes: 16 * inv, head: 0, recompute: 0, layersOnGpu: 16 } as Parameters<typeof fullLayerPlans>[1];
    expect(fullLayerPlans(bf16, acts, false, 0)?.input).toBe(H);
    expect(fullLayerPlans(bf16, { ...acts, bytes: 16 * (inv + 512) }, false, 0)).toBeNull();
  });
});

interface Compact {
  events: [string, number, number, number, number][];
  stacks: string[];
}
const raw = JSON.parse(gunzipSync(readFileSync(new URL('../../fixtures/torch-trace/t028.trace.json.gz', import.meta.url))).toString('utf8')) as Compact;

/** t028's events from the first alloc whose stack starts with `first` to the next alloc whose stack `until` accepts, ≥ 512 KiB, signed. */
function recorded(first: string, until: (stack: string) => boolean): number[] {
  const at = (i: number) => raw.stacks[raw.events[i][4]] ?? '';
  const start = raw.events.findIndex((e, i) => e[0] === 'alloc' && at(i).startsWith(first));
  let end = start + 1;
  while (end < raw.events.length && !(raw.events[end][0] === 'alloc' && until(at(end)))) end++;
  const sizes = new Map<number, number>();
  const out: number[] = [];
  for (const [action, addr, size] of raw.events.slice(start, end)) {
    if (action === 'alloc') sizes.set(addr, size);
    const bytes = action === 'alloc' ? size : (sizes.get(addr) ?? 0);
    if (bytes >= 2 ** 19 && (action === 'alloc' || action === 'free_completed')) out.push(action === 'alloc' ? bytes : -bytes);
  }
  return out;
}

describe('t028’s recorded layer (1,024 tokens, bf16)', () => {
  const t028 = { ...bf16, tokens: 1024 };
  it('a checkpointed forward: every tensor freed with its last reference, the output kept as the next checkpoint’s input', () => {
    // modeling_llama.py:64 is RMSNorm's `.to(torch.float32)` under the decoder layer's line 306 (input_layernorm), in checkpoint()
    const rec = recorded('llama/modeling_llama.py:64:forward < llama/modeling_llama.py:306:forward < utils/checkpoint.py:512', (x) =>
      x.startsWith('llama/modeling_llama.py:64:forward < llama/modeling_llama.py:306'),
    );
    expect(rec).toHaveLength(63);
    expect(signed(fullLayerPlan(t028, 'checkpointed'))).toEqual(rec);
  });

  it('the recompute in backward: the saves rebuilt, stopped after the MLP product (the residual sum freed there)', () => {
    // recompute_fn's first alloc, to the first on autograd's thread (an empty stack)
    const rec = recorded('llama/modeling_llama.py:64:forward < llama/modeling_llama.py:306:forward < utils/checkpoint.py:1607', (x) => x === '');
    expect(rec).toHaveLength(46);
    expect(signed(fullLayerPlan(t028, 'recompute'))).toEqual(rec);
  });
});

/**
 * A masked SDPA call (padded batches: transformers' bool mask (b, 1, s, s) has zeros), by hand from
 * transformers 5.x integrations/sdpa_attention.py (`use_gqa_in_sdpa` false with a mask: `repeat_kv`
 * copies K and V to all heads) and PyTorch 2.11 attention.cpp (`convert_boolean_attn_mask`: an
 * additive mask in the query's dtype, saved by the fused kernel as `attn_bias`), for one
 * Qwen2.5-0.5B layer (h 896, 14 heads, 2 KV heads, head_dim 64, ffn 4864) at b 2, s 2048 (t005's
 * shape): T = 4,096 tokens.
 *   q, the repeated K or V, SDPA's output, h-wide 16-bit: 4,096 · 896 · 2 = 7,340,032 B (Q = H)
 *   K or V at the 2 KV heads: 4,096 · 128 · 2 = 1,048,576 B
 *   the additive mask: b·s·s·2 = 2 · 2,048 · 2,048 · 2 = 16,777,216 B
 *   fp32 h-wide (norms, the fp32 rotary sums and the repeated fp32 K under AMP): 14,680,064 B
 *   ffn-wide 16-bit: 4,096 · 4,864 · 2 = 39,845,888 B
 */
describe('a masked SDPA call: one Qwen2.5-0.5B layer, b 2, s 2048', () => {
  const QWEN: ModelArch = { ...LLAMA_1B, family: 'qwen2', hidden: 896, layers: 24, heads: 14, kvHeads: 2, headDim: 64, ffn: 4864, vocab: 151936, qkvBias: true };
  const t = 4096;
  const [q, kv, m, n, f] = [7_340_032, 1_048_576, 16_777_216, 14_680_064, 39_845_888];
  const run = { tokens: t, seq: 2048, tp: 1, attn: 'sdpa' as const, maskedShare: 1, weightCopies: false };
  const bf16Run = { ...run, dt: { e: 2, eRes: 2, eF32: 2 }, autocast: false };
  const ampRun = { ...run, dt: { e: 2, eRes: 4, eF32: 4 }, autocast: true };
  const shapeOf = (r: typeof bf16Run) => {
    const x = fullLayerShape(QWEN, r);
    if (!x) throw new Error('not laid out');
    return x;
  };

  it('the byte sizes', () => {
    expect([t * 896 * 2, t * 128 * 2, 2 * 2048 * 2048 * 2, t * 896 * 4, t * 4864 * 2]).toEqual([q, kv, m, n, f]);
    expect(shapeOf(bf16Run)).toMatchObject({ q: 896, kv: 128, mask: 2 * 2048 * 2048, repeatKv: true });
  });

  it('bf16: repeat_kv’s K and V copies, the additive mask and the output are saved; the unrepeated K and V go with the attention block', () => {
    const ev = signed(fullLayerPlan(shapeOf(bf16Run), 'forward'), q);
    // from the un-rotated q and k's frees (four events before the mask) to the next norm
    const at = ev.indexOf(m) - 4;
    expect(ev.slice(at, at + 13)).toEqual([
      ...[-q, -kv], // q, k go at their reassignment to the rotary sums
      ...[q, q], // repeat_kv(k), repeat_kv(v): saved by SDPA
      m, // convert_boolean_attn_mask: where(mask, 0, −inf), bf16, saved as attn_bias
      q, // SDPA's output (saved by o_proj)
      q, // o_proj's output
      ...[-kv, -kv], // the rotated K and V: no save, freed when the attention block returns
      q, // the residual sum
      ...[-q, -q], // o_proj's output, the layer input
      ...[n], // the next norm's fp32 copy
    ]);
  });

  it('bf16 saves what layerActivation counts: s·b·(2·8·h + 2·(2ad + 2ad) + 8f) + b·s·s·2', () => {
    const saved = planSaved(fullLayerPlan(shapeOf(bf16Run), 'forward'));
    // 4,096 · (16 · 896 + 2 · 3,584 + 8 · 4,864) = 4,096 · 60,416 = 247,463,936; + 16,777,216
    expect(saved).toBe(264_241_152);
    const inv = layerActivation(QWEN, 2048, 2, bf16Run.dt, 'sdpa', 1, false, false, 1);
    expect(saved).toBe(inv.linear + inv.scores);
    // unmasked, the same layer saves K and V at 2 heads and no mask: 29,360,128 B less
    const plain = planSaved(fullLayerPlan(shapeOf({ ...bf16Run, maskedShare: 0 }), 'forward'));
    expect(saved - plain).toBe(2 * (q - kv) + m);
    // the peak: at the layer's output, the residual sum and down's output above the saves
    expect(planPeak(fullLayerPlan(shapeOf(bf16Run), 'forward'), q)).toBe(264_241_152 + 3 * q);
  });

  it('AMP, t005’s recompute: the repeated fp32 K is cast to bf16 (saved) and freed when sdpa_attention_forward returns', () => {
    const ev = signed(fullLayerPlan(shapeOf(ampRun), 'recompute'));
    const at = ev.indexOf(m) - 6;
    expect(ev.slice(at, at + 15)).toEqual([
      ...[-q, -kv], // the un-rotated q and k (bf16 Linear outputs)
      2 * q, // repeat_kv(k) of the fp32 rotary sum: 14,680,064
      q, // repeat_kv(v), bf16: saved
      ...[q, q], // autocast: q and the repeated K cast to bf16, saved
      m, // the additive mask in the query's dtype (bf16), saved
      q, // SDPA's output
      -2 * q, // the repeated fp32 K goes with sdpa_attention_forward
      q, // o_proj's output
      ...[-2 * q, -2 * kv, -kv, -n], // the fp32 rotary sums, v, the norm's fp32 output
      n, // the residual sum (fp32, saved by the next norm as it is)
    ]);
    // saved: the second norm's fp32 input (the residual sum; the first's is the checkpoint's own
    // input, counted there), both norms' fp32 normalised tensors, 5 bf16 casts of the norm outputs
    // (q, k, v, gate, up), q, K, V and the output at all 14 heads, 4 ffn-wide tensors, the mask:
    // 4,096 · (12 + 10 + 8) · 896 + 4,096 · 8 · 4,864 + 16,777,216
    const saved = planSaved(fullLayerPlan(shapeOf(ampRun), 'recompute'));
    expect(saved).toBe(3 * n + 5 * q + 4 * q + 4 * f + m);
    expect(saved).toBe(t * (30 * 896 + 8 * 4864) + m);
    expect(saved).toBe(286_261_248);
  });

  it('t005’s plans: laid out, the recompute’s saves are the checkpointed inventory', () => {
    const acts = activationBytes(QWEN, 2048, 2, ampRun.dt, 'sdpa', 'full', 1, { maskedShare: 1 });
    expect(acts.recompute).toBe(286_261_248);
    const plans = fullLayerPlans(shapeOf(ampRun), acts, true, 0);
    expect(plans).not.toBeNull();
    expect(planSaved(plans!.keep)).toBe(acts.recompute);
    // the checkpointed forward keeps only its output; the mask is made and freed inside the call
    const ck = signed(plans!.checkpointed!);
    expect(ck).toContain(m);
    expect(ck).toContain(-m);
    expect(planSaved(plans!.checkpointed!)).toBe(n);
  });
});

/**
 * Eager attention (transformers 5.x modeling_llama.py `eager_attention_forward`), the same
 * Qwen2.5-0.5B layer at b 2, s 2048, bf16: one score tensor is b·a·s² = 2 · 14 · 2,048² =
 * 117,440,512 elements, 234,881,024 B in bf16 (W) and 469,762,048 B in fp32.
 */
describe('eager attention: one Qwen2.5-0.5B layer, b 2, s 2048, bf16', () => {
  const QWEN: ModelArch = { ...LLAMA_1B, family: 'qwen2', hidden: 896, layers: 24, heads: 14, kvHeads: 2, headDim: 64, ffn: 4864, vocab: 151936, qkvBias: true };
  const [q, kv, n] = [7_340_032, 1_048_576, 14_680_064];
  const W = 234_881_024;
  const dt = { e: 2, eRes: 2, eF32: 2 };
  const x = fullLayerShape(QWEN, { tokens: 4096, seq: 2048, tp: 1, dt, attn: 'eager', autocast: false, maskedShare: 0, weightCopies: false });

  it('repeat_kv, q’s reshape copy, the scores, · scaling, + mask, the fp32 softmax, its bf16 copy, the PV matmul, the contiguous output', () => {
    expect(2 * 14 * 2048 * 2048 * 2).toBe(W);
    expect(x).toMatchObject({ eager: 2 * 14 * 2048 * 2048, repeatKv: true });
    const ev = signed(fullLayerPlan(x!, 'forward'), q);
    const at = ev.indexOf(W) - 5;
    expect(ev.slice(at, at + 23)).toEqual([
      ...[-q, -kv], // the un-rotated q and k
      ...[q, q], // repeat_kv(k), repeat_kv(v): saved by the matmuls
      q, // matmul(q, kᵀ): q (laid out (b, s, a, d)) reshaped to (b·a, s, d), a copy saved by bmm
      W, // the scores
      ...[W, -W], // · scaling, the scores freed
      ...[W, -W], // + the additive mask (bf16), the scaled scores freed
      ...[2 * W, 2 * W, -2 * W], // softmax(dtype=float32): the sum converted, the fp32 output (saved), the conversion freed
      ...[W, -W], // .to(bf16) (saved by the PV matmul), the sum freed on reassignment
      ...[q, q, -q], // the PV bmm, transpose(1, 2).contiguous() (saved by o_proj), the bmm output freed
      q, // o_proj
      ...[-q, -kv, -kv], // the rotated q, K and V: no save
      q, // the residual sum
    ]);
  });

  it('saves the inventory: s·b·(16h + 2·4ad + 8f) + b·a·s²·(4 + 2), and peaks at the softmax', () => {
    const saved = planSaved(fullLayerPlan(x!, 'forward'));
    // 4,096 · 60,416 = 247,463,936 (as masked SDPA: q, K, V, out at 14 heads) + 3 · 234,881,024
    expect(saved).toBe(247_463_936 + 3 * W);
    const inv = layerActivation(QWEN, 2048, 2, dt, 'eager', 1);
    expect(saved).toBe(inv.linear + inv.scores);
    // at the softmax's output: the input (q), the first norm's saves (fp32 copy, bf16 cast, output:
    // n + 2q), v, the rotated q, k, the repeated K and V, q's copy (3q), the sum (W), its fp32
    // conversion and the softmax output (2W each): 7,340,032 + 29,360,128 + 2 · 1,048,576 + 4 · 7,340,032 + 5 · 234,881,024
    expect(planPeak(fullLayerPlan(x!, 'forward'), q)).toBe(q + n + 2 * q + 2 * kv + 4 * q + 5 * W);
    expect(planPeak(fullLayerPlan(x!, 'forward'), q)).toBe(1_242_562_560);
  });

  it('AMP, checkpointed: each tensor freed with its last reference, the output kept; recompute saves the checkpointed inventory', () => {
    const amp = { e: 2, eRes: 4, eF32: 4 };
    const y = fullLayerShape(QWEN, { tokens: 4096, seq: 2048, tp: 1, dt: amp, attn: 'eager', autocast: true, maskedShare: 0, weightCopies: false });
    const ck = fullLayerPlan(y!, 'checkpointed');
    expect(planSaved(ck)).toBe(n);
    // every alloc but the output is freed once
    const frees = ck.flatMap((e) => ('free' in e && e.free >= 0 ? [e.free] : []));
    expect(new Set(frees).size).toBe(frees.length);
    expect(frees.length).toBe(ck.filter((e) => 'alloc' in e).length - 1);
    // + mask in fp32 (the embedding's dtype): the sum is fp32, softmax needs no conversion; autocast casts the weights for the PV matmul
    const acts = activationBytes(QWEN, 2048, 2, amp, 'eager', 'full', 1);
    const plans = fullLayerPlans(y, acts, true, 0);
    expect(plans && planSaved(plans.keep)).toBe(acts.recompute);
    const rec = signed(plans!.keep);
    const at = rec.indexOf(W);
    // the scores, autocast's bf16 cast of q freed (the matmul saved its reshape copy), · scaling, the fp32 sum,
    // the fp32 softmax output (saved), the sum freed, the weights' bf16 cast for the PV matmul (saved)
    expect(rec.slice(at, at + 9)).toEqual([W, -q, W, -W, 2 * W, -W, 2 * W, -2 * W, W]);
  });
});
