/**
 * llama.cpp buffers (formulas.md §3.5; ggml-org/llama.cpp `src/llama-kv-cache.cpp`,
 * `src/llama-kv-cache-iswa.cpp`, `src/llama-context.cpp` graph reserve, `src/llama-model.cpp`
 * layer placement and per-architecture hyper-parameters).
 *
 * - `-ngl N` offloads the last N repeating layers; the output layer follows once N > L. The token
 *   embedding always stays on the host (input layer buffer type = CPU). Over several GPUs the
 *   offloaded layers are spread by --tensor-split (llamacpp-split.ts); each layer's weights (GGUF:
 *   its own tensor types) and KV cells sit on its GPU, and each GPU runs its own compute buffer.
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
import { add, div, evaluate, mul, sym, type Expr } from '../formula';
import type { HostMemory, Message } from '../types';
import { fixedIn } from '../units';
import { kvCacheExpr, kvLayers } from './kv';
import { computeBuffer, computeBufferExpr, graphKvCells, hostComputeBuffer, kqMaskBytes, outputBuffer, type ComputeBufferInput } from './llamacpp-buffers';
import { LLAMACPP_DEFAULT_UBATCH } from './engine-provider';
import { gpuLayerCount, layerRangeBytes, llamaCppPlacement, SCHED_MAX_COPIES } from './llamacpp-split';

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
 * llama.cpp terms of the most-loaded GPU: its model buffer (the layers placed on it, and the
 * output layer when it holds it), the KV cells of those layers (one stream of batch × (prompt +
 * gen) cells) and its compute buffer. ggml allocates exactly: no caching-allocator reserve. Over
 * several GPUs (--split-mode layer) each GPU is priced the same way and listed in perGpu.
 */
export function buildLlamaCpp(ctx: Ctx): Built {
  const { s, arch } = ctx;
  const L = kvLayers(arch);
  const gpuLayers = gpuLayerCount(L, s.ngl);
  const place = llamaCppPlacement(L, s.ngl, s.tensorSplit, s.gpus);
  const flash = s.attn === 'flash';
  const w = ctx.weights;
  // output.weight is its own tensor (a duplicate of token_embd when tied) and follows -ngl > L
  const headBytes = w.head > 0 ? w.head : w.embedding;
  const ubatch = s.ubatch ?? LLAMACPP_DEFAULT_UBATCH;
  const cells = Math.max(1, s.batch * (s.prompt + s.gen));
  const { k, v } = llamaCppKvBytes(ctx.kvElementBytes, s.kv, flash);
  const windowed = LLAMACPP_SWA_FAMILIES.has(arch.family);
  const policy = { mlaLatent: true, windowed, tp: 1 };
  const swa = swaCells(cells, arch.slidingWindow?.window ?? cells, s.batch, ubatch);
  // per-cell bytes with K and V element sizes averaged (K and V have equal widths except MLA, where V is absent)
  const perElement = arch.mla ? sym('bytes_k', k) : div(add(sym('bytes_k', k), sym('bytes_v', v)), 2);
  const kvAll = kvCacheExpr(arch, sym('cells', cells), 1, perElement, policy, sym('swa_cells', swa));
  const kvAllBytes = evaluate(kvAll);
  // the worst-case graph's shape; each device's buffer differs only in which nodes it runs
  const graph = { ubatch, cells, hidden: arch.hidden, heads: arch.heads, ffn: arch.ffn, vocab: arch.vocab, flash, outputOnGpu: place.outputGpu >= 0 };
  const copies = place.pipeline ? pipelineCopies(graph) : null;
  const anyOnGpu = place.outputGpu >= 0 || place.cpuLayers < L;
  const gpus = place.ranges.map(({ from, to }, g) => {
    const output = place.outputGpu === g;
    const layers = to - from;
    // with nothing offloaded the first GPU still runs the large matmuls (op offload): the one-GPU buffer
    const runs = layers > 0 || output || (!anyOnGpu && g === 0);
    const compute = runs ? computeBufferExpr({ ...graph, outputOnGpu: output, layers: layers > 0 || !anyOnGpu }) : null;
    const copyExpr = copies && (layers > 0 || output) ? (layers > 0 ? copies.withLayers : copies.outputOnly) : null;
    const weights = layerRangeBytes(w, L, from, to) + (output ? headBytes : 0);
    const kv = (kvAllBytes * layers) / Math.max(1, L);
    const buffer = (compute?.bytes ?? 0) + (copyExpr ? evaluate(copyExpr) : 0);
    return { from, to, layers, output, compute, copyExpr, weights, kv, bytes: weights + kv + buffer };
  });
  let at = 0;
  for (let g = 1; g < gpus.length; g++) if (gpus[g]!.bytes > gpus[at]!.bytes) at = g;
  const here = gpus[at]!;
  const Lsym = sym('L', Math.max(1, L));
  const Lgpu = sym('L_gpu', here.layers);
  const layerWeights = w.perLayer ? sym('W_layers', layerRangeBytes(w, L, here.from, here.to)) : div(mul(sym('W_blocks', w.blocks), Lgpu), Lsym);
  const weightsExpr = add(...(here.layers > 0 ? [layerWeights] : []), ...(here.output ? [sym('W_output', headBytes)] : []));
  const kvExpr = div(mul(kvAll, Lgpu), Lsym);
  const computeExpr = add(here.compute?.expr ?? 0, ...(here.copyExpr ? [here.copyExpr] : []));
  const multi = gpus.length > 1;
  const perGpu = multi ? gpus.map((g) => g.bytes) : undefined;
  const notes: Message[] = [];
  if (k !== v) notes.push({ code: 'llamacpp.v-f16', text: 'A quantized V cache needs flash attention (-fa); without it V stays f16.' });
  if (perGpu) notes.push(tensorSplitNote(gpus, perGpu, s.tensorSplit));
  const placed = here.layers > 0 ? `blk.${here.from}–${here.to - 1}` : 'none';
  const terms = [
    term(ctx, 'weights', weightsExpr, {
      values: { ngl: gpuLayers, format: s.weights, ...(multi ? { gpu: at, layers: placed, output: here.output ? 'yes' : 'no' } : {}) },
      source: `${w.derivation.source}; llama.cpp src/llama-model.cpp llama_model::load_tensors (layer placement; token_embd stays on the host)`,
      confidence: w.derivation.confidence,
    }),
    term(ctx, 'kv-cache', kvExpr, {
      source: "llama.cpp src/llama-kv-cache.cpp (each layer's cells on its layer's device), llama-kv-cache-iswa.cpp, PR #16812 (formulas.md §3.5)",
      confidence: 'exact',
    }),
    term(ctx, 'workspace', computeExpr, {
      values: { dominant: here.compute?.kind ?? 'none', ...(here.copyExpr ? { copies: SCHED_MAX_COPIES } : {}) },
      source: `llama.cpp llama-context.cpp graph_reserve, llama-graph.cpp, ggml-alloc.c (formulas.md §3.5; checked on logs in src/validation/fixtures/runtime-logs.json)${here.copyExpr ? '; ggml-backend.cpp ggml_backend_sched_split_graph (pipeline-parallel input copies)' : ''}`,
      confidence: 'derived',
    }),
  ];
  const onCpu = place.cpuLayers;
  const outputOnGpu = place.outputGpu >= 0;
  const host = hostMemory({
    embedding: w.embedding,
    output: outputOnGpu ? 0 : headBytes,
    layers: layerRangeBytes(w, L, 0, onCpu),
    kv: (kvAllBytes * onCpu) / Math.max(1, L),
    cpuCompute: onCpu > 0 || !outputOnGpu ? computeBuffer({ ...graph, outputOnGpu: !outputOnGpu, layers: onCpu > 0 }).bytes : 0,
    cudaHost: anyOnGpu && onCpu < L ? hostComputeBuffer(graph) + (copies ? copies.hostExtra : 0) : 0,
    outputBuffer: outputBuffer(arch.vocab, s.batch),
  });
  return {
    terms,
    allocatedBytes: here.bytes,
    live: [],
    torchAllocator: false,
    trainable: 0,
    engine: { gpuLayers, ...(multi ? { layersPerGpu: gpus.map((g) => g.layers) } : {}), host },
    notes,
    ...(perGpu ? { perGpu } : {}),
  };
}

