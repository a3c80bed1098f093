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
import { layerActivation } from '../../../src/core/training/activations';
import { fullLayerPlan, fullLayerPlans, fullLayerShape, type FullLayerShape } from '../../../src/core/training/full-forward';
import { planCached, planPeak, planSaved, type PlanEvent } from '../../../src/core/training/layer-plan';
import type { ModelArch } from '../../../src/core/types';

/** the allocs of an event list in order, `+` bytes, and the frees as `-` bytes of the tensor freed (`input`: the handed-over input) */
function signed(ev: readonly PlanEvent[], input = NaN): number[] {
  const sizes: number[] = [];
  return ev.map((e) => {
    if ('alloc' in e) {
      sizes.push(e.alloc);
      return e.alloc;
    }
    return -(e.free < 0 ? input : (sizes[e.free] ?? NaN));
  });
}

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
    expect(saved).toBe(layerActivation(LLAMA_1B, T, 1, { e: 2, eRes: 2, eSoftmax: 2 }, 'sdpa', 1).linear);
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
    expect(saved).toBe(layerActivation(LLAMA_1B, T, 1, { e: 2, eRes: 4, eSoftmax: 4 }, 'sdpa', 1).linear);
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
    const run = { tokens: T, tp: 1, dt: { e: 2, eRes: 2, eSoftmax: 2 }, attn: 'sdpa' as const, autocast: true, maskedShare: 0, weightCopies: false };
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'sdpa', maskedShare: 0 })).toEqual(bf16);
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'eager', maskedShare: 0 })).toBeNull();
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'flash', maskedShare: 0 })).toBeNull();
    expect(fullLayerShape(LLAMA_1B, { ...run, attn: 'sdpa', maskedShare: 1 })).toBeNull();
    // Phi-3's layer with its fused qkv_proj / gate_up_proj (tests/core/training/fused-views.test.ts)
    expect(fullLayerShape({ ...LLAMA_1B, family: 'phi3' }, { ...run, attn: 'sdpa', maskedShare: 0 })).toEqual({ ...bf16, fused: true });
    expect(fullLayerShape({ ...LLAMA_1B, normsPerLayer: 4 }, { ...run, attn: 'sdpa', maskedShare: 0 })).toBeNull();
    // head_dim 320 > 256: SDPA gets K and V repeated to all heads
    expect(fullLayerShape({ ...LLAMA_1B, headDim: 320 }, { ...run, attn: 'sdpa', maskedShare: 0 })).toBeNull();
  });

  it('refuses a plan whose saves are not the inventory’s', () => {
    const inv = layerActivation(LLAMA_1B, T, 1, { e: 2, eRes: 2, eSoftmax: 2 }, 'sdpa', 1).linear;
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
