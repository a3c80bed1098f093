/**
 * Phi-3 / Phi-4's fused qkv_proj (src/core/training/fused-views.ts): transformers
 * `Phi3Attention.forward` takes q, k, v as slices of `qkv = self.qkv_proj(hidden_states)`; RoPE
 * makes new q and k, v reaches attention as the slice, and a saved slice keeps its whole base. The
 * expected bytes are written out per token from that code, in bf16 (e = e_res = 2).
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { activationBytes, layerActivation, uniform } from '../../../src/core/training/activations';
import { fullLayerPlan, fullLayerPlans, fullLayerShape } from '../../../src/core/training/full-forward';
import { planSaved, type PlanEvent } from '../../../src/core/training/layer-plan';
import { fusedQkvViewShare, fusedQkvViewWidth } from '../../../src/core/training/fused-views';
import { loraLayerActivation, type LoraSaves } from '../../../src/core/training/lora-activations';
import type { ModelArch } from '../../../src/core/types';

const base = { normsPerLayer: 2, qkvBias: false, oBias: false, mlpBias: false, gatedMlp: true, norm: 'rmsnorm' as const, tiedEmbeddings: false };
/** microsoft/Phi-3-mini-4k-instruct config.json (MHA: 32 heads of 96), without its 2047-token window */
const PHI3_MINI: ModelArch = { ...base, family: 'phi3', hidden: 3072, layers: 32, heads: 32, kvHeads: 32, headDim: 96, ffn: 8192, vocab: 32064 };
/** microsoft/Phi-4-mini-instruct config.json (GQA: 24 heads of 128, 8 KV heads) */
const PHI4_MINI: ModelArch = { ...base, family: 'phi3', hidden: 3072, layers: 32, heads: 24, kvHeads: 8, headDim: 128, ffn: 8192, vocab: 200064, tiedEmbeddings: true };
const s = 1024;
const bf16 = uniform(2);
const perToken = (arch: ModelArch, attn: 'sdpa' | 'flash' | 'eager', b = 1, masked = 0) => layerActivation(arch, s, b, bf16, attn, 1, false, false, masked).linear / (s * b);

describe("Qwen-1's c_attn (modeling_qwen.py: mixed_x_layer.split, v passed on as the slice)", () => {
  it('Qwen-7B under flash-attn keeps the whole 3·4096-wide c_attn output: (a + g)·d = 8,192 elements beyond v', () => {
    const QWEN_7B: ModelArch = { ...base, family: 'qwen', hidden: 4096, layers: 32, heads: 32, kvHeads: 32, headDim: 128, ffn: 11008, vocab: 151936, qkvBias: true };
    expect(fusedQkvViewWidth(QWEN_7B, 'flash', 1, 0)).toBe(8192);
    expect(perToken(QWEN_7B, 'flash') - perToken({ ...QWEN_7B, family: 'llama' }, 'flash')).toBe(8192 * 2);
  });
});

describe('full fine-tune, SDPA without a mask', () => {
  it('Phi-3-mini: 151,552 B per token and layer, 12,288 of them the qkv output beyond v', () => {
    // per token, bf16:
    //   2 norms × (fp32 input copy 4h + bf16 normalised 2h + output 2h) = 2 × 8 × 3072 = 49,152
    //   qkv_proj output, kept whole by v's slice: (a + 2g)·d·2 = 9,216 × 2         = 18,432
    //   q and k after RoPE: (a + g)·d·2 = 6,144 × 2                                = 12,288
    //   SDPA output (o_proj input): a·d·2                                          =  6,144
    //   gate_up output, kept whole by the gate and up chunks: 2f·2                 = 32,768
    //   SiLU output f·2 + product (down_proj input) f·2                            = 32,768
    //   total                                                                       = 151,552
    expect(perToken(PHI3_MINI, 'sdpa')).toBe(151_552);
    // separate q / k / v and gate / up projections (Llama's layer) keep v alone: (a + g)·d·2 = 12,288 less
    expect(perToken({ ...PHI3_MINI, family: 'llama' }, 'sdpa')).toBe(151_552 - 12_288);
  });

  it('Phi-4-mini (GQA): 139,264 B per token and layer, 8,192 of them the qkv output beyond v', () => {
    // 49,152 norms + qkv (24 + 2·8)·128·2 = 10,240 + q 3,072·2 = 6,144 + k 1,024·2 = 2,048
    // + SDPA output 6,144 + gate_up 32,768 + SiLU 16,384 + product 16,384 = 139,264
    expect(perToken(PHI4_MINI, 'sdpa')).toBe(139_264);
    expect(perToken({ ...PHI4_MINI, family: 'llama' }, 'sdpa')).toBe(139_264 - 8_192);
    // flash_attention_2 saves v as passed too
    expect(perToken(PHI4_MINI, 'flash')).toBe(139_264);
  });

  it('gate_up adds nothing: both chunks are saved, 2f as separate gate and up outputs', () => {
    const noAttnView = (arch: ModelArch) => perToken(arch, 'sdpa') - fusedQkvViewWidth(arch, 'sdpa', 1, 0) * 2;
    expect(noAttnView(PHI3_MINI)).toBe(noAttnView({ ...PHI3_MINI, family: 'llama' }));
  });

  it('torch.compile keeps the same 12,288 B: the partitioner saves the v slice (a view of the matmul buffer) or the matmul output', () => {
    const compiled = (arch: ModelArch) => layerActivation(arch, s, 1, bf16, 'sdpa', 1, false, true).linear / s;
    // compiled Phi-3-mini: 2 norms × (input 2h + Linear input 2h) = 24,576 + qkv 18,432 + q, k 12,288
    // + SDPA output 6,144 + gate_up 32,768 + product 16,384 (SiLU output recomputed) = 110,592
    expect(compiled(PHI3_MINI)).toBe(110_592);
    expect(compiled(PHI3_MINI) - compiled({ ...PHI3_MINI, family: 'llama' })).toBe(12_288);
  });

  it('tensor parallel splits the qkv output with the heads', () => {
    const tp2 = layerActivation(PHI4_MINI, s, 1, bf16, 'sdpa', 2).linear - layerActivation({ ...PHI4_MINI, family: 'llama' }, s, 1, bf16, 'sdpa', 2).linear;
    expect(tp2).toBe((s * 8_192) / 2);
  });
});

