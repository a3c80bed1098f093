/**
 * Training the remote-code chat models: what their own files save that the common layer does not.
 * ChatGLM2 / ChatGLM3 save K and V at all heads (src/core/sdpa.ts glmExpandsKv):
 * modeling_chatglm.py `SelfAttention.forward` expands the two K/V groups with `.contiguous()` before
 * `CoreAttention`, whose SDPA call saves the tensors it is given. Qwen-1 builds a mask in every layer.
 * InternLM's files offer eager and flash_attention_2 only, and InternLM v1 clamps its scores.
 */
import { describe, expect, it } from 'vitest';
import { layerActivation, savedKvWidth, savedMaskBytes, sdpaMaskedShare, uniform } from '../../../src/core/training/activations';
import { BAICHUAN2_13B_CONFIG, CHATGLM3_6B_CONFIG, CHATGLM_6B_CONFIG, INTERNLM2_7B_CONFIG, QWEN_7B_CONFIG, archOf } from '../model/remote-configs';
import { ownFileAttn } from '../../../src/core/model/remote-families';
import { loraTrainableParams } from '../../../src/core/model/lora';
import { fusedQkvViewWidth } from '../../../src/core/training/fused-views';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Scenario } from '../../../src/core/types';

const GLM3 = archOf(CHATGLM3_6B_CONFIG);

describe('ChatGLM3-6B: K and V saved at 32 heads, not 2 groups', () => {
  it('2 × 32 × 128 = 8,192 elements per token, under SDPA, flash and eager alike', () => {
    for (const attn of ['sdpa', 'flash', 'eager'] as const) expect(savedKvWidth(GLM3, attn, 0)).toBe(8192);
  });

  it('a bf16 layer keeps 2 × (32 − 2) × 128 × 2 = 15,360 B per token more than grouped K/V would (and its two old-style RMSNorms 2 × (2 + 2) × 4,096: norm-saves.test.ts)', () => {
    const s = 1024;
    const perToken = (family: string) => layerActivation({ ...GLM3, family }, s, 1, uniform(2), 'sdpa', 1).linear / s;
    expect(perToken('chatglm') - perToken('llama')).toBe(15_360 + 32_768);
  });

  it('the first ChatGLM is multi-head: nothing to expand', () => {
    const glm1 = archOf(CHATGLM_6B_CONFIG);
    expect(savedKvWidth(glm1, 'sdpa', 0)).toBe(2 * 32 * 128);
  });
});

describe('Qwen-1 under SDPA masks every layer itself (modeling_qwen.py QWenAttention.forward)', () => {
  it('every layer saves its [b, 1, s, s] additive mask: share 1 under SDPA, none under flash-attn', () => {
    const qwen = archOf(QWEN_7B_CONFIG);
    expect(sdpaMaskedShare(qwen, 2048, 'sdpa', false)).toBe(1);
    expect(sdpaMaskedShare(qwen, 2048, 'flash', false)).toBe(0);
    // b · s · s · e per layer: 1 × 2048² × 2 = 8 MiB in bf16
    expect(savedMaskBytes(2048, 1, 2, 1)).toBe(8 * 2 ** 20);
  });
});

describe('Baichuan2-13B: what its own file does in training (modeling_baichuan.py, configuration_baichuan.py)', () => {
  const arch = archOf(BAICHUAN2_13B_CONFIG);
  const lora: Scenario = { ...defaultScenario(), model: 'custom', arch, mode: 'training', method: 'lora', weights: 'bf16', precision: 'bf16', seq: 1024, batch: 1, gpu: '' };
  const run = (p: Partial<Scenario>) => {
    const r = estimate({ ...lora, ...p });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.value;
  };
  it('BaichuanConfig keeps gradient_checkpointing as a one-element tuple, always true: every layer checkpointed, whatever the setting, and says so', () => {
    const none = run({ gradCkpt: 'none' });
    expect(none.allocatedBytes).toBe(run({ gradCkpt: 'full' }).allocatedBytes);
    expect(none.notes.map((n) => n.code)).toContain('training.own-checkpointing');
    expect(run({ gradCkpt: 'full' }).notes.map((n) => n.code)).not.toContain('training.own-checkpointing');
  });
  it("NormHead's training forward multiplies by F.normalize(weight), which the matmul saves: 125,696 × 5,120 × 2 B more on the logits without autocast", () => {
    const logits = (normHead: boolean) => estimate({ ...lora, autocast: 'off', arch: { ...arch, normHead } });
    const [withHead, without] = [logits(true), logits(false)];
    if (!withHead.ok || !without.ok) throw new Error('refused');
    const term = (e: typeof withHead) => (e.ok ? (e.value.terms.find((t) => t.id === 'logits')?.bytes ?? 0) : 0);
    expect(term(withHead) - term(without)).toBe(1_287_127_040);
  });
  it('under the Trainer’s autocast the normalised weight is fp32 (autocast runs `norm` in fp32, the division promotes) and F.linear saves its bf16 cast: at the head 125,696 × 5,120 × (4 + 2) + 1,024 × 125,696 × 2 B', () => {
    const r = run({ autocast: 'on' });
    // 3,861,381,120 B of weight tensors and the 257,425,408 B logits, above the loss's own peak here
    expect(r.terms.find((t) => t.id === 'logits')?.bytes).toBe(3_861_381_120 + 257_425_408);
  });
  it('its own [b, a, s, s] ALiBi mask, made at every training forward, is held by the checkpointed layers: 40 × 1,024² × 2 B', () => {
    // the mask enters the moments, not a term: compare totals with and without ALiBi's heads
    const withAlibi = run({ autocast: 'on' }).allocatedBytes;
    const rope = estimate({ ...lora, autocast: 'on', arch: { ...arch, alibi: false } });
    if (!rope.ok) throw new Error('refused');
    expect(withAlibi - rope.value.allocatedBytes).toBe(40 * 1024 ** 2 * 2);
  });
});

