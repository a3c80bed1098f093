/**
 * What each family's RMSNorms save for backward, by hand from transformers' modeling code:
 * - Qwen3's q / k norms (models/qwen3/modeling_qwen3.py Qwen3Attention.forward:
 *   `self.q_norm(self.q_proj(hidden_states).view(hidden_shape))`, Qwen3RMSNorm = LlamaRMSNorm):
 *   each keeps its fp32 input copy (saved by `pow` and `*`) and, when its weight trains, the
 *   normalised tensor cast back to the input dtype (saved by `self.weight * ·`);
 * - GemmaRMSNorm (models/gemma2/modeling_gemma2.py Gemma2RMSNorm.forward:
 *   `output * (1.0 + self.weight.float())` before `.type_as(x)`): the normalised tensor it keeps for
 *   the weight is fp32, whatever the model dtype;
 * - the final norm before the LM head keeps what a layer's norm keeps;
 * - the RMSNorm of transformers ≤ 4.30, kept by the remote files of ChatGLM2/3, Baichuan and InternLM
 *   (`variance = x.to(float32).pow(2).mean(-1)`, then `x * torch.rsqrt(variance + eps)`): the rsqrt
 *   needs a gradient, so that mul keeps its other operand, the 16-bit input x itself; ChatGLM2/3's
 *   `(self.weight * x̂).to(input_dtype)` multiplies the fp32 x̂, which a trained weight keeps.
 * Shapes from the models' config.json: Qwen3-8B h 4096, 32 heads, 8 KV heads, head_dim 128, ffn
 * 12288; gemma-2-2b h 2304, 8 heads, 4 KV heads, head_dim 256, ffn 9216.
 */
import { describe, expect, it } from 'vitest';
import { activationBytes, layerActivation, normInputBytes, qkNormPerToken, savedKvWidth, uniform } from '../../../src/core/training/activations';
import { findPreset } from '../../../src/core/model/presets';
import { fullLayerPlan, fullLayerPlans, fullLayerShape, type FullLayerShape } from '../../../src/core/training/full-forward';
import { planSaved } from '../../../src/core/training/layer-plan';
import { loraLayerActivation } from '../../../src/core/training/lora-activations';
import type { ModelArch } from '../../../src/core/types';
import { GEMMA2_2B as GEMMA2_2B_ARCH, LLAMA3_8B } from '../inference/archs';
import { signed } from './plan-events';

/** Qwen/Qwen3-8B config.json: Llama-3-8B's attention shape, 36 layers, ffn 12288, q / k norms */
const QWEN3_8B: ModelArch = { ...LLAMA3_8B, family: 'qwen3', layers: 36, ffn: 12288, vocab: 151936, qkNorm: true };
/** google/gemma-2-2b with its four norms per layer (config.json; Gemma2DecoderLayer) */
const GEMMA2_2B: ModelArch = { ...GEMMA2_2B_ARCH, normsPerLayer: 4 };

const bf16 = uniform(2);