describe('where v reaches the saving op as a copy, the qkv output is freed', () => {
  it('masked SDPA with g < a: repeat_kv copies v (the mask layers only)', () => {
    expect(fusedQkvViewShare(PHI4_MINI, 'sdpa', 2, 1)).toBe(0);
    expect(fusedQkvViewShare(PHI4_MINI, 'sdpa', 2, 0.25)).toBe(0.75);
    expect(perToken(PHI4_MINI, 'sdpa', 2, 1)).toBe(perToken({ ...PHI4_MINI, family: 'llama' }, 'sdpa', 2, 1));
    // with g = a repeat_kv returns the slice itself, mask or not
    expect(fusedQkvViewShare(PHI3_MINI, 'sdpa', 2, 1)).toBe(1);
  });

  it('eager: matmul reshapes v to (b·g, s, d), a view only at b = 1; with g < a repeat_kv copies it', () => {
    expect(perToken(PHI3_MINI, 'eager', 1) - perToken({ ...PHI3_MINI, family: 'llama' }, 'eager', 1)).toBe(12_288);
    expect(perToken(PHI3_MINI, 'eager', 2)).toBe(perToken({ ...PHI3_MINI, family: 'llama' }, 'eager', 2));
    expect(fusedQkvViewShare(PHI4_MINI, 'eager', 1, 0)).toBe(0);
  });

  it('families whose q, k and v are all saved as they are add nothing (GPT-2 split, Bloom, Falcon)', () => {
    for (const family of ['gpt2', 'bloom', 'falcon', 'gpt_bigcode', 'llama']) expect(fusedQkvViewWidth({ ...PHI3_MINI, family }, 'sdpa', 1, 0)).toBe(0);
    // GPT-NeoX: qkv.chunk(3) views, RoPE'd q and k: 2h more per token
    expect(fusedQkvViewWidth({ ...PHI3_MINI, family: 'gpt_neox' }, 'sdpa', 1, 0)).toBe(2 * 3072);
  });
});

