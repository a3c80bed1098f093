/**
 * Remote-code families (src/core/model/remote-families.ts): parameter counts worked out by hand
 * from each repository's modeling file, with the config.json values the Hub repositories publish.
 */
import { describe, expect, test } from 'vitest';
import { countParams } from '../../../src/core/model/params';
import { BAICHUAN2_13B_CONFIG, CHATGLM3_6B_CONFIG, CHATGLM_6B_CONFIG, INTERNLM_7B_CONFIG, QWEN_7B_CONFIG as QWEN_7B, archOf as ok } from './remote-configs';

const CHATGLM3_6B = CHATGLM3_6B_CONFIG;

describe('Qwen-1 (modeling_qwen.py)', () => {
  test('Qwen-7B: w1 / w2 are intermediate_size // 2 wide, c_attn has a bias, 7,721,324,544 parameters', () => {
    const a = ok(QWEN_7B);
    expect(a).toMatchObject({ family: 'qwen', ffn: 11008, kvHeads: 32, headDim: 128, gatedMlp: true, norm: 'rmsnorm' });
    expect(a).toMatchObject({ qkvBias: true, oBias: false, mlpBias: false, tiedEmbeddings: false, remoteCode: true });
    // per layer: c_attn 4096·12288 + 12288 bias = 50,343,936; c_proj 4096² = 16,777,216;
    // w1, w2, c_proj 3·4096·11008 = 135,266,304; ln_1, ln_2 8,192 → 202,395,648 × 32 = 6,476,660,736.
    // wte + lm_head 2·151936·4096 = 1,244,659,712; ln_f 4,096.
    expect(countParams(a).total).toBe(7_721_324_544);
  });

  test('Qwen-14B: 40 layers of 5120, intermediate_size 27392, vocabulary 152064', () => {
    const a = ok({ ...QWEN_7B, hidden_size: 5120, intermediate_size: 27392, num_attention_heads: 40, num_hidden_layers: 40, vocab_size: 152064 });
    // per layer: 5120·15360 + 15360 + 5120² + 3·5120·13696 + 2·5120 = 78,658,560 + 26,214,400 + 210,370,560 + 10,240
    // = 315,253,760 × 40 = 12,610,150,400; embeddings 2·152064·5120 = 1,557,135,360; ln_f 5,120
    expect(countParams(a).total).toBe(14_167_290_880);
  });

  test("the first release's config (n_embd, n_layer, ffn_hidden_size) gives the same model", () => {
    // Qwen/Qwen-7B-Chat config.json of Aug 2023 (transformers_version 4.31.0)
    const first = {
      architectures: ['QWenLMHeadModel'],
      auto_map: QWEN_7B.auto_map,
      ffn_hidden_size: 22016,
      kv_channels: 128,
      layer_norm_epsilon: 1e-5,
      model_type: 'qwen',
      n_embd: 4096,
      n_head: 32,
      n_layer: 32,
      n_positions: 6144,
      no_bias: true,
      padded_vocab_size: 151936,
      seq_length: 2048,
      tie_word_embeddings: false,
      vocab_size: 151936,
    };
    expect(countParams(ok(first)).total).toBe(7_721_324_544);
  });

  test('a config without model_type is told by its QWenLMHeadModel class', () => {
    const { model_type: _, ...rest } = QWEN_7B;
    expect(ok(rest).family).toBe('qwen');
  });

  test('no_bias false gives c_proj and the MLP their biases', () => {
    const a = ok({ ...QWEN_7B, no_bias: false });
    expect(a).toMatchObject({ qkvBias: true, oBias: true, mlpBias: true });
  });
});

