/**
 * The optional parts of parseHfConfig: Mixture of Experts, DeepSeek MLA and sliding-window
 * attention. Field meanings: docs/reference/formulas.md §1.2 (MoE), §1.3 (MLA); HF transformers
 * `configuration_{mixtral,qwen2_moe,qwen3_moe,deepseek_v3,qwen2,gemma2,gemma3}.py`.
 */
import type { ModelArch } from '../types';
import type { FieldReader } from './fields';

type Moe = NonNullable<ModelArch['moe']>;
type Mla = NonNullable<ModelArch['mla']>;
type Sliding = NonNullable<ModelArch['slidingWindow']>;

const EXPERTS = ['num_local_experts', 'n_routed_experts', 'num_experts'] as const;
const TOP_K = ['num_experts_per_tok', 'num_experts_per_token', 'moe_top_k'] as const;

/**
 * MoE block. Mixtral: `num_local_experts`, experts sized by `intermediate_size`.
 * Qwen2/3-MoE: `num_experts`, `moe_intermediate_size`, `decoder_sparse_step`, `mlp_only_layers`
 * (Qwen2-MoE adds one shared expert of `shared_expert_intermediate_size` with a sigmoid gate).
 * DeepSeek-V2/V3: `n_routed_experts`, `n_shared_experts` (each `moe_intermediate_size` wide),
 * `first_k_dense_replace`, `moe_layer_freq`; V3 adds `e_score_correction_bias`.
 */
export function parseMoe(r: FieldReader, family: string, arch: ModelArch): Moe | undefined {
  const experts = r.optInt(EXPERTS, 0) ?? 0;
  if (experts === 0) return undefined;
  const k = r.int(TOP_K) ?? 1;
  if (k > experts) {
    r.fail(r.pick(TOP_K) ?? TOP_K[0], 'topk-exceeds-experts', `must not exceed the ${experts} experts, got ${k}`);
  }
  const expertFfn = r.int(['moe_intermediate_size'], arch.ffn) ?? arch.ffn;
  const qwenShared = r.optInt(['shared_expert_intermediate_size'], 0) ?? 0;
  const sharedExperts = r.optInt(['n_shared_experts'], 0) ?? (qwenShared > 0 ? 1 : 0);
  const sharedFfn = qwenShared > 0 ? qwenShared : expertFfn;
  const mlpOnly = r.cfg.mlp_only_layers;
  const denseKey = 'first_k_dense_replace';
  // mlp_only_layers lists dense layers by index; only their number matters for counts.
  const dense = r.optInt([denseKey], 0) ?? (Array.isArray(mlpOnly) ? new Set(mlpOnly).size : 0);
  if (dense > arch.layers) {
    r.fail(r.pick([denseKey]) ?? 'mlp_only_layers', 'dense-exceeds-layers', `must not exceed the ${arch.layers} layers, got ${dense}`);
  }
  const moe: Moe = {
    experts,
    expertsPerToken: Math.min(k, experts),
    expertFfn,
    sharedExperts,
    sharedFfn,
    denseLayers: Math.min(dense, arch.layers),
    layerFreq: r.int(['moe_layer_freq', 'decoder_sparse_step'], 1) ?? 1,
  };
  if (family === 'deepseek_v3' || r.str('topk_method') === 'noaux_tc') moe.routerBias = true;
  if ((family === 'qwen2_moe' || family === 'qwen3_next') && sharedExperts > 0) moe.sharedExpertGate = true;
  return moe;
}

/** DeepSeek Multi-head Latent Attention (docs/reference/formulas.md §1.3); present when `kv_lora_rank` is set. */
export function parseMla(r: FieldReader): Mla | undefined {
  if (r.pick(['kv_lora_rank']) === undefined) return undefined;
  const kvLoraRank = r.int(['kv_lora_rank']) ?? 1;
  const qLoraRank = r.pick(['q_lora_rank']) === undefined ? null : (r.int(['q_lora_rank']) ?? null);
  return {
    qLoraRank,
    kvLoraRank,
    qkNopeHeadDim: r.int(['qk_nope_head_dim'], undefined, 0) ?? 0,
    qkRopeHeadDim: r.int(['qk_rope_head_dim'], undefined, 0) ?? 0,
    vHeadDim: r.int(['v_head_dim']) ?? 1,
  };
}

/**
 * How many of the L layers use a sliding window:
 * - `layer_types` (newer HF configs): the number of 'sliding_attention' entries;
 * - Gemma-2: even layers slide (`is_sliding = not bool(layer_idx % 2)`), so ⌈L/2⌉;
 * - Gemma-3: every `sliding_window_pattern`-th layer (default 6) is global, so L − ⌊L/p⌋;
 * - Qwen2/3: only with `use_sliding_window: true`, layers i ≥ `max_window_layers`;
 * - otherwise (Mistral, Phi-3): all layers, unless `use_sliding_window` is false.
 */
export function parseSlidingWindow(r: FieldReader, family: string, layers: number): Sliding | undefined {
  const window = r.optInt(['sliding_window']);
  if (window === undefined || r.cfg.use_sliding_window === false) return undefined;
  const types = r.cfg.layer_types;
  let n = layers;
  if (Array.isArray(types)) {
    n = types.filter((x) => x === 'sliding_attention').length;
  } else if (family === 'gemma2') {
    n = Math.ceil(layers / 2);
  } else if (family.startsWith('gemma3')) {
    const p = r.int(['sliding_window_pattern'], 6) ?? 6;
    n = layers - Math.floor(layers / p);
  } else if (family.startsWith('qwen')) {
    if (r.cfg.use_sliding_window !== true) return undefined;
    n = layers - Math.min(layers, r.int(['max_window_layers'], layers, 0) ?? layers);
  }
  n = Math.min(n, layers);
  return n > 0 ? { window, layers: n } : undefined;
}
