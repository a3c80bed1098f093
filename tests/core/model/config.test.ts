import { describe, expect, test } from 'vitest';
import { parseHfConfig } from '../../../src/core/model/config';
import { countParams } from '../../../src/core/model/params';
import type { ModelArch } from '../../../src/core/types';

function ok(json: unknown): ModelArch {
  const r = parseHfConfig(json);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

function errors(json: unknown) {
  const r = parseHfConfig(json);
  if (r.ok) throw new Error('expected errors');
  return r.errors;
}

const LLAMA = {
  model_type: 'llama',
  hidden_size: 4096,
  intermediate_size: 11008,
  num_hidden_layers: 32,
  num_attention_heads: 32,
  vocab_size: 32000,
  rms_norm_eps: 1e-5,
};

describe('field spellings', () => {
  test('GPT-2 spells n_embd / n_layer / n_head, n_inner null = 4h, learned positions, tied', () => {
    const a = ok({ model_type: 'gpt2', n_embd: 768, n_layer: 12, n_head: 12, n_inner: null, n_positions: 1024, vocab_size: 50257 });
    expect(a).toMatchObject({ hidden: 768, layers: 12, heads: 12, kvHeads: 12, headDim: 64, ffn: 3072, positionEmbeddings: 1024 });
    expect(a).toMatchObject({ gatedMlp: false, norm: 'layernorm', tiedEmbeddings: true, qkvBias: true, oBias: true, mlpBias: true });
  });

  test('missing num_key_value_heads means MHA; head_dim defaults to h/a', () => {
    expect(ok(LLAMA)).toMatchObject({ kvHeads: 32, headDim: 128, gatedMlp: true, norm: 'rmsnorm', tiedEmbeddings: false });
  });

  test('explicit head_dim wins over h/a (Qwen3-32B: 5120/64 = 80 but head_dim 128)', () => {
    expect(ok({ ...LLAMA, model_type: 'qwen3', hidden_size: 5120, num_attention_heads: 64, head_dim: 128 }).headDim).toBe(128);
  });

  test('Falcon-7B multi_query means one KV head; one LayerNorm per layer (parallel attention)', () => {
    const a = ok({ model_type: 'falcon', hidden_size: 4544, num_hidden_layers: 32, num_attention_heads: 71, multi_query: true, vocab_size: 65024 });
    expect(a).toMatchObject({ kvHeads: 1, headDim: 64, ffn: 4 * 4544, normsPerLayer: 1, tiedEmbeddings: true });
  });

  test('T5 spells d_model / d_ff / d_kv / num_heads; encoder-decoder with relative bias buckets', () => {
    const a = ok({ model_type: 't5', d_model: 768, d_ff: 3072, d_kv: 64, num_heads: 12, num_layers: 12, vocab_size: 32128, feed_forward_proj: 'relu' });
    expect(a).toMatchObject({ hidden: 768, ffn: 3072, headDim: 64, gatedMlp: false, encoderDecoder: { decoderLayers: 12 }, relPosBuckets: 32 });
  });

  test('a JSON string is accepted', () => {
    expect(ok(JSON.stringify(LLAMA)).hidden).toBe(4096);
  });

  test('multimodal text_config is unwrapped; top-level tie_word_embeddings applies', () => {
    const a = ok({ model_type: 'llava', tie_word_embeddings: true, vision_config: { hidden_size: 1024 }, text_config: LLAMA });
    expect(a).toMatchObject({ family: 'llama', hidden: 4096, tiedEmbeddings: true });
  });

  test('family given only by architectures[0]', () => {
    expect(ok({ ...LLAMA, model_type: undefined, architectures: ['Qwen2ForCausalLM'] }).qkvBias).toBe(true);
  });
});

describe('family defaults', () => {
  test('Qwen2: q/k/v bias, no o bias (modeling_qwen2.py), even without attention_bias', () => {
    expect(ok({ ...LLAMA, model_type: 'qwen2' })).toMatchObject({ qkvBias: true, oBias: false, mlpBias: false });
  });

  test('attention_bias: true biases q, k, v and o (Llama)', () => {
    expect(ok({ ...LLAMA, attention_bias: true })).toMatchObject({ qkvBias: true, oBias: true });
  });

  test('Gemma-2 ties embeddings by default and has 4 norms per layer; Qwen3 has q/k norms', () => {
    expect(ok({ ...LLAMA, model_type: 'gemma2' })).toMatchObject({ tiedEmbeddings: true, normsPerLayer: 4 });
    expect(ok({ ...LLAMA, model_type: 'qwen3' }).qkNorm).toBe(true);
  });

  test('unknown family: gelu means plain MLP, silu gated; layer_norm_eps means LayerNorm', () => {
    expect(ok({ ...LLAMA, model_type: 'x', hidden_act: 'gelu', rms_norm_eps: undefined, layer_norm_eps: 1e-5 })).toMatchObject({ gatedMlp: false, norm: 'layernorm' });
    expect(ok({ ...LLAMA, model_type: 'x', hidden_act: 'silu' }).gatedMlp).toBe(true);
  });

  test('BERT: positions + token types + pooler, no LM head', () => {
    const a = ok({
      model_type: 'bert',
      hidden_size: 768,
      intermediate_size: 3072,
      num_hidden_layers: 12,
      num_attention_heads: 12,
      vocab_size: 30522,
      max_position_embeddings: 512,
      type_vocab_size: 2,
    });
    expect(a).toMatchObject({ positionEmbeddings: 512, typeVocab: 2, pooler: true });
    expect(countParams(a).lmHead).toBe(0);
  });
});

describe('MoE, MLA and sliding window', () => {
  test('Mixtral: num_local_experts, experts sized by intermediate_size', () => {
    const a = ok({ ...LLAMA, model_type: 'mixtral', intermediate_size: 14336, num_local_experts: 8, num_experts_per_tok: 2 });
    expect(a.moe).toMatchObject({ experts: 8, expertsPerToken: 2, expertFfn: 14336, sharedExperts: 0, denseLayers: 0, layerFreq: 1 });
  });

  test('Qwen2-MoE: shared expert of shared_expert_intermediate_size with its sigmoid gate', () => {
    const a = ok({ ...LLAMA, model_type: 'qwen2_moe', num_experts: 60, num_experts_per_tok: 4, moe_intermediate_size: 1408, shared_expert_intermediate_size: 5632, decoder_sparse_step: 1 });
    expect(a.moe).toMatchObject({ experts: 60, expertFfn: 1408, sharedExperts: 1, sharedFfn: 5632, sharedExpertGate: true });
  });

  test('DeepSeek-V3: first_k_dense_replace, shared experts, router bias, MLA ranks', () => {
    const a = ok({
      ...LLAMA,
      model_type: 'deepseek_v3',
      n_routed_experts: 256,
      n_shared_experts: 1,
      num_experts_per_tok: 8,
      moe_intermediate_size: 2048,
      first_k_dense_replace: 3,
      moe_layer_freq: 1,
      q_lora_rank: 1536,
      kv_lora_rank: 512,
      qk_nope_head_dim: 128,
      qk_rope_head_dim: 64,
      v_head_dim: 128,
    });
    expect(a.moe).toMatchObject({ experts: 256, sharedExperts: 1, sharedFfn: 2048, denseLayers: 3, routerBias: true });
    expect(a.mla).toEqual({ qLoraRank: 1536, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 });
  });

  test('sliding-window layer counts: Mistral all, Gemma-2 even layers, Gemma-3 5 of 6, Qwen2 off unless enabled', () => {
    expect(ok({ ...LLAMA, model_type: 'mistral', sliding_window: 4096 }).slidingWindow).toEqual({ window: 4096, layers: 32 });
    expect(ok({ ...LLAMA, model_type: 'gemma2', num_hidden_layers: 42, sliding_window: 4096 }).slidingWindow).toEqual({ window: 4096, layers: 21 });
    expect(ok({ ...LLAMA, model_type: 'gemma3_text', num_hidden_layers: 26, sliding_window: 512, sliding_window_pattern: 6 }).slidingWindow).toEqual({ window: 512, layers: 22 });
    expect(ok({ ...LLAMA, model_type: 'qwen2', sliding_window: 32768, use_sliding_window: false }).slidingWindow).toBeUndefined();
    expect(ok({ ...LLAMA, model_type: 'qwen2', sliding_window: 4096, use_sliding_window: true, max_window_layers: 28 }).slidingWindow).toEqual({ window: 4096, layers: 4 });
    const types = Array.from({ length: 32 }, (_, i) => (i % 4 === 3 ? 'full_attention' : 'sliding_attention'));
    expect(ok({ ...LLAMA, sliding_window: 128, layer_types: types }).slidingWindow).toEqual({ window: 128, layers: 24 });
  });
});

describe('errors name the config field', () => {
  test('negative hidden_size', () => {
    expect(errors({ ...LLAMA, hidden_size: -3 })).toEqual([expect.objectContaining({ key: 'hidden_size', message: 'hidden_size: expected a positive integer, got -3' })]);
  });

  test('missing hidden size lists its spellings', () => {
    const { hidden_size: _h, ...rest } = LLAMA;
    expect(errors(rest)[0]).toMatchObject({ key: 'hidden_size', code: 'missing', message: 'missing hidden_size (or n_embd / d_model)' });
  });

  test('not an object / not JSON', () => {
    for (const bad of [null, 42, [1, 2], 'true', undefined]) {
      expect(errors(bad)[0]).toMatchObject({ key: 'config', message: 'config: not a JSON object' });
    }
    expect(errors('{"hidden_size": ')[0]).toMatchObject({ key: 'config', code: 'invalid-json' });
  });

  test('the key reported is the spelling the config used', () => {
    const { num_hidden_layers: _l, ...rest } = LLAMA;
    expect(errors({ ...rest, n_layer: 2.5 })[0]).toMatchObject({ key: 'n_layer', message: 'n_layer: expected a positive integer, got 2.5' });
  });

  test('more KV heads than heads, top-k above experts, dense layers above layers, non-boolean flag', () => {
    expect(errors({ ...LLAMA, num_key_value_heads: 64 })[0].key).toBe('num_key_value_heads');
    expect(errors({ ...LLAMA, num_local_experts: 8, num_experts_per_tok: 9 })[0].key).toBe('num_experts_per_tok');
    expect(errors({ ...LLAMA, n_routed_experts: 8, num_experts_per_tok: 2, first_k_dense_replace: 40 })[0].key).toBe('first_k_dense_replace');
    expect(errors({ ...LLAMA, tie_word_embeddings: 'yes' })[0]).toMatchObject({ key: 'tie_word_embeddings', code: 'not-boolean' });
  });

  test('head_dim needed when hidden is not divisible by heads', () => {
    expect(errors({ ...LLAMA, num_attention_heads: 30 })[0].key).toBe('head_dim');
  });

  test('vision tower fields are keyed under vision_config', () => {
    const bad = { model_type: 'gemma3', text_config: LLAMA, vision_config: { model_type: 'siglip_vision_model', hidden_size: -1 } };
    expect(errors(bad).map((e) => e.key)).toContain('vision_config.hidden_size');
  });

  test('every bad field is reported at once', () => {
    const keys = errors({ ...LLAMA, hidden_size: 0, vocab_size: 'big' })
      .map((e) => e.key)
      .sort();
    expect(keys).toEqual(['hidden_size', 'vocab_size']);
  });
});