describe('ChatGLM (modeling_chatglm.py)', () => {
  test('ChatGLM3-6B: SwiGLU dense_h_to_4h of 2·13696, two K/V groups, qkv bias only: 6,243,584,000', () => {
    const a = ok(CHATGLM3_6B);
    expect(a).toMatchObject({ family: 'chatglm', kvHeads: 2, headDim: 128, ffn: 13696, vocab: 65024, gatedMlp: true, norm: 'rmsnorm' });
    expect(a).toMatchObject({ qkvBias: true, oBias: false, mlpBias: false, tiedEmbeddings: false });
    // per layer: query_key_value 4096·(4096 + 2·2·128) = 18,874,368 + 4,608 bias; dense 16,777,216;
    // dense_h_to_4h 4096·27392 = 112,197,632; dense_4h_to_h 56,098,816; two RMSNorms 8,192
    // = 203,960,832 × 28 = 5,710,903,296; embedding + output_layer 2·65024·4096 = 532,676,608; final norm 4,096
    expect(countParams(a).total).toBe(6_243_584_000);
  });

  test('multi_query_attention false keeps every head for K and V', () => {
    expect(ok({ ...CHATGLM3_6B, multi_query_attention: false }).kvHeads).toBe(32);
  });

  test('padded_vocab_size sizes the embedding even where vocab_size is also given', () => {
    expect(ok({ ...CHATGLM3_6B, vocab_size: 64794 }).vocab).toBe(65024);
  });
});

describe('Baichuan and InternLM', () => {
  test('Baichuan2-13B: W_pack fused q/k/v without bias, Llama MLP: 13,896,668,160', () => {
    const a = ok(BAICHUAN2_13B_CONFIG);
    expect(a).toMatchObject({ qkvBias: false, oBias: false, mlpBias: false, gatedMlp: true, maxContext: 4096 });
    // the 13B config class has no max_position_embeddings (ALiBi); Baichuan 2's 125,696-token vocabulary: NormHead
    expect(a.alibi).toBe(true);
    expect(a.normHead).toBe(true);
    // per layer: W_pack 5120·15360 = 78,643,200; o_proj 26,214,400; MLP 3·5120·13696 = 210,370,560;
    // norms 10,240 → 315,238,400 × 40 = 12,609,536,000; embeddings 2·125696·5120 = 1,287,127,040; norm 5,120
    expect(countParams(a).total).toBe(13_896_668_160);
  });

  test("Baichuan2-7B's config (rotary: max_position_embeddings; Baichuan2: z_loss_weight) has no ALiBi and a NormHead", () => {
    const { architectures: _, auto_map: __, ...fields } = BAICHUAN2_13B_CONFIG;
    const a = ok({ ...fields, hidden_size: 4096, intermediate_size: 11008, max_position_embeddings: 4096, num_attention_heads: 32, num_hidden_layers: 32, z_loss_weight: 0 });
    expect(a.alibi).toBeUndefined();
    expect(a.normHead).toBe(true);
  });

  test('Baichuan-13B (the first, 64,000 tokens) has ALiBi and a plain lm_head', () => {
    const a = ok({ ...BAICHUAN2_13B_CONFIG, vocab_size: 64000 });
    expect(a.alibi).toBe(true);
    expect(a.normHead).toBeUndefined();
  });

  test('ChatGLM-6B (the first): GELU GLM block, every bias, lm_head tied by default: 6,173,286,400', () => {
    // THUDM/chatglm-6b config.json shape fields; no tie_word_embeddings key
    const a = ok(CHATGLM_6B_CONFIG);
    expect(a).toMatchObject({ gatedMlp: false, norm: 'layernorm', qkvBias: true, oBias: true, mlpBias: true, tiedEmbeddings: true, ffn: 16384 });
    // per layer: qkv 4096·12288 + 12288; dense 4096² + 4096; MLP 2·4096·16384 + 16384 + 4096; two LayerNorms 4·4096
    // = 201,379,840 × 28 = 5,638,635,520; word_embeddings 130528·4096 = 534,642,688; final LayerNorm 8,192
    expect(countParams(a).total).toBe(6_173_286_400);
  });

  test('InternLM-7B: bias on q/k/v/o (config bias), none on the MLP: 7,321,948,160', () => {
    const a = ok(INTERNLM_7B_CONFIG);
    expect(a).toMatchObject({ qkvBias: true, oBias: true, mlpBias: false });
    // per layer: 4·4096² + 4·4096 bias = 67,125,248; MLP 135,266,304; norms 8,192 → 202,399,744 × 32
    // = 6,476,791,808; embeddings 2·103168·4096 = 845,152,256; norm 4,096
    expect(countParams(a).total).toBe(7_321_948_160);
  });
});