/**
 * The inputs a GPU's graph split keeps SCHED_MAX_COPIES copies of under pipeline parallelism:
 * the f32 residual stream [h, n_ub] it receives (the token embeddings for the first GPU), and on
 * a GPU running layers the positions (i32 [n_ub]) and the KQ mask, of which the one-GPU buffer
 * already holds one. The host keeps as many copies of the mask input.
 */
function pipelineCopies(graph: ComputeBufferInput): { withLayers: Expr; outputOnly: Expr; hostExtra: number } {
  const n = SCHED_MAX_COPIES;
  const ub = sym('n_ub', Math.max(1, Math.min(graph.ubatch, graph.cells)));
  const residual = mul(n, ub, sym('h', graph.hidden), 4);
  const mask = kqMaskBytes(graph);
  return { withLayers: add(residual, mul(n, ub, 4), mul(n - 1, sym('mask', mask))), outputOnly: residual, hostExtra: (n - 1) * mask };
}

/** The per-GPU list of a llama.cpp layer split (GiB, first GPU to last). */
function tensorSplitNote(gpus: readonly { layers: number; output: boolean }[], perGpu: readonly number[], weights: readonly number[] | null): Message {
  const list = perGpu.map((b) => fixedIn(b, 'GiB')).join(' / ');
  const layers = gpus.map((g) => `${g.layers}${g.output ? '+out' : ''}`).join(' / ');
  const split = weights ? weights.join(',') : 'auto';
  return {
    code: 'llamacpp.tensor-split',
    params: { list, layers, split },
    text: `llama.cpp --tensor-split ${split} (auto: by free memory, equal for identical cards) puts ${layers} layers on the GPUs (+out: the output layer); allocated per GPU: ${list} GiB. The estimate is the most-loaded GPU.`,
  };
}

/** Host RAM of a llama.cpp run from its parts (see the header): the layers not offloaded and their KV. */
export function hostMemory(x: { embedding: number; output: number; layers: number; kv: number; cpuCompute: number; cudaHost: number; outputBuffer: number }): HostMemory {
  const embeddingAndOutput = x.embedding + x.output;
  const buffers = x.cpuCompute + x.cudaHost + x.outputBuffer;
  return { bytes: embeddingAndOutput + x.layers + x.kv + buffers, embeddingAndOutput, layers: x.layers, kv: x.kv, buffers };
}
