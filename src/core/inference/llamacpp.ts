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
import type { Built, Ctx } from '../estimate-context';
import { term } from '../estimate-context';
import type { Message } from '../types';
import { kvCacheBytes, kvLayers } from './kv';

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

/** ggml block types for the K/V cache; V falls back to f16 without flash attention. */
export function llamaCppKvBytes(kvElementBytes: number, kv: string, flash: boolean): { k: number; v: number } {
  const quantized = kv === 'q8_0' || kv === 'q4_0';
  return { k: kvElementBytes, v: quantized && !flash ? 2 : kvElementBytes };
}

/**
 * llama.cpp terms: GPU model buffer for the offloaded layers, padded KV cells (one stream of
 * batch × (prompt + gen) cells; sliding-window layers keep pad256(min(n_ctx, W·n_seq + n_ubatch))),
 * and the compute buffer. ggml allocates exactly: no caching-allocator reserve.
 */
export function buildLlamaCpp(ctx: Ctx): Built {
  const { s, arch } = ctx;
  const L = kvLayers(arch);
  const gpuLayers = Math.min(s.ngl ?? L + 1, L + 1);
  const blockLayers = Math.min(gpuLayers, L);
  const outputOnGpu = gpuLayers > L;
  const flash = s.attn === 'flash';
  const w = ctx.weights;
  // output.weight is its own tensor (a duplicate of token_embd when tied) and follows -ngl > L
  const headBytes = w.head > 0 ? w.head : w.embedding;
  const weights = (w.blocks * blockLayers) / Math.max(1, L) + (outputOnGpu ? headBytes : 0);
  const ubatch = s.ubatch ?? LLAMACPP_DEFAULT_UBATCH;
  const nCtx = s.batch * (s.prompt + s.gen);
  const cells = paddedCells(nCtx);
  const { k, v } = llamaCppKvBytes(ctx.kvElementBytes, s.kv, flash);
  const policy = { mlaLatent: true, windowed: true, tp: 1 };
  const swaCells = paddedCells(Math.min(nCtx, (arch.slidingWindow?.window ?? nCtx) * s.batch + ubatch));
  // per-cell bytes with K and V element sizes averaged (K and V have equal widths except MLA, where V is absent)
  const perElement = arch.mla ? k : (k + v) / 2;
  const kvAll = kvCacheBytes(arch, cells, 1, perElement, policy, swaCells);
  const kv = (kvAll * blockLayers) / Math.max(1, L);
  const compute = computeBuffer({ ubatch, cells, hidden: arch.hidden, heads: arch.heads, ffn: arch.ffn, vocab: arch.vocab, flash, outputOnGpu });
  const notes: Message[] = [];
  if (k !== v) notes.push({ code: 'llamacpp.v-f16', text: 'A quantized V cache needs flash attention (-fa); without it V stays f16.' });
  const terms = [
    term(ctx, 'weights', weights, {
      formula: 'W_blocks·min(ngl, L)/L + (ngl > L ? W_output : 0)',
      values: { W_blocks: w.blocks, W_output: headBytes, ngl: gpuLayers, L, format: s.weights },
      source: `${w.derivation.source}; llama.cpp src/llama-model.cpp (token_embd stays on the host)`,
      confidence: w.derivation.confidence,
    }),
    term(ctx, 'kv-cache', kv, {
      formula: 'pad256(n_ctx)·L_gpu·g·d·(bytes_k + bytes_v)',
      values: { n_ctx: nCtx, cells, L_gpu: blockLayers, g: arch.kvHeads, d: arch.headDim, bytes_k: k, bytes_v: v },
      source: 'llama.cpp src/llama-kv-cache.cpp, llama-kv-cache-iswa.cpp (formulas.md §3.5)',
      confidence: 'exact',
    }),
    term(ctx, 'workspace', compute.bytes, {
      formula: 'max(V·n_ub·4, n_kv·n_ub·a·4 (no flash), 3·n_ub·f·4) + 4·n_ub·h·4',
      values: { n_ub: ubatch, n_kv: cells, V: arch.vocab, a: arch.heads, f: arch.ffn, h: arch.hidden, dominant: compute.kind },
      source: 'llama.cpp graph reserve (formulas.md §3.5; issues #27953, #11332)',
      confidence: 'heuristic',
    }),
  ];
  return {
    terms,
    allocatedBytes: weights + kv + compute.bytes,
    live: [],
    torchAllocator: false,
    trainable: 0,
    engine: { gpuLayers },
    notes,
  };
}
