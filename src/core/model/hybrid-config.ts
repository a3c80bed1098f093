/**
 * Hybrid and linear-attention configs: which layers mix tokens with attention and which with a
 * recurrent mixer (Mamba-1, Mamba-2, Gated DeltaNet), and the mixer's sizes, from each family's
 * own config fields. Sources (huggingface/transformers `src/transformers/models/<family>/`):
 * - jamba `configuration_jamba.py` JambaConfig.layers_block_type / layers_num_experts
 *   (attention when i % attn_layer_period == attn_layer_offset; experts when
 *   i % expert_layer_period == expert_layer_offset), mamba_dt_rank "auto" = ceil(h/16);
 * - bamba `configuration_bamba.py` (attn_layer_indices), granitemoehybrid
 *   `configuration_granitemoehybrid.py` (layer_types "mamba"/"attention", d_inner = mamba_expand·h);
 * - nemotron_h `configuration_nemotron_h.py` (hybrid_override_pattern M / * / - / E, one mixer or
 *   MLP per block; d_inner = mamba_num_heads·mamba_head_dim; mamba_ssm_cache_dtype default float32);
 * - falcon_h1 `modeling_falcon_h1.py` FalconH1DecoderLayer (attention and Mamba-2 in parallel in
 *   every layer, then the MLP);
 * - qwen3_next `configuration_qwen3_next.py` (layer_types, else full attention when
 *   (i + 1) % full_attention_interval == 0, default 4; linear_* Gated DeltaNet sizes);
 * - zamba2 `configuration_zamba2.py` Zamba2Config (layers_block_type "mamba" / "hybrid", default
 *   the 54-layer list built in __init__; n_mamba_heads, mamba_ngroups, num_mem_blocks,
 *   adapter_rank, use_shared_attention_adapter) and `modeling_zamba2.py` (every layer is a
 *   Mamba-2 layer, conv1d bias=True whatever use_conv_bias says; a "hybrid" layer runs a shared
 *   block first).
 * RWKV-7 is read in rwkv7-config.ts.
 */
import type { HybridArch, HybridBlock } from '../types';
import type { FieldReader } from './fields';

/** Families parsed here. */
export const HYBRID_FAMILIES = new Set(['jamba', 'bamba', 'granitemoehybrid', 'nemotron_h', 'falcon_h1', 'qwen3_next', 'zamba2']);

/**
 * Recurrent or otherwise non-transformer families whose layers this calculator does not model
 * (Zamba-1's shared attention block, RWKV-4 to 6 time mixing, pure Mamba without attention heads):
 * the config is refused with a message naming the model_type rather than counted as a Llama.
 */
export const UNMODELLED_FAMILIES = new Set(['zamba', 'rwkv', 'rwkv5', 'rwkv6', 'mamba', 'mamba2', 'falcon_mamba', 'recurrent_gemma', 'xlstm', 'lfm2', 'minimax', 'plamo2']);

/** Zamba2Config's layers_block_type when the config gives none (its __init__, 54 layers). */
const ZAMBA2_DEFAULT_TYPES = [
  'mamba',
  ...Array<string[]>(7)
    .fill([...Array<string>(5).fill('mamba'), 'hybrid'])
    .flat(),
  'mamba',
  'mamba',
  'mamba',
  'mamba',
  'hybrid',
  'mamba',
  'mamba',
  'mamba',
  'hybrid',
  'mamba',
  'mamba',
];

interface LayerKind {
  attn: boolean;
  ssm: boolean;
  ffn: HybridBlock['ffn'];
}

/** Group per-layer kinds into counted blocks (first-seen order). */
function group(layers: LayerKind[]): HybridBlock[] {
  const out: HybridBlock[] = [];
  for (const k of layers) {
    const hit = out.find((b) => b.attn === k.attn && b.ssm === k.ssm && b.ffn === k.ffn);
    if (hit) hit.count++;
    else out.push({ ...k, count: 1 });
  }
  return out;
}

const strList = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

