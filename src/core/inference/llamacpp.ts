/**
 * llama.cpp buffers (formulas.md §3.5; ggml-org/llama.cpp `src/llama-kv-cache.cpp`,
 * `src/llama-kv-cache-iswa.cpp`, `src/llama-context.cpp` graph reserve, `src/llama-model.cpp`
 * layer placement and per-architecture hyper-parameters).
 *
 * - `-ngl N` offloads N repeating layers; the output layer follows once N > L. The token
 *   embedding always stays on the host (input layer buffer type = CPU).
 * - KV cells = n_ctx (not padded since PR #16812); each cell holds g·d_k·bytes(type_k) +
 *   g·d_v·bytes(type_v) per offloaded layer. A quantized V cache needs flash attention; without it
 *   V is f16.
 * - Sliding windows only where llama.cpp implements them (LLAMACPP_SWA_FAMILIES): Mistral GGUFs
 *   load as arch `llama`, which has no window, and Phi-3's window is disabled (PR #13676).
 * - The compute buffer is the worst-case graph of llamacpp-buffers.ts.
 * - Host RAM (`hostMemory`): token_embd, the layers not offloaded with their KV cells, output.weight
 *   while -ngl ≤ L, the CPU backend's compute buffer for the nodes it runs, the CUDA_Host compute
 *   buffer and the logits output buffer. With mmap (the default) the weights are pages of the
 *   model file; with --no-mmap the same bytes are allocated. Both are counted.
 */
import type { Built, Ctx } from '../estimate-context';
import { term } from '../estimate-context';
import { add, div, evaluate, mul, sym } from '../formula';
import type { HostMemory, Message } from '../types';
import { kvCacheExpr, kvLayers } from './kv';
import { computeBuffer, computeBufferExpr, graphKvCells, hostComputeBuffer, LLAMACPP_DEFAULT_UBATCH, outputBuffer } from './llamacpp-buffers';

/**
 * Families whose llama.cpp architecture sets `swa_type = LLAMA_SWA_TYPE_STANDARD`
 * (llama-model.cpp: LLM_ARCH_GEMMA2, LLM_ARCH_GEMMA3, LLM_ARCH_GEMMA3N, LLM_ARCH_COHERE2).
 */
export const LLAMACPP_SWA_FAMILIES: ReadonlySet<string> = new Set(['gemma2', 'gemma3', 'gemma3_text', 'gemma3n', 'cohere2']);

/** ggml block types for the K/V cache; V falls back to f16 without flash attention. */
export function llamaCppKvBytes(kvElementBytes: number, kv: string, flash: boolean): { k: number; v: number } {
  const quantized = kv === 'q8_0' || kv === 'q4_0';
  return { k: kvElementBytes, v: quantized && !flash ? 2 : kvElementBytes };
}

/**
 * Cells of the sliding-window cache: min(n_ctx, n_swa·n_seq + n_ubatch), padded to 256
 * (llama-kv-cache-iswa.cpp; `--swa-full` keeps n_ctx).
 */
export function swaCells(nCtx: number, window: number, sequences: number, ubatch: number): number {
  return Math.min(nCtx, graphKvCells(window * sequences + ubatch));
}

/**
 * llama.cpp terms: GPU model buffer for the offloaded layers, KV cells (one stream of
 * batch × (prompt + gen) cells) and the compute buffer. ggml allocates exactly: no
 * caching-allocator reserve.
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
  const Lsym = sym('L', Math.max(1, L));
  const Lgpu = sym('L_gpu', blockLayers);
  const weightsExpr = add(div(mul(sym('W_blocks', w.blocks), Lgpu), Lsym), ...(outputOnGpu ? [sym('W_output', headBytes)] : []));
  const ubatch = s.ubatch ?? LLAMACPP_DEFAULT_UBATCH;
  const cells = Math.max(1, s.batch * (s.prompt + s.gen));
  const { k, v } = llamaCppKvBytes(ctx.kvElementBytes, s.kv, flash);
  const windowed = LLAMACPP_SWA_FAMILIES.has(arch.family);
  const policy = { mlaLatent: true, windowed, tp: 1 };
  const swa = swaCells(cells, arch.slidingWindow?.window ?? cells, s.batch, ubatch);
  // per-cell bytes with K and V element sizes averaged (K and V have equal widths except MLA, where V is absent)
  const perElement = arch.mla ? sym('bytes_k', k) : div(add(sym('bytes_k', k), sym('bytes_v', v)), 2);
  const kvAll = kvCacheExpr(arch, sym('cells', cells), 1, perElement, policy, sym('swa_cells', swa));
  const kvExpr = div(mul(kvAll, Lgpu), Lsym);
  // the worst-case graph's shape; each device's buffer differs only in which nodes it runs
  const graph = { ubatch, cells, hidden: arch.hidden, heads: arch.heads, ffn: arch.ffn, vocab: arch.vocab, flash, outputOnGpu };
  const compute = computeBufferExpr(graph);
  const weights = evaluate(weightsExpr);
  const kv = evaluate(kvExpr);
  const notes: Message[] = [];
  if (k !== v) notes.push({ code: 'llamacpp.v-f16', text: 'A quantized V cache needs flash attention (-fa); without it V stays f16.' });
  const terms = [
    term(ctx, 'weights', weightsExpr, {
      values: { ngl: gpuLayers, format: s.weights },
      source: `${w.derivation.source}; llama.cpp src/llama-model.cpp (token_embd stays on the host)`,
      confidence: w.derivation.confidence,
    }),
    term(ctx, 'kv-cache', kvExpr, {
      source: 'llama.cpp src/llama-kv-cache.cpp, llama-kv-cache-iswa.cpp, PR #16812 (formulas.md §3.5)',
      confidence: 'exact',
    }),
    term(ctx, 'workspace', compute.expr, {
      values: { dominant: compute.kind },
      source: 'llama.cpp llama-context.cpp graph_reserve, llama-graph.cpp, ggml-alloc.c (formulas.md §3.5; checked on logs in src/validation/fixtures/runtime-logs.json)',
      confidence: 'derived',
    }),
  ];
  const host = hostMemory({
    embedding: w.embedding,
    output: outputOnGpu ? 0 : headBytes,
    layerShare: (L - blockLayers) / Math.max(1, L),
    blocks: w.blocks,
    kvAllLayers: evaluate(kvAll),
    cpuCompute: L > blockLayers || !outputOnGpu ? computeBuffer({ ...graph, outputOnGpu: !outputOnGpu, layers: L > blockLayers }).bytes : 0,
    cudaHost: blockLayers > 0 ? hostComputeBuffer(graph) : 0,
    outputBuffer: outputBuffer(arch.vocab, s.batch),
  });
  return {
    terms,
    allocatedBytes: weights + kv + compute.bytes,
    live: [],
    torchAllocator: false,
    trainable: 0,
    engine: { gpuLayers, host },
    notes,
  };
}

/** Host RAM of a llama.cpp run from its parts (see the header): layers and KV by the share not offloaded. */
export function hostMemory(x: { embedding: number; output: number; layerShare: number; blocks: number; kvAllLayers: number; cpuCompute: number; cudaHost: number; outputBuffer: number }): HostMemory {
  const embeddingAndOutput = x.embedding + x.output;
  const layers = x.blocks * x.layerShare;
  const kv = x.kvAllLayers * x.layerShare;
  const buffers = x.cpuCompute + x.cudaHost + x.outputBuffer;
  return { bytes: embeddingAndOutput + layers + kv + buffers, embeddingAndOutput, layers, kv, buffers };
}
