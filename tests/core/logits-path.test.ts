/**
 * Logits path at inference (src/core/logits-path.ts) and its resolution, hand-computed for
 * Qwen-7B-Chat (Qwen-1: modeling_qwen.py, trust_remote_code; h = 4096, L = 32, a = 32, V = 151936,
 * MLP w1 / w2 of intermediate_size / 2 = 11008).
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../src/core/estimate';
import { inferenceLogits, resolveLogitsPath } from '../../src/core/logits-path';
import { parseHfConfig } from '../../src/core/model/config';
import { defaultScenario, parseScenario } from '../../src/core/scenario';
import type { ModelArch, Scenario } from '../../src/core/types';

const QWEN1_7B: Partial<ModelArch> = {
  family: 'qwen',
  hidden: 4096,
  layers: 32,
  heads: 32,
  kvHeads: 32,
  headDim: 128,
  ffn: 11008,
  vocab: 151936,
  gatedMlp: true,
  norm: 'rmsnorm',
  tiedEmbeddings: false,
  qkvBias: true,
  remoteCode: true,
};

function infer(p: Partial<Scenario>) {
  const r = estimate({
    ...defaultScenario(),
    model: 'custom',
    arch: QWEN1_7B,
    mode: 'inference',
    engine: 'transformers',
    weights: 'bf16',
    kv: 'bf16',
    attn: 'flash',
    batch: 1,
    prompt: 8192,
    gen: 16,
    ...p,
  });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const termOf = (e: ReturnType<typeof infer>, id: string) => e.terms.find((t) => t.id === id)?.bytes;

describe('inference logits per path (b = 1, s = 8192, V = 151936, bf16)', () => {
  it('remote-code (Qwen-1 QWenLMHeadModel.forward: lm_head over every prompt position, no upcast): b·s·V·2', () => {
    const e = infer({});
    expect(termOf(e, 'logits')).toBe(8192 * 151936 * 2); // 2,489,319,424 B = 2.32 GiB
    // beside them ln_f's output, still bound to the forward's `hidden_states`: s·h·2
    expect(termOf(e, 'activations')).toBe(8192 * 151936 * 2 + 8192 * 4096 * 2);
  });
  it('current (generate passes logits_to_keep = 1; _sample copies the row to fp32): b·V·(2 + 4)', () => {
    expect(termOf(infer({ logitsPath: 'current' }), 'logits')).toBe(151936 * 6);
  });
  it('upcast-in-model (logits.float() in forward, no num_logits_to_keep): b·s·V·(2 + 4)', () => {
    expect(termOf(infer({ logitsPath: 'upcast-in-model' }), 'logits')).toBe(8192 * 151936 * 6);
  });
  it('remote-code prefill peak exceeds current by the prompt logits less the MLP transient they replace as the largest', () => {
    // QWenBlock's MLP moment: five s·h rows (the embeddings, the block's input, attn_output, the
    // residual sum, ln_2's output) and QWenMLP's a1, a2, silu(a2) and their product (4·s·f)
    const mlp = 5 * 8192 * 4096 * 2 + 4 * 8192 * 11008 * 2; // 1,056,964,608
    expect(termOf(infer({ logitsPath: 'current' }), 'activations')).toBe(mlp);
    // the prompt pass alone (gen 0): with decoding, Qwen-1's old and new cache tuples make the peak
    expect(infer({ gen: 0 }).allocatedBytes - infer({ gen: 0, logitsPath: 'current' }).allocatedBytes).toBe(8192 * 151936 * 2 + 8192 * 4096 * 2 - mlp);
  });
  it("torchtune at inference is estimated as HF generate's current path", () => {
    expect(inferenceLogits('torchtune', 8192, 2)).toEqual(inferenceLogits('current', 8192, 2));
    expect(termOf(infer({ logitsPath: 'torchtune' }), 'logits')).toBe(151936 * 6);
  });
});

describe('auto: remote-code when the config names its own AutoModelForCausalLM class', () => {
  const cfg = {
    architectures: ['QWenLMHeadModel'],
    model_type: 'qwen',
    auto_map: { AutoConfig: 'configuration_qwen.QWenConfig', AutoModelForCausalLM: 'modeling_qwen.QWenLMHeadModel' },
    hidden_size: 4096,
    num_hidden_layers: 32,
    num_attention_heads: 32,
    kv_channels: 128,
    intermediate_size: 22016,
    vocab_size: 151936,
  };
  it('parseHfConfig sets remoteCode from auto_map; a native config has none', () => {
    const q = parseHfConfig(cfg);
    expect(q.ok && q.value.remoteCode).toBe(true);
    const { auto_map: _, ...native } = cfg;
    const n = parseHfConfig(native);
    expect(n.ok && n.value.remoteCode).toBe(undefined);
  });
  it('resolves per model; an explicit value wins', () => {
    const q = parseHfConfig(cfg);
    if (!q.ok) throw new Error('parse');
    expect(resolveLogitsPath('auto', q.value)).toBe('remote-code');
    expect(resolveLogitsPath('auto', { ...q.value, remoteCode: undefined })).toBe('current');
    expect(resolveLogitsPath('upcast-in-model', q.value)).toBe('upcast-in-model');
  });
  it("InternLM2's file upcasts with logits.float() (InternLM2ForCausalLM.forward): auto takes upcast-in-model; an explicit path stays", () => {
    const internlm2 = { ...(QWEN1_7B as ModelArch), family: 'internlm2', remoteCode: true };
    expect(resolveLogitsPath('auto', internlm2)).toBe('upcast-in-model');
    expect(resolveLogitsPath('remote-code', internlm2)).toBe('remote-code');
  });
});

describe('remote-code architecture key (a pasted config.json keeps it in the link)', () => {
  it('remote-code=true on a preset takes the remote-code path under auto: b·s·V·2 at s = 4096, V = 32000', () => {
    const r = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', prompt: '4096', 'remote-code': 'true' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.arch?.remoteCode).toBe(true);
    const e = estimate(r.scenario);
    if (!e.ok) throw new Error('estimate');
    expect(e.value.terms.find((t) => t.id === 'logits')?.bytes).toBe(4096 * 32000 * 2);
  });
});

describe("training: the logits term is the loss's largest moment", () => {
  const train = (p: Partial<Scenario>) => {
    const r = estimate({ ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', mode: 'training', method: 'lora', precision: 'amp-bf16', seq: 4096, batch: 1, ...p });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.value.terms.find((t) => t.id === 'logits')?.bytes;
  };
  const n = 4096 * 32000,
    n1 = 4095 * 32000;
  it('current: log-softmax backward, n·12 (the log-softmax output and two fp32 gradients; Trainer has dropped the logits)', () => {
    expect(train({})).toBe(n * 12);
  });
  it('remote-code under AMP: the forward, 2n + 10·n1 (logits, shift copy, its fp32 cast and log-softmax), tops the backward 12·n1', () => {
    expect(train({ logitsPath: 'remote-code' })).toBe(2 * n + 10 * n1);
  });
});

describe('logits-path rules', () => {
  const warns = (rec: Record<string, string>) => parseScenario(rec).warnings.map((w) => `${w.key}:${w.code}:${w.params?.with}`);
  it('a chunked loss replaces the path', () => {
    expect(warns({ mode: 'training', 'loss-chunks': '8', 'logits-path': 'remote-code' })).toEqual(['logits-path:unused-key:loss-chunks']);
    expect(warns({ mode: 'training', 'logits-path': 'remote-code' })).toEqual([]);
  });
  it('vLLM and llama.cpp compute their own logits; torchtune is training-only', () => {
    expect(warns({ engine: 'vllm', 'logits-path': 'current' })).toEqual(['logits-path:unused-key:engine']);
    expect(warns({ 'logits-path': 'torchtune' })).toEqual(['logits-path:unused-key:mode']);
    expect(warns({ 'logits-path': 'upcast-in-model' })).toEqual([]);
  });
});