/** Nemotron-H `_pattern_to_list`: M = Mamba-2, * = attention, - = MLP, E = MoE. */
const NEMOTRON_KIND: Record<string, LayerKind> = {
  M: { attn: false, ssm: true, ffn: 'none' },
  '*': { attn: true, ssm: false, ffn: 'none' },
  '-': { attn: false, ssm: false, ffn: 'dense' },
  E: { attn: false, ssm: false, ffn: 'moe' },
  mamba: { attn: false, ssm: true, ffn: 'none' },
  linear_attention: { attn: false, ssm: true, ffn: 'none' },
  attention: { attn: true, ssm: false, ffn: 'none' },
  full_attention: { attn: true, ssm: false, ffn: 'none' },
  mlp: { attn: false, ssm: false, ffn: 'dense' },
  moe: { attn: false, ssm: false, ffn: 'moe' },
};

function layerKinds(r: FieldReader, family: string, layers: number, moe: boolean): LayerKind[] | undefined {
  const ffn: HybridBlock['ffn'] = moe ? 'moe' : 'dense';
  const range = Array.from({ length: layers }, (_, i) => i);
  if (family === 'jamba') {
    const ap = r.int(['attn_layer_period'], 8) ?? 8;
    const ao = r.int(['attn_layer_offset'], 4, 0) ?? 4;
    const ep = r.int(['expert_layer_period'], 2) ?? 2;
    const eo = r.int(['expert_layer_offset'], 1, 0) ?? 1;
    return range.map((i) => ({ attn: i % ap === ao, ssm: i % ap !== ao, ffn: moe && i % ep === eo ? 'moe' : 'dense' }));
  }
  if (family === 'nemotron_h') {
    const pat = r.str('hybrid_override_pattern');
    const list = pat !== undefined ? [...pat] : (strList(r.cfg.layers_block_type) ?? strList(r.cfg.layer_types));
    if (!list) {
      r.fail('hybrid_override_pattern', 'missing', 'missing (or layers_block_type): the layer pattern of a Nemotron-H model');
      return undefined;
    }
    const kinds: LayerKind[] = [];
    for (const c of list) {
      // own keys only: 'constructor' or 'toString' is no layer kind
      const kind = Object.hasOwn(NEMOTRON_KIND, c) ? NEMOTRON_KIND[c] : undefined;
      if (kind === undefined) {
        r.fail('hybrid_override_pattern', 'invalid-layer', `unknown layer kind ${JSON.stringify(c.slice(0, 20))}`);
        return undefined;
      }
      kinds.push(kind);
    }
    return kinds;
  }
  if (family === 'falcon_h1') return range.map(() => ({ attn: true, ssm: true, ffn: 'dense' }));
  if (family === 'zamba2') {
    const types = strList(r.cfg.layers_block_type) ?? ZAMBA2_DEFAULT_TYPES;
    const odd = types.find((t) => t !== 'mamba' && t !== 'hybrid');
    if (odd !== undefined) {
      r.fail('layers_block_type', 'invalid-layer', `unknown layer kind ${JSON.stringify(odd.slice(0, 20))} (Zamba2Model builds "mamba" and "hybrid" layers only)`);
      return undefined;
    }
    // every layer is a Mamba-2 layer; a "hybrid" one also runs a shared attention + MLP block
    return types.map((t) => (t === 'hybrid' ? { attn: true, ssm: true, ffn: 'dense' } : { attn: false, ssm: true, ffn: 'none' }));
  }
  if (family === 'qwen3_next') {
    const types = strList(r.cfg.layer_types);
    const every = r.int(['full_attention_interval'], 4) ?? 4;
    const only = new Set(Array.isArray(r.cfg.mlp_only_layers) ? r.cfg.mlp_only_layers : []);
    const step = r.int(['decoder_sparse_step'], 1) ?? 1;
    return range.map((i) => {
      const attn = types ? types[i] === 'full_attention' : (i + 1) % every === 0;
      return { attn, ssm: !attn, ffn: moe && !only.has(i) && (i + 1) % step === 0 ? 'moe' : 'dense' };
    });
  }
  // bamba: attn_layer_indices; granitemoehybrid: layer_types "mamba" / "attention"
  const idx = r.cfg.attn_layer_indices;
  const types = strList(r.cfg.layer_types) ?? strList(r.cfg.layers_block_type);
  const attnAt = Array.isArray(idx) ? new Set(idx) : null;
  return range.map((i) => {
    const attn = attnAt ? attnAt.has(i) : types ? types[i] === 'attention' : false;
    return { attn, ssm: !attn, ffn };
  });
}

