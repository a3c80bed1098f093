/**
 * Hybrid and linear-attention models: parameter counts by block kind from the configs' own layer
 * patterns, KV for attention layers only, and the recurrent state per sequence. Every expected
 * value is written out from the modeling files named in src/core/model/hybrid.ts.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { isModelArch } from '../../../src/core/model/arch-check';
import { parseHfConfig } from '../../../src/core/model/config';
import { countParams } from '../../../src/core/model/params';
import { HYBRID_PRESET_ROWS } from '../../../src/core/model/presets-hybrid';
import { defaultScenario } from '../../../src/core/scenario';
import { presetArch, runInference, termOf } from './hybrid-helpers';

const GiB = 2 ** 30;

const arch = presetArch;
const run = runInference;

describe('Jamba-v0.1 (modeling_jamba.py: JambaMambaMixer, JambaSparseMoeBlock, HybridMambaAttentionDynamicCache)', () => {
  // h=4096, L=32, a=32, g=8, d=128, f=14336, V=65536, E=16, k=2; Mamba-1 d_i=2·4096, N=16, k_conv=4, r=256
  const h = 4096;
  const di = 8192;
  const attn = h * h + 2 * h * 1024 + h * h; // q, k, v, o
  const mamba =
    h * 2 * di +
    di * 4 +
    di + // in_proj, conv1d weight + bias
    di * (256 + 2 * 16) +
    256 * di +
    di + // x_proj, dt_proj + bias
    di * 16 +
    di +
    di * h + // A_log, D, out_proj
    256 +
    2 * 16; // dt / b / c layernorms
  const mlp = 3 * h * 14336;
  const moe = 16 * mlp + h * 16; // experts + router
  // attention at i % 8 == 4 (4 layers), experts at i % 2 == 1 (16 layers); 2 RMSNorms per layer + final
  const total = 2 * 65536 * h + 4 * attn + 28 * mamba + 16 * mlp + 16 * moe + 32 * 2 * h + h;

  it('counts 51–52 B total and about 12 B active, not the 92 B of a Llama reading', () => {
    const c = countParams(arch('ai21labs/Jamba-v0.1'));
    expect(c.total).toBe(total);
    expect(c.active).toBe(total - 16 * 14 * mlp);
    expect(c.total / 1e9).toBeGreaterThan(51);
    expect(c.total / 1e9).toBeLessThan(52);
    expect(c.active / 1e9).toBeCloseTo(12.1, 1);
  });

  it('keeps KV for the 4 attention layers and a fixed state for the 28 Mamba layers (transformers, 8,192 tokens)', () => {
    const e = run({ model: 'ai21labs/Jamba-v0.1', engine: 'transformers', prompt: 8192 });
    const kv = 2 * 4 * 8 * 128 * 8192 * 2;
    // conv state (b, d_i, d_conv) and ssm state (b, d_i, N) in the model dtype
    const state = 28 * (di * 4 + di * 16) * 2;
    expect(termOf(e, 'kv-cache')).toBe(kv);
    expect(termOf(e, 'recurrent-state')).toBe(state);
    expect((kv + state) / GiB).toBeGreaterThan(0.1);
    expect((kv + state) / GiB).toBeLessThan(0.3);
  });

  it('the state does not grow with the prompt; the KV does', () => {
    const a = run({ model: 'ai21labs/Jamba-v0.1', engine: 'transformers', prompt: 1024 });
    const b = run({ model: 'ai21labs/Jamba-v0.1', engine: 'transformers', prompt: 8192 });
    expect(termOf(a, 'recurrent-state')).toBe(termOf(b, 'recurrent-state'));
    expect(termOf(b, 'kv-cache')).toBe(8 * termOf(a, 'kv-cache'));
  });
});

describe('Qwen3-Next-80B-A3B (modeling_qwen3_next.py: Qwen3NextGatedDeltaNet, Qwen3NextAttention)', () => {
  const h = 2048;
  // full attention every 4th layer: q_proj carries the output gate (2·a·d), q/k norms of d
  const attn = h * 2 * 16 * 256 + 2 * h * 2 * 256 + 16 * 256 * h + 2 * 256;
  // key_dim = 16·128, value_dim = 32·128: in_proj_qkvz, in_proj_ba, conv1d (no bias), dt_bias, A_log, norm, out_proj
  const gdn = h * (2 * 2048 + 2 * 4096) + h * 64 + (2 * 2048 + 4096) * 4 + 32 + 32 + 128 + 4096 * h;
  const expert = 3 * h * 512;
  const moe = 512 * expert + expert + h + h * 512; // routed, shared, shared-expert gate, router
  const total = 2 * 151936 * h + 12 * attn + 36 * gdn + 48 * moe + 48 * 2 * h + h;

  it('counts about 80 B total and 3.9 B active (3 B without the embeddings)', () => {
    const c = countParams(arch('Qwen/Qwen3-Next-80B-A3B-Instruct'));
    expect(c.total).toBe(total);
    expect(c.active).toBe(total - 48 * 502 * expert);
    expect(c.total / 1e9).toBeCloseTo(79.7, 1);
  });

  it('vLLM state: conv (k − 1) columns of 2·key_dim + value_dim, delta state H_v·d_k·d_v', () => {
    const e = run({ model: 'Qwen/Qwen3-Next-80B-A3B-Instruct', engine: 'vllm', prompt: 4096, batch: 4 });
    const perSeq = 36 * ((2 * 2048 + 4096) * 3 + 32 * 128 * 128) * 2;
    expect(termOf(e, 'recurrent-state')).toBe(4 * perSeq);
  });
});

describe('Nemotron-H-8B (hybrid_override_pattern; ssm state fp32 by NemotronHConfig.mamba_ssm_cache_dtype)', () => {
  const h = 4096;
  const conv = 8192 + 2 * 8 * 128; // d_i = 128 heads · 64, + 2·G·N
  const mamba = h * (8192 + conv + 128) + conv * 4 + conv + 3 * 128 + 8192 + 8192 * h;
  const mlp = 2 * h * 21504; // relu² up / down
  const attn = 2 * h * h + 2 * h * 1024;
  // 24 M, 24 -, 4 *; one RMSNorm per block + final
  const total = 2 * 131072 * h + 24 * mamba + 24 * mlp + 4 * attn + 52 * h + h;

  it('reads the attention head size from attention_head_dim', () => {
    const r = parseHfConfig({ ...HYBRID_PRESET_ROWS.find((x) => x.id === 'nvidia/Nemotron-H-8B-Base-8K')!.config, attention_head_dim: 64 });
    expect(r.ok && r.value.headDim).toBe(64);
  });

  it('counts about 8.1 B from the 52-character pattern', () => {
    expect(countParams(arch('nvidia/Nemotron-H-8B-Base-8K')).total).toBe(total);
    expect(total / 1e9).toBeCloseTo(8.1, 1);
  });

  it('vLLM: conv (k − 1)·conv_dim in bf16 and the 128·64·128 SSM state in fp32 per Mamba layer', () => {
    const e = run({ model: 'nvidia/Nemotron-H-8B-Base-8K', engine: 'vllm', prompt: 8192 });
    expect(termOf(e, 'recurrent-state')).toBe(24 * (conv * 3 * 2 + 128 * 64 * 128 * 4));
    expect(termOf(e, 'kv-cache')).toBeGreaterThan(0);
  });
});

describe('Bamba-9B (modeling_bamba.py BambaMixer; attn_layer_indices)', () => {
  it('counts about 9.78 B: 29 Mamba-2 layers, 3 attention layers, an MLP in each', () => {
    const h = 4096;
    const conv = 8192 + 2 * 128;
    const mamba = h * (8192 + conv + 128) + conv * 4 + conv + 3 * 128 + 8192 + 8192 * h;
    const attn = 2 * h * h + 2 * h * 1024;
    const total = 2 * 128256 * h + 29 * mamba + 3 * attn + 32 * 3 * h * 14336 + 32 * 2 * h + h;
    expect(countParams(arch('ibm-ai-platform/Bamba-9B')).total).toBe(total);
    expect(total / 1e9).toBeCloseTo(9.78, 2);
  });
});

describe('granitemoehybrid and falcon_h1 layer layouts', () => {
  const base = { hidden_size: 64, num_hidden_layers: 4, num_attention_heads: 4, num_key_value_heads: 2, vocab_size: 100, intermediate_size: 32, rms_norm_eps: 1e-6 };

  it('granite-4.0-h: layer_types picks the attention layers; a shared MLP of shared_intermediate_size in every layer, experts next to it', () => {
    const r = parseHfConfig({
      ...base,
      model_type: 'granitemoehybrid',
      layer_types: ['mamba', 'attention', 'mamba', 'mamba'],
      num_local_experts: 4,
      num_experts_per_tok: 2,
      shared_intermediate_size: 48,
      mamba_n_heads: 8,
      mamba_n_groups: 1,
      mamba_d_state: 16,
      mamba_d_conv: 4,
      mamba_expand: 2,
    });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const h = 64;
    const conv = 128 + 2 * 16;
    const mamba = h * (128 + conv + 8) + conv * 4 + conv + 3 * 8 + 128 + 128 * h;
    const attn = 2 * h * h + 2 * h * 32;
    const ffn = 4 * 3 * h * 32 + 3 * h * 48 + h * 4; // experts (f = intermediate_size), shared MLP, router
    expect(countParams(r.value).total).toBe(2 * 100 * h + 3 * mamba + attn + 4 * ffn + 4 * 2 * h + h);
  });

  it('Falcon-H1: attention and Mamba-2 side by side in every layer, so every layer keeps KV', () => {
    const r = parseHfConfig({ ...base, model_type: 'falcon_h1', mamba_d_ssm: 128, mamba_n_heads: 8, mamba_d_head: 16, mamba_n_groups: 1, mamba_d_state: 16, mamba_d_conv: 4 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value.hybrid?.blocks).toEqual([{ attn: true, ssm: true, ffn: 'dense', count: 4 }]);
    const h = 64;
    const conv = 128 + 2 * 16;
    // no mamba_rms_norm: no gated norm
    const mamba = h * (128 + conv + 8) + conv * 4 + conv + 3 * 8 + 128 * h;
    const attn = 2 * h * h + 2 * h * 32;
    expect(countParams(r.value).total).toBe(2 * 100 * h + 4 * (mamba + attn + 3 * h * 32 + 2 * h) + h);
  });
});

describe('families the core does not model', () => {
  it('refuses recurrent-only families by name instead of reading them as a Llama', () => {
    for (const model_type of ['zamba', 'rwkv6', 'mamba']) {
      const r = parseHfConfig({ model_type, hidden_size: 2560, num_hidden_layers: 54, num_attention_heads: 32, vocab_size: 32000 });
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.errors[0].code).toBe('unmodelled-family');
        expect(r.errors[0].message).toContain(model_type);
      }
    }
  });

  it('an unknown model_type is estimated with a note naming it', () => {
    const r = parseHfConfig({ model_type: 'brandnew', hidden_size: 4096, num_hidden_layers: 32, num_attention_heads: 32, intermediate_size: 11008, vocab_size: 32000 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const e = run({ model: 'custom', arch: r.value, prompt: 512 });
    const note = e.notes.find((n) => n.code === 'model.unknown-family');
    expect(note?.params?.family).toBe('brandnew');
    expect(run({ model: 'meta-llama/Llama-2-7b-hf', prompt: 512 }).notes.some((n) => n.code === 'model.unknown-family')).toBe(false);
  });

  it('llama.cpp and a changed layer count are refused for hybrids with a message', () => {
    const cpp = estimate({ ...defaultScenario(), mode: 'inference', model: 'ai21labs/Jamba-v0.1', engine: 'llama.cpp', weights: 'gguf-q4_k_m', kv: 'fp16' });
    expect(cpp.ok ? [] : cpp.errors.map((x) => x.code)).toContain('llamacpp-hybrid');
    const layers = estimate({ ...defaultScenario(), mode: 'inference', model: 'ai21labs/Jamba-v0.1', arch: { layers: 16 } });
    expect(layers.ok ? [] : layers.errors.map((x) => x.code)).toContain('hybrid-layers');
  });
});

describe('training a hybrid', () => {
  it('says the mixer layers are counted as transformer layers; a Llama gets no such note', () => {
    const t = (model: string) => estimate({ ...defaultScenario(), mode: 'training', model, method: 'lora', weights: 'bf16', precision: 'bf16', seq: 512 });
    const hy = t('ibm-ai-platform/Bamba-9B');
    const ll = t('meta-llama/Llama-2-7b-hf');
    expect(hy.ok && hy.value.notes.some((n) => n.code === 'training.hybrid-activations')).toBe(true);
    expect(ll.ok && ll.value.notes.some((n) => n.code === 'training.hybrid-activations')).toBe(false);
  });
});

describe('saved hybrid architectures', () => {
  it('every hybrid preset is a valid ModelArch; a block list that does not sum to the layers is not', () => {
    for (const row of HYBRID_PRESET_ROWS) expect(isModelArch(arch(row.id))).toBe(true);
    const a = arch('ai21labs/Jamba-v0.1');
    expect(isModelArch({ ...a, hybrid: { ...a.hybrid, blocks: [{ attn: true, ssm: false, ffn: 'dense', count: 3 }] } })).toBe(false);
    const z = arch('Zyphra/Zamba2-2.7B');
    expect(isModelArch({ ...z, hybrid: { ...z.hybrid, shared: { blocks: 0, adapterRank: 128, attnAdapter: false } } })).toBe(false);
    const r = arch('fla-hub/rwkv7-2.9B-world');
    expect(isModelArch({ ...r, hybrid: { ...r.hybrid, lowRank: { w: 96, a: 96, v: Number.NaN, g: 320 } } })).toBe(false);
  });
});

describe('Nemotron-H layer pattern: only the kinds _pattern_to_list knows', () => {
  const base = { model_type: 'nemotron_h', hidden_size: 64, num_hidden_layers: 4, num_attention_heads: 4, num_key_value_heads: 2, vocab_size: 100, intermediate_size: 32 };

  it.each(['constructor', 'toString', '__proto__'])('a layer kind named %j (an Object prototype key) is refused by name', (kind) => {
    const r = parseHfConfig({ ...base, layers_block_type: ['mamba', kind, 'mlp', 'attention'] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toContainEqual(expect.objectContaining({ key: 'hybrid_override_pattern', code: 'invalid-layer', message: expect.stringContaining(`unknown layer kind ${JSON.stringify(kind)}`) }));
  });
});
