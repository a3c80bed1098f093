/**
 * config.json objects of the remote-code chat models, as their Hub repositories publish them (shape
 * fields; Qwen-7B: zhangningboo/Qwen-7B's mirror, ChatGLM3-6B: czk1997/chatglm3-copy, the others as
 * their configuration classes write them), shared by the parser, runtime and formula-walk tests.
 */
import { parseHfConfig } from '../../../src/core/model/config';
import type { ModelArch } from '../../../src/core/types';

export const QWEN_7B_CONFIG = {
  architectures: ['QWenLMHeadModel'],
  auto_map: { AutoConfig: 'configuration_qwen.QWenConfig', AutoModelForCausalLM: 'modeling_qwen.QWenLMHeadModel' },
  model_type: 'qwen',
  hidden_size: 4096,
  intermediate_size: 22016,
  kv_channels: 128,
  layer_norm_epsilon: 1e-6,
  max_position_embeddings: 8192,
  no_bias: true,
  num_attention_heads: 32,
  num_hidden_layers: 32,
  seq_length: 8192,
  tie_word_embeddings: false,
  use_flash_attn: 'auto',
  vocab_size: 151936,
};

export const CHATGLM3_6B_CONFIG = {
  model_type: 'chatglm',
  architectures: ['ChatGLMModel'],
  auto_map: { AutoConfig: 'configuration_chatglm.ChatGLMConfig', AutoModelForCausalLM: 'modeling_chatglm.ChatGLMForConditionalGeneration' },
  add_bias_linear: false,
  add_qkv_bias: true,
  ffn_hidden_size: 13696,
  hidden_size: 4096,
  kv_channels: 128,
  layernorm_epsilon: 1e-5,
  multi_query_attention: true,
  multi_query_group_num: 2,
  num_attention_heads: 32,
  num_layers: 28,
  padded_vocab_size: 65024,
  post_layer_norm: true,
  rmsnorm: true,
  seq_length: 8192,
  tie_word_embeddings: false,
};

/** THUDM/chatglm-6b (the first ChatGLM): no tie_word_embeddings key */
export const CHATGLM_6B_CONFIG = {
  model_type: 'chatglm',
  hidden_size: 4096,
  inner_hidden_size: 16384,
  num_layers: 28,
  num_attention_heads: 32,
  vocab_size: 130528,
  max_sequence_length: 2048,
  position_encoding_2d: true,
  layernorm_epsilon: 1e-5,
};

/** Baichuan2-13B: the ALiBi file's config class has no max_position_embeddings */
export const BAICHUAN2_13B_CONFIG = {
  architectures: ['BaichuanForCausalLM'],
  auto_map: { AutoConfig: 'configuration_baichuan.BaichuanConfig', AutoModelForCausalLM: 'modeling_baichuan.BaichuanForCausalLM' },
  model_type: 'baichuan',
  hidden_act: 'silu',
  hidden_size: 5120,
  intermediate_size: 13696,
  model_max_length: 4096,
  num_attention_heads: 40,
  num_hidden_layers: 40,
  rms_norm_eps: 1e-6,
  tie_word_embeddings: false,
  vocab_size: 125696,
};

/** internlm/internlm-chat-7b config.json (InternLMConfig: bias on q/k/v/o, multi-head; 7,321,948,160 parameters) */
export const INTERNLM_7B_CONFIG = {
  model_type: 'internlm',
  bias: true,
  hidden_size: 4096,
  intermediate_size: 11008,
  num_attention_heads: 32,
  num_hidden_layers: 32,
  rms_norm_eps: 1e-6,
  vocab_size: 103168,
  tie_word_embeddings: false,
};

export const INTERNLM2_7B_CONFIG = {
  model_type: 'internlm2',
  bias: false,
  hidden_size: 4096,
  intermediate_size: 14336,
  num_attention_heads: 32,
  num_key_value_heads: 8,
  num_hidden_layers: 32,
  rms_norm_eps: 1e-5,
  vocab_size: 92544,
  tie_word_embeddings: false,
};

/** The architecture parseHfConfig reads from a config (throws on a refused one: a test fixture). */
export function archOf(config: unknown): ModelArch {
  const r = parseHfConfig(config);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