/**
 * The hybrid description of a config of a HYBRID_FAMILIES family, or undefined (with a FieldError
 * recorded) when its layer pattern cannot be read. `layers` = num_hidden_layers; Nemotron-H takes
 * its layer count from the pattern (NemotronHConfig.num_hidden_layers).
 */
export function parseHybrid(r: FieldReader, family: string, hidden: number, layers: number, moe: boolean): HybridArch | undefined {
  const kinds = layerKinds(r, family, layers, moe);
  if (!kinds || kinds.length === 0) return undefined;
  const bool = (k: string, d: boolean) => r.bool(k) ?? d;
  const common = {
    blocks: group(kinds),
    convBias: bool('mamba_conv_bias', bool('use_conv_bias', true)),
    projBias: bool('mamba_proj_bias', false),
    gatedNorm: true,
    stateFp32: (r.str('mamba_ssm_cache_dtype') ?? (family === 'nemotron_h' ? 'float32' : 'auto')) === 'float32',
    attnGate: false,
  };
  if (family === 'jamba') {
    const dtRank = typeof r.cfg.mamba_dt_rank === 'number' ? (r.int(['mamba_dt_rank']) ?? 1) : Math.ceil(hidden / 16);
    return {
      ...common,
      mixer: 'mamba',
      dInner: (r.int(['mamba_expand'], 2) ?? 2) * hidden,
      dState: r.int(['mamba_d_state'], 16) ?? 16,
      ssmHeads: 0,
      groups: 0,
      convKernel: r.int(['mamba_d_conv'], 4) ?? 4,
      dtRank,
      gatedNorm: false,
    };
  }
  if (family === 'qwen3_next') {
    const vHeads = r.int(['linear_num_value_heads'], 32) ?? 32;
    return {
      ...common,
      mixer: 'gdn',
      dInner: vHeads * (r.int(['linear_value_head_dim'], 128) ?? 128),
      dState: r.int(['linear_key_head_dim'], 128) ?? 128,
      ssmHeads: vHeads,
      groups: r.int(['linear_num_key_heads'], 16) ?? 16,
      convKernel: r.int(['linear_conv_kernel_dim'], 4) ?? 4,
      dtRank: 0,
      convBias: false,
      projBias: false,
      attnGate: true,
    };
  }
  if (family === 'zamba2') {
    const expand = r.int(['mamba_expand'], 2) ?? 2;
    return {
      ...common,
      mixer: 'mamba2',
      dInner: expand * hidden,
      dState: r.int(['mamba_d_state'], 64) ?? 64,
      ssmHeads: r.int(['n_mamba_heads'], 8) ?? 8,
      groups: r.int(['mamba_ngroups'], 1) ?? 1,
      convKernel: r.int(['mamba_d_conv'], 4) ?? 4,
      dtRank: 0,
      convBias: true,
      projBias: bool('add_bias_linear', false),
      shared: {
        blocks: r.int(['num_mem_blocks'], 1) ?? 1,
        adapterRank: r.int(['adapter_rank'], 128) ?? 128,
        attnAdapter: bool('use_shared_attention_adapter', false),
      },
    };
  }
  const nemo = family === 'nemotron_h';
  const heads = r.int(['mamba_n_heads', 'mamba_num_heads'], 128) ?? 128;
  const expand = r.int(['mamba_expand', 'expand'], 2) ?? 2;
  const dInner = r.optInt(['mamba_d_ssm']) ?? (nemo ? heads * (r.int(['mamba_head_dim'], 64) ?? 64) : expand * hidden);
  return {
    ...common,
    mixer: 'mamba2',
    dInner,
    dState: r.int(['mamba_d_state', 'ssm_state_size'], nemo ? 128 : 256) ?? 256,
    ssmHeads: heads,
    groups: r.int(['mamba_n_groups', 'n_groups'], nemo ? 8 : 1) ?? 1,
    convKernel: r.int(['mamba_d_conv', 'conv_kernel'], 4) ?? 4,
    dtRank: 0,
    gatedNorm: family === 'falcon_h1' ? bool('mamba_rms_norm', false) : true,
  };
}
