/**
 * Hybrid and linear-attention presets, hand-kept beside data/models.json: config.json fields of the
 * published checkpoints that the parameter count and the cache read. Headline counts from the model
 * cards; tests/core/model/hybrid.test.ts checks each against a hand count. Input of
 * tools/gen-presets.mjs, which parses them into presets-data.ts with the catalogue's rows.
 */

/** A preset as its config.json gives it. */
export interface ConfigRow {
  id: string;
  name: string;
  stated: string;
  publishedParams: number | null;
  config: Record<string, unknown>;
}

export const HYBRID_PRESET_ROWS: ConfigRow[] = [
  {
    // JambaConfig's defaults are this checkpoint's config (configuration_jamba.py docstring)
    id: 'ai21labs/Jamba-v0.1',
    name: 'Jamba v0.1 (52B, 12B active)',
    stated: '52B total, 12B active',
    publishedParams: null,
    config: {
      model_type: 'jamba',
      hidden_size: 4096,
      intermediate_size: 14336,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      vocab_size: 65536,
      max_position_embeddings: 262144,
      rms_norm_eps: 1e-6,
      tie_word_embeddings: false,
      attn_layer_offset: 4,
      attn_layer_period: 8,
      expert_layer_offset: 1,
      expert_layer_period: 2,
      num_experts: 16,
      num_experts_per_tok: 2,
      mamba_d_conv: 4,
      mamba_d_state: 16,
      mamba_dt_rank: 256,
      mamba_expand: 2,
      mamba_conv_bias: true,
      mamba_proj_bias: false,
    },
  },
  {
    id: 'ibm-ai-platform/Bamba-9B',
    name: 'Bamba 9B',
    stated: '9B',
    publishedParams: null,
    config: {
      model_type: 'bamba',
      hidden_size: 4096,
      intermediate_size: 14336,
      num_hidden_layers: 32,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      vocab_size: 128256,
      max_position_embeddings: 262144,
      rms_norm_eps: 1e-5,
      tie_word_embeddings: false,
      attn_layer_indices: [9, 18, 27],
      mamba_n_heads: 128,
      mamba_d_head: 64,
      mamba_n_groups: 1,
      mamba_d_state: 128,
      mamba_d_conv: 4,
      mamba_expand: 2,
      mamba_conv_bias: true,
      mamba_proj_bias: false,
    },
  },
  {
    id: 'nvidia/Nemotron-H-8B-Base-8K',
    name: 'Nemotron-H 8B',
    stated: '8B',
    publishedParams: null,
    config: {
      model_type: 'nemotron_h',
      hidden_size: 4096,
      intermediate_size: 21504,
      num_hidden_layers: 52,
      num_attention_heads: 32,
      num_key_value_heads: 8,
      attention_head_dim: 128,
      vocab_size: 131072,
      max_position_embeddings: 8192,
      rms_norm_eps: 1e-5,
      tie_word_embeddings: false,
      mlp_hidden_act: 'relu2',
      mlp_bias: false,
      use_bias: false,
      hybrid_override_pattern: 'M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M*-M-M-M-M-M-',
      mamba_num_heads: 128,
      mamba_head_dim: 64,
      n_groups: 8,
      ssm_state_size: 128,
      conv_kernel: 4,
      expand: 2,
      use_conv_bias: true,
      mamba_proj_bias: false,
      auto_map: { AutoConfig: 'configuration_nemotron_h.NemotronHConfig', AutoModelForCausalLM: 'modeling_nemotron_h.NemotronHForCausalLM' },
    },
  },
  {
    id: 'Qwen/Qwen3-Next-80B-A3B-Instruct',
    name: 'Qwen3-Next 80B-A3B',
    stated: '80B total, 3B active',
    publishedParams: null,
    config: {
      model_type: 'qwen3_next',
      hidden_size: 2048,
      intermediate_size: 5120,
      num_hidden_layers: 48,
      num_attention_heads: 16,
      num_key_value_heads: 2,
      head_dim: 256,
      vocab_size: 151936,
      max_position_embeddings: 262144,
      rms_norm_eps: 1e-6,
      tie_word_embeddings: false,
      full_attention_interval: 4,
      decoder_sparse_step: 1,
      mlp_only_layers: [],
      num_experts: 512,
      num_experts_per_tok: 10,
      moe_intermediate_size: 512,
      shared_expert_intermediate_size: 512,
      linear_conv_kernel_dim: 4,
      linear_key_head_dim: 128,
      linear_value_head_dim: 128,
      linear_num_key_heads: 16,
      linear_num_value_heads: 32,
    },
  },
];