describe('InternLM trains with the attention its own file offers (remote-families.ts ownFileAttn)', () => {
  const arch = archOf(INTERNLM2_7B_CONFIG);
  const lora: Scenario = { ...defaultScenario(), model: 'custom', arch, mode: 'training', method: 'lora', weights: 'bf16', precision: 'bf16', seq: 2048, batch: 1, gpu: '' };
  it('INTERNLM(2)_ATTENTION_CLASSES hold eager and flash_attention_2: sdpa trains eager, the others as asked; other families as asked', () => {
    expect(ownFileAttn({ family: 'internlm2' }, 'sdpa')).toBe('eager');
    expect(ownFileAttn({ family: 'internlm' }, 'sdpa')).toBe('eager');
    expect(ownFileAttn({ family: 'internlm2' }, 'flash')).toBe('flash');
    expect(ownFileAttn({ family: 'chatglm' }, 'sdpa')).toBe('sdpa');
  });
  it('an sdpa estimate is the eager one, and says why', () => {
    const [sdpa, eager] = [estimate({ ...lora, attn: 'sdpa' }), estimate({ ...lora, attn: 'eager' })];
    if (!sdpa.ok || !eager.ok) throw new Error('refused');
    expect(sdpa.value.allocatedBytes).toBe(eager.value.allocatedBytes);
    expect(sdpa.value.notes.find((n) => n.code === 'model.own-attn')?.params).toEqual({ runs: 'eager', attn: 'sdpa' });
    expect(eager.value.notes.map((n) => n.code)).not.toContain('model.own-attn');
  });
  it("InternLM v1's torch.max clamp keeps the masked scores too: b·a·s²·e more per eager layer, 32 × 1,024² × 2 B", () => {
    const v1 = { ...arch, family: 'internlm' };
    const scores = (family: string) => layerActivation({ ...v1, family }, 1024, 1, uniform(2), 'eager', 1).scores;
    expect(scores('internlm') - scores('llama')).toBe(32 * 1024 ** 2 * 2);
  });
});

describe("InternLM2's fused wqkv (modeling_internlm2.py InternLM2Attention)", () => {
  const arch = archOf(INTERNLM2_7B_CONFIG);
  it('PEFT adapts wqkv once: r = 16 on wqkv, wo, w1, w3, w2 of internlm2-chat-7b = 37,748,736 trainable parameters', () => {
    // per layer 16·(4096 + 6144) + 16·(4096 + 4096) + 3 · 16·(4096 + 14336) = 1,179,648; × 32 layers
    expect(loraTrainableParams(arch, 16, ['q', 'k', 'v', 'o', 'gate', 'up', 'down'])).toBe(37_748_736);
  });
  it('flash-attn saves v as the slice of the wqkv output: (a + g)·d·e = 10,240 B more per token and layer; eager saves repeat_kv’s copy', () => {
    expect(fusedQkvViewWidth(arch, 'flash', 1, 0)).toBe((32 + 8) * 128);
    expect(fusedQkvViewWidth(arch, 'eager', 1, 0)).toBe(0);
  });
});

describe("InternLM2's loss: InternLM2ForCausalLM.forward upcasts with logits.float() before its shift copy", () => {
  it('its logits term is the upcast-in-model path’s peak: 4n + 8n′ for V = 92,544 at 1,024 tokens', () => {
    // its config.json names the file's class in auto_map (trust_remote_code): logits-path auto is the file's
    const arch = { ...archOf(INTERNLM2_7B_CONFIG), remoteCode: true };
    const r = estimate({ ...defaultScenario(), model: 'custom', arch, mode: 'training', method: 'lora', weights: 'bf16', precision: 'bf16', seq: 1024, batch: 1, gpu: '' });
    if (!r.ok) throw new Error('refused');
    // n = 1,024 × 92,544 = 94,765,056; n′ = 1,023 × 92,544 = 94,672,512
    expect(r.value.terms.find((t) => t.id === 'logits')?.bytes).toBe(4 * 94_765_056 + 8 * 94_672_512);
  });
});