describe('Qwen3’s q / k RMSNorms', () => {
  it('full fine-tuning, bf16: 215,040 B per token and layer, 30,720 of them the q / k norms', () => {
    // two norms 2·(4 fp32 copy + 2 x̂ + 2 Linear input)·4096 = 65,536; rotated q, k, v, SDPA output
    // 2·(4096 + 1024 + 1024 + 4096) = 20,480; gate, SiLU, up, product 4·2·12288 = 98,304;
    // q / k norms (4 + 2)·(32 + 8)·128 = 30,720
    expect(qkNormPerToken(QWEN3_8B, 2, true, false)).toBe(30_720);
    expect(layerActivation(QWEN3_8B, 1, 1, bf16, 'sdpa', 1).linear).toBe(215_040);
    expect(layerActivation({ ...QWEN3_8B, qkNorm: false }, 1, 1, bf16, 'sdpa', 1).linear).toBe(215_040 - 30_720);
  });

  it('fp32 training: the projection output is its own fp32 copy, the normalised fp32 tensor the weight’s save: 8 B per element', () => {
    expect(qkNormPerToken(QWEN3_8B, 4, true, false)).toBe(8 * 5120);
  });

  it('frozen norm weights (LoRA): only the fp32 copies, 4·(32 + 8)·128 = 20,480 B per token; split by tensor parallelism', () => {
    const lora = { targets: ['q', 'v'] as const, rank: 16, dropout: 0, adapterBytes: 2, autocast: false };
    const run = (arch: ModelArch, tp: number) => loraLayerActivation(arch, 1, 1, bf16, 'sdpa', tp, false, false, { ...lora, targets: [...lora.targets] }).linear;
    expect(run(QWEN3_8B, 1) - run({ ...QWEN3_8B, qkNorm: false }, 1)).toBe(20_480);
    expect(run(QWEN3_8B, 2) - run({ ...QWEN3_8B, qkNorm: false }, 2)).toBe(10_240);
  });

  it('compiled layers save the projection output and recompute the norm: nothing beyond a Llama layer', () => {
    expect(qkNormPerToken(QWEN3_8B, 2, true, true)).toBe(0);
    expect(layerActivation(QWEN3_8B, 1, 1, bf16, 'sdpa', 1, false, true).linear).toBe(layerActivation({ ...QWEN3_8B, qkNorm: false }, 1, 1, bf16, 'sdpa', 1, false, true).linear);
  });
});

describe('a Qwen3 layer’s forward laid out (full-forward.ts), 16 tokens', () => {
  const T = 16;
  const shape: FullLayerShape = { tokens: T, hidden: 4096, q: 4096, kv: 1024, ffn: 12288, e: 2, eRes: 2, autocast: true, weightCopies: false, qkNorm: true };
  const Q = T * 4096 * 2;
  const KV = T * 1024 * 2;
  it('bf16: q_proj, its norm (fp32 copy kept, pow, x̂ in fp32, its bf16 cast kept, output), q_proj’s output freed; then k; then v', () => {
    const ev = signed(fullLayerPlan(shape, 'forward'), T * 4096 * 2);
    // after the first norm's 7 events: q, then Qwen3RMSNorm on it
    const headNorm = (w: number) => [2 * w, 2 * w, -2 * w, 2 * w, w, w, -2 * w, -w];
    expect(ev.slice(7, 7 + 1 + 8 + 1 + 8 + 1)).toEqual([Q, ...headNorm(Q), KV, ...headNorm(KV), KV]);
  });
  it('saves what layerActivation counts, and the replay takes the plan for a Qwen3 preset shape', () => {
    expect(planSaved(fullLayerPlan(shape, 'forward'))).toBe(T * 215_040);
    const run = { tokens: T, tp: 1, dt: bf16, attn: 'sdpa' as const, autocast: true, maskedShare: 0, weightCopies: false };
    expect(fullLayerShape(QWEN3_8B, run)).toEqual(shape);
    const acts = activationBytes(QWEN3_8B, T, 1, bf16, 'sdpa', 'none', 1);
    expect(fullLayerPlans(fullLayerShape(QWEN3_8B, run), acts, false, 0)).not.toBeNull();
  });
  it('a checkpointed forward keeps nothing of the norms', () => {
    expect(planSaved(fullLayerPlan(shape, 'checkpointed'))).toBe(T * 4096 * 2);
  });
});

describe('GemmaRMSNorm keeps its normalised tensor in fp32', () => {
  it('gemma-2-2b full fine-tuning, bf16: 168,960 B per token and layer', () => {
    // pre-norms 2·(4 copy + 4 fp32 x̂ + 2 Linear input)·2304 = 46,080; post-norms 2·(4 + 4)·2304 =
    // 36,864; rotated q, k, v, SDPA output 2·(2048 + 1024 + 1024 + 2048) = 12,288; MLP 4·2·9216 = 73,728
    expect(layerActivation(GEMMA2_2B, 1, 1, bf16, 'sdpa', 1).linear).toBe(168_960);
    // four fp32 copies and four fp32 x̂ per layer are h-wide fp32 tensors
    expect(layerActivation(GEMMA2_2B, 1, 1, bf16, 'sdpa', 1).fp32Hidden).toBe(8);
  });
  it('the final norm too: (4 + 4 + 2)·2304 B per token with the LM-head input; Llama’s (4 + 2 + 2)·h', () => {
    expect(activationBytes(GEMMA2_2B, 1, 1, bf16, 'sdpa', 'full', 1).head).toBe(10 * 2304);
    expect(activationBytes({ ...QWEN3_8B, family: 'llama', qkNorm: false }, 1, 1, bf16, 'sdpa', 'full', 1).head).toBe(8 * 4096);
  });
});

