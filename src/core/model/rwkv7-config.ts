/**
 * RWKV-7 ("Goose", model_type 'rwkv7') from its config.json. transformers has no RWKV-7 class: the
 * checkpoints (fla-hub/rwkv7-*) load with flash-linear-attention, whose config and layers this
 * follows (fla-org/flash-linear-attention):
 * - `fla/models/rwkv7/configuration_rwkv7.py` RWKV7Config: head_dim 64 (num_heads = hidden /
 *   head_dim), hidden_ratio 4, decay / a / v / gate low-rank dims 64 / 64 / 16 / 128,
 *   value_dim = hidden in every layer, tie_word_embeddings False, attn (softmax-attention layers) None;
 * - `fla/models/rwkv7/modeling_rwkv7.py` RWKV7FeedForward: intermediate_size, else hidden·ratio
 *   rounded up to a multiple of 32; LayerNorms with bias (norm_bias False would drop h per norm:
 *   not read, every published config keeps the bias);
 * - `fla/layers/rwkv7.py` RWKV7Attention: a low-rank dim given as null is derived from the width
 *   (decay and a: 2.5·√h·head_dim/64, v: 1.7·√h·head_dim/64, gate: 5·√h, each rounded to a
 *   multiple of 32, at least 32).
 */
import type { HybridArch } from '../types';
import type { FieldReader } from './fields';

export interface Rwkv7Shape {
  heads: number;
  headDim: number;
  ffn: number;
  hybrid: HybridArch;
}

/** RWKV7Attention's rank when the config gives none: max(32, round(c·√h·scale / 32)·32). */
function derivedRank(c: number, hidden: number, scale: number): number {
  return Math.max(32, Math.round((c * Math.sqrt(hidden) * scale) / 32) * 32);
}

/** One value_dim for every layer (an int, or a list of equal ints), or undefined with an error recorded. */
function valueDim(r: FieldReader, hidden: number, layers: number): number | undefined {
  const v = r.cfg.value_dim;
  if (v === undefined || v === null) return hidden;
  const list = Array.isArray(v) ? v : [v];
  const first: unknown = list[0];
  const same = typeof first === 'number' && Number.isInteger(first) && first >= hidden && list.every((x) => x === first);
  if (!same || (Array.isArray(v) && v.length !== layers)) {
    r.fail('value_dim', 'unmodelled-layers', 'layers of different value_dim (or a value_dim below hidden_size) are not modelled: give one value_dim ≥ hidden_size for every layer');
    return undefined;
  }
  return first;
}

/** The RWKV-7 shape of a config, or undefined with a FieldError recorded. */
export function parseRwkv7(r: FieldReader, hidden: number, layers: number): Rwkv7Shape | undefined {
  if (r.cfg.attn !== undefined && r.cfg.attn !== null) {
    r.fail('attn', 'unmodelled-layers', 'softmax-attention layers inside an RWKV-7 model (fla HybridAttentionConfig) are not modelled yet');
    return undefined;
  }
  const given = r.optInt(['num_heads']);
  const headDim = r.cfg.head_dim === null && given !== undefined ? Math.floor(hidden / given) : (r.int(['head_dim'], 64) ?? 64);
  const heads = Math.floor(hidden / headDim);
  if (heads < 1) {
    r.fail('head_dim', 'not-integer', `head_dim ${headDim} is larger than hidden_size ${hidden}`);
    return undefined;
  }
  const ratio = typeof r.cfg.hidden_ratio === 'number' && r.cfg.hidden_ratio > 0 ? r.cfg.hidden_ratio : 4;
  const ffn = r.optInt(['intermediate_size']) ?? 32 * Math.ceil(Math.trunc(hidden * ratio) / 32);
  const v = valueDim(r, hidden, layers);
  if (v === undefined) return undefined;
  const scale = headDim / 64;
  const rank = (key: string, fallback: number, c: number, s: number) => (r.cfg[key] === null ? derivedRank(c, hidden, s) : (r.int([key], fallback) ?? fallback));
  return {
    heads,
    headDim,
    ffn,
    hybrid: {
      mixer: 'rwkv7',
      blocks: [{ attn: false, ssm: true, ffn: 'dense', count: layers }],
      dInner: v,
      dState: headDim,
      ssmHeads: heads,
      groups: 0,
      convKernel: 1,
      dtRank: 0,
      convBias: false,
      projBias: false,
      gatedNorm: true,
      stateFp32: true,
      attnGate: false,
      lowRank: {
        w: rank('decay_low_rank_dim', 64, 2.5, scale),
        a: rank('a_low_rank_dim', 64, 2.5, scale),
        v: rank('v_low_rank_dim', 16, 1.7, scale),
        g: rank('gate_low_rank_dim', 128, 5, 1),
      },
    },
  };
}
