/**
 * llama.cpp buffers (formulas.md §3.5; ggml-org/llama.cpp `src/llama-kv-cache.cpp`,
 * `src/llama-context.cpp` graph reserve, `src/llama-model.cpp` layer placement).
 *
 * - `-ngl N` offloads N repeating layers; the output layer follows once N > L. The token
 *   embedding always stays on the host (input layer buffer type = CPU).
 * - KV cells = n_ctx padded to 256; each cell holds g·d_k·bytes(type_k) + g·d_v·bytes(type_v)
 *   per offloaded layer. A quantized V cache needs flash attention; without it V is f16.
 * - The compute buffer is a worst-case graph for n_ubatch tokens (default 512), reused across
 *   layers: the largest of the f32 logits (V·n_ubatch·4, output on GPU), the f32 KQ scores without
 *   flash attention (n_kv·n_ubatch·a·4) and the FFN intermediates, plus a few hidden-size rows.
 */

/** llama.cpp pads the KV cell count to this (llama_kv_cache::get_padding). */
export const LLAMACPP_KV_PAD = 256;
/** default n_ubatch */
export const LLAMACPP_DEFAULT_UBATCH = 512;

/** n_ctx rounded up to the KV padding. */
export function paddedCells(nCtx: number): number {
  return Math.ceil(Math.max(1, nCtx) / LLAMACPP_KV_PAD) * LLAMACPP_KV_PAD;
}

export interface ComputeBufferInput {
  ubatch: number;
  cells: number;
  hidden: number;
  heads: number;
  ffn: number;
  vocab: number;
  flash: boolean;
  outputOnGpu: boolean;
}

/** Worst-case compute buffer (bytes) and the term that dominates it. */
export function computeBuffer(x: ComputeBufferInput): { bytes: number; kind: 'logits' | 'kq' | 'ffn' } {
  const ub = Math.max(1, Math.min(x.ubatch, x.cells));
  const logits = x.outputOnGpu ? x.vocab * ub * 4 : 0;
  const kq = x.flash ? 0 : x.cells * ub * x.heads * 4;
  const ffn = 3 * ub * x.ffn * 4;
  const rows = 4 * ub * x.hidden * 4;
  const kind = logits >= kq && logits >= ffn ? 'logits' : kq >= ffn ? 'kq' : 'ffn';
  return { bytes: Math.max(logits, kq, ffn) + rows, kind };
}