describe('Falcon-40B’s K and V, expanded to all heads by its own code', () => {
  it('training saves K (rotated) and V at 128 heads: 2·128·64 elements per token, where Llama-style GQA saves 2·8·64', () => {
    const falcon = findPreset('tiiuae/falcon-40b')!.arch;
    expect(savedKvWidth(falcon, 'sdpa', 0)).toBe(2 * 128 * 64);
    expect(savedKvWidth({ ...falcon, family: 'llama' }, 'sdpa', 0)).toBe(2 * 8 * 64);
  });
});

describe('the old RMSNorm of the remote files keeps its 16-bit input (families.ts normSavesInput)', () => {
  // InternLM v1 is Llama's block with this norm: the same shape under both names differs only there
  const internlm: ModelArch = { ...LLAMA3_8B, family: 'internlm' };
  const lora = { targets: ['q', 'v'], rank: 16, dropout: 0, adapterBytes: 2, autocast: false } as const;
  const loraLayer = (arch: ModelArch, dt = bf16) => loraLayerActivation(arch, 1, 1, dt, 'sdpa', 1, false, false, { ...lora, targets: [...lora.targets] }).linear;
  it('bf16: 2 B per hidden element per norm, two norms a layer: 2·2·4,096 = 16,384 B per token, frozen or trained', () => {
    expect(normInputBytes(internlm, bf16, false)).toBe(2);
    expect(loraLayer(internlm) - loraLayer(LLAMA3_8B)).toBe(16_384);
    expect(layerActivation(internlm, 1, 1, bf16, 'sdpa', 1).linear - layerActivation(LLAMA3_8B, 1, 1, bf16, 'sdpa', 1).linear).toBe(16_384);
  });
  it('ChatGLM2/3 also keep the fp32 x̂ for a trained weight, not a bf16 cast: 2·(2 + 4 − 2)·4,096 = 32,768 B per token more', () => {
    const glm: ModelArch = { ...LLAMA3_8B, family: 'chatglm' };
    // ChatGLM also saves K and V at every head (sdpa.ts glmExpandsKv): that width is set aside
    const kv = (arch: ModelArch) => 2 * savedKvWidth(arch, 'sdpa', 0);
    const glmLayer = layerActivation(glm, 1, 1, bf16, 'sdpa', 1).linear - kv(glm);
    expect(glmLayer - (layerActivation(LLAMA3_8B, 1, 1, bf16, 'sdpa', 1).linear - kv(LLAMA3_8B))).toBe(32_768);
  });
  it('an fp32 stream (AMP): `.to(float32)` returns x itself, the one tensor already counted; compiled norms are recomputed', () => {
    const amp = { e: 2, eRes: 4, eF32: 4 };
    expect(normInputBytes(internlm, amp, false)).toBe(0);
    expect(normInputBytes(internlm, bf16, true)).toBe(0);
    expect(loraLayer(internlm, amp)).toBe(loraLayer(LLAMA3_8B, amp));
  });
  it('the final norm too: the frozen head keeps (4 + 2)·h per token; under full checkpointing the recomputed layer’s first input is the checkpoint’s', () => {
    const total = (arch: ModelArch, ckpt: 'none' | 'full') => activationBytes(arch, 1, 1, bf16, 'sdpa', ckpt, 1);
    // 32 layers × 16,384 + the final norm's 8,192
    expect(total(internlm, 'none').bytes - total(LLAMA3_8B, 'none').bytes).toBe(32 * 16_384 + 8_192);
    // one recomputed layer: its second norm's input (8,192) and the final norm's; its first norm's input is the checkpoint input
    expect(total(internlm, 'full').bytes - total(LLAMA3_8B, 'full').bytes).toBe(8_192 + 8_192);
  });
});
