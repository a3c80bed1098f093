/**
 * llama.cpp's context buffers, sized the way ggml allocates them (formulas.md §3.5).
 *
 * Sources: ggml-org/llama.cpp `src/llama-context.cpp` (graph_reserve: a worst-case graph of
 * min(n_ctx, n_ubatch) tokens, every token an output), `src/llama-graph.cpp` (build_attn_inp_kq_mask:
 * an f32 [n_kv, pad(n_tokens, GGML_KQ_MASK_PAD)] input, cast to f16 for flash attention;
 * build_attn_mha: f32 KQ = [n_kv, n_tokens, n_head] without flash attention), `ggml/src/ggml-alloc.c`
 * (tensors freed after their last use; unary ops such as soft_max and the SwiGLU product reuse
 * their input in place), PR #16812 (KV cells no longer padded; n_kv in graphs still padded to 256),
 * PR #6122 (host output buffer of n_vocab floats per sequence).
 *
 * Checked against printed logs (src/validation/fixtures/runtime-logs.json): Mistral-7B f16 at
 * n_ctx 2048 / 32768 without flash attention prints 164.00 / 2144.00 MiB (KQ + mask + 4 rows);
 * Qwen2.5-3B prints 300.75 MiB (f32 logits + 1 row) and a 12.01 MiB host compute buffer.
 */

import { add, ceil, div, evaluate, mul, sym, type Expr } from '../formula';

/** Graphs pad n_kv (cells attended) to this many cells (llama-kv-cache.cpp, PR #16812). */
const LLAMACPP_KV_PAD = 256;
/** GGML_KQ_MASK_PAD (ggml.h): mask rows are padded to a multiple of this. */
const KQ_MASK_PAD = 64;

const F32 = 4;

/** n_kv of the worst-case graph: the cell count padded to 256. */
export function graphKvCells(cells: number): number {
  return Math.ceil(Math.max(1, cells) / LLAMACPP_KV_PAD) * LLAMACPP_KV_PAD;
}

export interface ComputeBufferInput {
  /** n_ubatch */
  ubatch: number;
  /** KV cells of the context (n_ctx) */
  cells: number;
  hidden: number;
  heads: number;
  ffn: number;
  vocab: number;
  flash: boolean;
  /** the output layer runs on this device (the GPU once -ngl > L, else the host): its logits are here */
  outputOnGpu: boolean;
  /** this device runs repeating layers (default true; the host runs none when every layer is offloaded) */
  layers?: boolean;
}

export type ComputeNode = 'logits' | 'kq' | 'ffn';

/** Tokens of the reserve graph: min(n_ctx, n_ubatch). */
function graphTokens(x: ComputeBufferInput): number {
  return Math.max(1, Math.min(x.ubatch, x.cells));
}

/** Bytes of the f32 KQ mask input [n_kv, pad(n_tokens, 64)]. */
export function kqMaskBytes(x: ComputeBufferInput): number {
  const rows = Math.ceil(graphTokens(x) / KQ_MASK_PAD) * KQ_MASK_PAD;
  return graphKvCells(x.cells) * rows * F32;
}

/**
 * GPU compute buffer: the largest set of tensors alive at one node of the worst-case graph.
 * - logits: f32 [V, n_ub] and the final-norm output [h, n_ub] (output layer on this device);
 * - kq (no flash attention): f32 scores [n_kv, n_ub, a] (soft_max in place), the mask, and four
 *   f32 [h, n_ub] rows (residual, normed input, Q, attention input);
 * - ffn: gate and up [f, n_ub] (the SwiGLU product in place), the residual and normed input, and
 *   the mask copy that later layers still read.
 */
export function computeBufferExpr(x: ComputeBufferInput): { expr: Expr; bytes: number; kind: ComputeNode } {
  const ub = sym('n_ub', graphTokens(x));
  const nKv = sym('n_kv', graphKvCells(x.cells));
  const h = sym('h', x.hidden);
  const mask = mul(nKv, ceil(div(ub, KQ_MASK_PAD)), KQ_MASK_PAD, F32);
  const nodes: [ComputeNode, Expr | null][] = [
    ['logits', x.outputOnGpu ? add(mul(sym('V', x.vocab), ub, F32), mul(ub, h, F32)) : null],
    ['kq', x.flash || x.layers === false ? null : add(mul(nKv, ub, sym('a', x.heads), F32), mask, mul(4, ub, h, F32))],
    ['ffn', x.layers === false ? null : add(mul(2, ub, sym('f', x.ffn), F32), mul(2, ub, h, F32), mask)],
  ];
  let best: { expr: Expr; bytes: number; kind: ComputeNode } = { expr: 0, bytes: 0, kind: 'logits' };
  for (const [kind, expr] of nodes) {
    const bytes = expr ? evaluate(expr) : 0;
    if (expr && bytes > best.bytes) best = { expr, bytes, kind };
  }
  return best;
}

export function computeBuffer(x: ComputeBufferInput): { bytes: number; kind: ComputeNode } {
  const { bytes, kind } = computeBufferExpr(x);
  return { bytes, kind };
}

/**
 * Host (CUDA_Host) compute buffer: the token-embedding lookup runs where token_embd lives (the
 * host), so its f32 [h, n_ub] output and the f32 mask input sit in pinned host memory.
 */
export function hostComputeBuffer(x: ComputeBufferInput): number {
  return graphTokens(x) * x.hidden * F32 + kqMaskBytes(x);
}

/** Host output buffer: n_vocab f32 logits per sequence (PR #6122, n_outputs_max = n_seq). */
export function outputBuffer(vocab: number, sequences: number): number {
  return vocab * Math.max(1, sequences) * F32;
}