describe('LoRA over a frozen base (PEFT: q, k, v are slices of base(x) + lora_B(lora_A(x))·scale)', () => {
  const lora: LoraSaves = { targets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'], rank: 16, dropout: 0, adapterBytes: 2, autocast: false };
  it('Phi-4-mini, every projection adapted, r = 16, 16-bit adapters: 127,104 B per token and layer', () => {
    // 2 norms' fp32 input copies 2 × 4 × 3072                               = 24,576
    // q 3,072 + k 1,024 + SDPA output 3,072 + qkv output beyond k: (24 + 2·8)·128 = 5,120; × 2 B = 24,576
    // gate_up output 2f + SiLU output f, × 2 B                                = 49,152
    // adapters: qkv_proj's lora_A input (the norm output, once) 6,144, gate_up_proj's 6,144,
    //   down_proj's (the product) 16,384; o_proj's is the SDPA output (kept above);
    //   4 lora_B inputs 4 × 16 × 2 = 128                                      = 28,800
    // total                                                                   = 127,104
    expect(loraLayerActivation(PHI4_MINI, s, 1, bf16, 'sdpa', 1, false, false, lora).linear / s).toBe(127_104);
    // separate q, k, v, gate, up (Llama): v alone (8,192 B less), but 5 lora_B inputs there instead of 2 (3 × 32 B more)
    expect(loraLayerActivation({ ...PHI4_MINI, family: 'llama' }, s, 1, bf16, 'sdpa', 1, false, false, lora).linear / s).toBe(127_104 - 8_192 + 3 * 32);
  });
  it('no adapter on qkv_proj: v is a slice of the frozen base output, kept as well', () => {
    const o = { ...lora, targets: ['o'] as LoraSaves['targets'] };
    const phi = loraLayerActivation(PHI4_MINI, s, 1, bf16, 'sdpa', 1, false, false, o).linear;
    const llama = loraLayerActivation({ ...PHI4_MINI, family: 'llama' }, s, 1, bf16, 'sdpa', 1, false, false, o).linear;
    expect((phi - llama) / s).toBe(8_192);
  });
});

describe('estimate: Phi-3-mini preset, full fine-tune, bf16, SDPA, s = 1024 (below its 2047-token window)', () => {
  it('activations = L·s·b·151,552 + the final norm’s fp32 copy and x̂ and the LM-head input, s·b·h·(4 + 2 + 2)', () => {
    const r = estimate({
      ...defaultScenario(),
      model: 'microsoft/Phi-3-mini-4k-instruct',
      mode: 'training',
      method: 'full',
      precision: 'bf16',
      weights: 'bf16',
      attn: 'sdpa',
      seq: s,
      batch: 1,
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const acts = r.value.terms.find((t) => t.id === 'activations')!.bytes;
    expect(acts).toBe(32 * s * 151_552 + s * 3072 * (4 + 2 + 2));
  });
});

describe('full fine-tune layer plan (full-forward.ts), Phi-4-mini, 16 tokens, bf16, SDPA', () => {
  const T = 16;
  // fp32 h-wide N, bf16 h-wide H, q Q, k KV, qkv output QKV, f-wide F
  const [N, H, Q, KV, QKV, F] = [T * 3072 * 4, T * 3072 * 2, T * 3072 * 2, T * 1024 * 2, T * 5120 * 2, T * 8192 * 2];
  const run = { tokens: T, tp: 1, dt: bf16, attn: 'sdpa' as const, autocast: true, maskedShare: 0, weightCopies: false };
  const shape = fullLayerShape(PHI4_MINI, run)!;
  /** the allocs in order as + bytes, the frees as − bytes of the tensor freed (`input`: the handed-over input) */
  const signed = (ev: readonly PlanEvent[], input = NaN): number[] => {
    const sizes: number[] = [];
    return ev.map((e) => ('alloc' in e ? (sizes.push(e.alloc), e.alloc) : -(e.free < 0 ? input : (sizes[e.free] ?? NaN))));
  };
  // apply_rotary_pos_emb: x·cos, −x2 (half), cat, −x2 freed, ·sin, cat freed, sum, x·cos and ·sin freed, then
  // torch.cat([sum, pass]) and the sum freed
  const rope = (w: number) => [w, w / 2, w, -w / 2, w, -w, w, -w, -w, w, -w];

  it('forward: one qkv output (kept), RoPE ending in cat, one gate_up output (kept); saves = 139,264 B per token', () => {
    const norm = [N, N, -N, N, H, H, -N];
    expect(shape.fused).toBe(true);
    expect(signed(fullLayerPlan(shape, 'forward'), H)).toEqual([
      ...norm,
      QKV,
      ...rope(Q),
      ...rope(KV),
      // SDPA's output; o_proj; the residual sum; o_proj's output and the layer input freed (q, k, v are slices: nothing to free)
      ...[Q, H, H, -H, -H],
      ...norm,
      // gate_up, SiLU, product (all saved), down, the output, down's output and the residual sum freed
      ...[2 * F, F, F, H, H, -H, -H],
    ]);
    expect(planSaved(fullLayerPlan(shape, 'forward'))).toBe(T * 139_264);
  });

  it('checkpointed: the qkv output lives to the end of the attention, gate_up until down_proj returns', () => {
    const norm = [N, N, -N, N, -N, H, H, -H, -N];
    expect(signed(fullLayerPlan(shape, 'checkpointed'))).toEqual([
      ...norm,
      QKV,
      ...rope(Q),
      ...rope(KV),
      // SDPA's output, o_proj; then the attention's locals go: its output, q and k after RoPE, qkv, the norm output
      ...[Q, H, -Q, -Q, -KV, -QKV, -H, H, -H],
      ...norm,
      // gate_up, SiLU, product, SiLU freed, down; product, gate_up, norm output freed; the output kept; down and the sum freed
      ...[2 * F, F, F, -F, H, -F, -2 * F, -H, H, -H, -H],
    ]);
  });

  it('the replay takes the plan: its saves are the inventory’s', () => {
    const acts = activationBytes(PHI4_MINI, T, 1, bf16, 'sdpa', 'none', 1);
    const plans = fullLayerPlans(shape, acts, false, 0);
    expect(plans).not.toBeNull();
    expect(planSaved(plans!.keep)).toBe(layerActivation(PHI4_MINI, T, 1, bf16, 'sdpa', 1).linear);
  });
});
