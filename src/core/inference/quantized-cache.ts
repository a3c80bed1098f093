/**
 * transformers' QuantizedCache (kv int4 / int8 on engine transformers), from transformers
 * cache_utils.py `QuantizedLayer.update` with its quanto and HQQ backends (`QuantoQuantizedLayer`:
 * nbits 2 or 4; `HQQQuantizedLayer`: 1, 2, 3, 4 or 8) and `QuantizedCacheConfig`'s defaults
 * (q_group_size 64, residual_length 128):
 * - the first update (prefill) quantizes the prompt's K and V at once; the residual starts empty;
 * - each decode step dequantizes the whole quantized part to the model dtype and returns
 *   `cat([dequantized, residual, new])`; the new token joins the residual, and once the residual
 *   holds residual_length − 1 tokens everything returned is quantized again and the residual emptied.
 * So at most residual_length − 1 tokens stay in the model dtype, every other token is stored as
 * nbits plus one scale and one zero point per group of 64 in the model dtype (quanto `quantize_weight`
 * with MaxOptimizer; HQQ `Quantizer.quantize` meta scale / zero), and a decode step holds, per layer,
 * the dequantized K and V and the returned K and V beside the cache.
 */

/** QuantizedCacheConfig.q_group_size default. */
export const KV_QUANT_GROUP = 64;

/** Bits per element of the KV formats QuantizedCache stores (int8: HQQ only, quanto takes 2 or 4). */
const BITS: Partial<Record<string, number>> = { int4: 4, int8: 8 };

export interface QuantizedKv {
  /** bytes per stored element: nbits/8 + 2 scales of e bytes per group */
  bytesQ: number;
  /** tokens kept in the model dtype at the peak: min(residual_length − 1, generated) */
  residual: number;
}

/** Whether `kv` is stored by QuantizedCache on engine transformers. */
export const isQuantizedCacheKv = (kv: string): boolean => BITS[kv] !== undefined;

/** The quantized cache for `kv` at model element bytes `e`, or null when `kv` is not one of its formats. */
export function quantizedKv(kv: string, e: number, gen: number, residualLength: number): QuantizedKv | null {
  const bits = BITS[kv];
  if (bits === undefined) return null;
  return { bytesQ: bits / 8 + (2 * e) / KV_QUANT_GROUP, residual: Math.max(0, Math.min(residualLength - 1, gen)) };
}
