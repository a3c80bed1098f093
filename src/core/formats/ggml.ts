/**
 * ggml block types and llama.cpp's per-tensor type choice for the named GGUF mixes.
 * Block sizes: ggml-org/llama.cpp `ggml/src/ggml-common.h` (block_q8_0, block_q6_K, …),
 * tabulated in docs/reference/formulas.md §2.4. Type rules: llama.cpp `src/llama-quant.cpp`
 * `llama_tensor_get_type` (use_more_bits, attn_v / ffn_down bumps, output Q6_K,
 * 8-expert and 70B rules, fallback when a row length is not a multiple of the block).
 */

export type GgmlType = 'f32' | 'f16' | 'q8_0' | 'q6_k' | 'q5_k' | 'q4_k' | 'q3_k' | 'q2_k' | 'q5_1' | 'q5_0' | 'q4_1' | 'q4_0' | 'iq4_nl';

/** Weights per block and bytes per block (fp16 scales included). */
export const GGML_BLOCK: Record<GgmlType, { size: number; bytes: number }> = {
  f32: { size: 1, bytes: 4 },
  f16: { size: 1, bytes: 2 },
  q8_0: { size: 32, bytes: 34 },
  q6_k: { size: 256, bytes: 210 },
  q5_k: { size: 256, bytes: 176 },
  q4_k: { size: 256, bytes: 144 },
  q3_k: { size: 256, bytes: 110 },
  q2_k: { size: 256, bytes: 84 },
  q5_1: { size: 32, bytes: 24 },
  q5_0: { size: 32, bytes: 22 },
  q4_1: { size: 32, bytes: 20 },
  q4_0: { size: 32, bytes: 18 },
  iq4_nl: { size: 32, bytes: 18 },
};

/** Bytes of a din × dout tensor stored as `type` (rows of din weights, whole blocks). */
export function ggmlBytes(type: GgmlType, din: number, dout: number): number {
  const b = GGML_BLOCK[type];
  return Math.ceil(din / b.size) * b.bytes * dout;
}

export type GgufMix = 'q8_0' | 'q6_k' | 'q5_k_m' | 'q4_k_m' | 'q4_k_s' | 'q4_0' | 'q3_k_m' | 'q2_k';

/** Default tensor type of each mix (llama-quant.cpp `default_type` switch). */
export const MIX_BASE: Record<GgufMix, GgmlType> = {
  q8_0: 'q8_0',
  q6_k: 'q6_k',
  q5_k_m: 'q5_k',
  q4_k_m: 'q4_k',
  q4_k_s: 'q4_k',
  q4_0: 'q4_0',
  q3_k_m: 'q3_k',
  q2_k: 'q2_k',
};

/** What the rules need to know about the model (llama.cpp hparams). */
export interface MixContext {
  mix: GgufMix;
  /** n_layer */
  layers: number;
  /** n_head / n_head_kv */
  gqa: number;
  /** n_expert (0 = dense) */
  experts: number;
  /** llama.cpp model type LLM_TYPE_70B: 80-layer Llama with GQA, or 80-layer Qwen2 */
  is70B: boolean;
  falcon: boolean;
}

/** llama.cpp `use_more_bits`: first and last eighth of the layers, and every third one between. */
export function useMoreBits(i: number, n: number): boolean {
  const e = Math.trunc(n / 8);
  return i < e || i >= Math.trunc((7 * n) / 8) || (i - e) % 3 === 2;
}

/** Type of the LM head (`output.weight`, or the token embedding when tied). */
export function outputType(c: MixContext, din: number): GgmlType {
  if (c.falcon) return 'q8_0';
  return fit(c.mix === 'q8_0' ? 'q8_0' : 'q6_k', din);
}

function attnV(c: MixContext, i: number, base: GgmlType): GgmlType {
  let t = base;
  if (c.mix === 'q2_k') t = c.gqa >= 4 ? 'q4_k' : 'q3_k';
  else if (c.mix === 'q3_k_m') t = i < 2 ? 'q5_k' : 'q4_k';
  else if ((c.mix === 'q4_k_m' || c.mix === 'q5_k_m') && useMoreBits(i, c.layers)) t = 'q6_k';
  else if (c.mix === 'q4_k_s' && i < 4) t = 'q5_k';
  if (c.is70B && (t === 'q3_k' || t === 'q4_k')) t = 'q5_k';
  return c.experts === 8 ? 'q8_0' : t;
}

function ffnDown(c: MixContext, i: number, base: GgmlType): GgmlType {
  const n = c.layers;
  switch (c.mix) {
    case 'q2_k':
      return 'q3_k';
    case 'q3_k_m':
      return i < Math.trunc(n / 16) ? 'q5_k' : !c.falcon || useMoreBits(i, n) ? 'q4_k' : 'q3_k';
    case 'q4_k_m':
      if (c.falcon) return i < Math.trunc(n / 16) ? 'q6_k' : useMoreBits(i, n) ? 'q5_k' : 'q4_k';
      return useMoreBits(i, n) ? 'q6_k' : base;
    case 'q5_k_m':
      return useMoreBits(i, n) ? 'q6_k' : base;
    case 'q4_k_s':
      return !c.falcon && i < Math.trunc(n / 8) ? 'q5_k' : base;
    default:
      return base;
  }
}

function attnOutput(c: MixContext, base: GgmlType): GgmlType {
  if (c.falcon) return base;
  if (c.experts === 8) return ['q2_k', 'q3_k_m', 'q4_k_s', 'q4_k_m'].includes(c.mix) ? 'q5_k' : base;
  return c.mix === 'q2_k' ? 'q3_k' : c.mix === 'q3_k_m' ? 'q4_k' : base;
}

function attnQkv(c: MixContext, base: GgmlType): GgmlType {
  if (c.mix === 'q3_k_m') return 'q4_k';
  if (c.mix === 'q4_k_m') return 'q5_k';
  if (c.mix === 'q5_k_m') return 'q6_k';
  return base;
}

/** llama.cpp's fallback when a row is not a whole number of blocks (`convert_incompatible_tensor`). */
const FALLBACK: Partial<Record<GgmlType, GgmlType>> = {
  q2_k: 'iq4_nl',
  q3_k: 'iq4_nl',
  q4_k: 'q5_0',
  q5_k: 'q5_1',
  q6_k: 'q8_0',
};

function fit(t: GgmlType, din: number): GgmlType {
  if (din % GGML_BLOCK[t].size === 0) return t;
  const f = FALLBACK[t] ?? 'f16';
  return din % GGML_BLOCK[f].size === 0 ? f : 'f16';
}

/**
 * Type of one block Linear (llama.cpp tensor name stem `role`, layer i, row length din).
 * Roles not named in the rules (attn_q, ffn_gate, ffn_up, MLA projections) keep the mix's base type.
 */
export function blockTensorType(c: MixContext, role: string, i: number, din: number): GgmlType {
  const base = MIX_BASE[c.mix];
  let t = base;
  if (role === 'attn_v') t = attnV(c, i, base);
  else if (role === 'attn_k') t = c.experts === 8 ? 'q8_0' : base;
  else if (role.startsWith('ffn_down')) t = ffnDown(c, i, base);
  else if (role === 'attn_output') t = attnOutput(c, base);
  else if (role === 'attn_qkv') t = attnQkv(c, base);
  return fit(t, din);
}

/** Type of an untied token embedding: the base type (K and legacy mixes). */
export function embeddingType(c: MixContext, din: number): GgmlType {
  return fit(MIX_BASE[c.mix], din);
}
