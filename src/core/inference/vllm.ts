/**
 * vLLM memory model (formulas.md §3.4; vllm-project/vllm `v1/worker/gpu_worker.py::
 * determine_available_memory`, `utils/mem_utils.py::memory_profiling`,
 * `v1/kv_cache_interface.py`).
 *
 * vLLM reserves `gpu_memory_utilization × total` up front, loads the weights, runs a profiling
 * forward of `max_num_batched_tokens` tokens, and hands everything left to the paged KV cache
 * in blocks of 16 tokens. It therefore always fills the requested fraction.
 */
import type { Built, Ctx } from '../estimate-context';
import { term, workspaceTerm } from '../estimate-context';
import { CUBLAS_WORKSPACE_BYTES, CUDA_CONTEXT_BYTES, DRIVER_RESERVED_BYTES } from '../runtime';
import type { Message } from '../types';
import { kvBytesPerToken, kvCacheBytes } from './kv';
import { stateTerm } from './state';
import { recurrentState } from '../model/hybrid';
import { forwardTransient } from './transient';
import { inferenceElementBytes, stageLayerFraction, weightsPerGpu } from './transformers';

/** Tokens per KV block (`block_size` default). */
export const VLLM_BLOCK_SIZE = 16;
/**
 * `max_num_batched_tokens` when chunked prefill is on and the user sets none: 8192 (vLLM V1
 * `EngineArgs` default for the OpenAI server on large GPUs; heuristic across versions).
 */
export const VLLM_DEFAULT_BATCHED_TOKENS = 8192;
/** `max_num_seqs` default: the sampler's dummy run samples this many sequences at most. */
export const VLLM_MAX_NUM_SEQS = 256;

/**
 * Hidden-size rows alive at the MLP during the profile run: vLLM's fused add-RMSNorm keeps the
 * residual and the normed input, plus the attention output it was added from (no separate
 * inputs_embeds as in HF). Checked on vllm-project/vllm#10517 (Llama-3.1-8B, RTX 3090): the
 * profile peak grows by (17.98 − 17.06) GiB over 29000 − 20000 tokens = 109.8 KB/token, against
 * 3·h·2 + 3·f·2 = 110.6 KB/token (4 rows would be 118.8 KB).
 */
const VLLM_HIDDEN_ROWS = 3;

/**
 * Bytes alive at the peak of the sampler warm-up that closes the profile run (V0 `profile_run`
 * samples with top_p = 0.99, top_k = V − 1, so the sort path runs; V1 `_dummy_sampler_run`
 * likewise): per logit (sequence × vocabulary entry) the model-dtype logits the runner still holds
 * (e) and their fp32 copy (4), plus the larger of two moments in `_apply_top_k_top_p`
 * (vllm `model_executor/layers/sampler.py`):
 * - during `logits.sort(dim=-1)`: the sorted values (4) and int64 indices (8), and the sort's own
 *   scratch — rows longer than 4096 go to `launch_stable_sort_kernel`, whose
 *   `segmented_sort_pairs` (≥ 128 rows, pytorch aten/src/ATen/native/cuda/SortStable.cu) fills
 *   an int64 index input (8) and calls cub `DeviceSegmentedRadixSort::SortPairs`, which needs
 *   alternate key and value buffers (4 + 8): 32;
 * - after it, its locals: sorted values and indices (12), top-k mask (1), softmax (4), cumsum (4),
 *   top-p mask (1), scattered-back logits (4): 26.
 * Plus the forward's final hidden states (tokens × h × e), still referenced by the runner.
 * Logits are gathered to full vocabulary on every rank: not ÷ tp. vllm PR #10511 prints the same
 * 1.26 GiB activation peak for Llama-3-8B at tp 1 and tp 2 (this count: 1.22 GiB).
 */
export function vllmSamplerBytes(sequences: number, vocab: number, e: number, tokens: number, hidden: number): number {
  return sequences * vocab * (e + 4 + Math.max(SORT_PHASE_BYTES, AFTER_SORT_BYTES)) + tokens * hidden * e;
}

/** sorted values 4 + indices 8 + index input 8 + cub alternate keys 4 and values 8 */
const SORT_PHASE_BYTES = 32;
/** sorted 4 + indices 8 + top-k mask 1 + softmax 4 + cumsum 4 + top-p mask 1 + scatter 4 */
const AFTER_SORT_BYTES = 26;

/** What vLLM calls total_gpu_memory: the nvidia-smi capacity less the driver's share (runtime.ts). */
export function vllmVisibleTotal(capacityBytes: number): number {
  return Math.max(0, capacityBytes - DRIVER_RESERVED_BYTES);
}

export interface VllmPool {
  /** ceil(total × utilization) */
  requestedBytes: number;
  /** requested − weights − profile peak − non-torch */
  kvPoolBytes: number;
  /** whole blocks × block size */
  kvTokens: number;
}

/**
 * KV pool left after weights and the profiling peak (steps 1–4 of formulas.md §3.4).
 * `capacityBytes` is vLLM's total_gpu_memory (vllmVisibleTotal of the catalogue capacity).
 * `perTokenBytes`: KV bytes per token over all layers on this GPU. Never negative.
 */
export function vllmPool(capacityBytes: number, util: number, nonKvBytes: number, perTokenBytes: number): VllmPool {
  const requestedBytes = Math.ceil(Math.max(0, capacityBytes) * Math.min(1, Math.max(0, util)));
  const kvPoolRaw = Math.max(0, requestedBytes - nonKvBytes);
  const blockBytes = VLLM_BLOCK_SIZE * Math.max(1, perTokenBytes);
  const blocks = Math.floor(kvPoolRaw / blockBytes);
  return { requestedBytes, kvPoolBytes: blocks * blockBytes, kvTokens: blocks * VLLM_BLOCK_SIZE };
}

/**
 * vLLM terms: weights (÷ tp, pipeline stage), the profiling-run peak of `max_num_batched_tokens`
 * tokens through fused kernels (flash attention, merged gate_up) or the sampler warm-up over
 * `max_num_seqs` sequences, whichever is larger, and the KV pool that fills what is left of
 * utilization × capacity. Without a chosen GPU the pool is sized to the scenario's own need.
 */
export function buildVllm(ctx: Ctx): Built {
  const { s, arch } = ctx;
  const e = inferenceElementBytes(ctx);
  const policy = { mlaLatent: true, windowed: true, tp: s.tp };
  const frac = stageLayerFraction(ctx, s.pp);
  const perToken = kvBytesPerToken(arch, ctx.kvElementBytes, policy) * frac;
  const batched = s.ubatch ?? VLLM_DEFAULT_BATCHED_TOKENS;
  const forward = forwardTransient(arch, batched, batched, 1, e, 'flash', s.tp, 0, VLLM_HIDDEN_ROWS);
  const sequences = Math.min(batched, VLLM_MAX_NUM_SEQS);
  const sampler = vllmSamplerBytes(sequences, arch.vocab, e, batched, arch.hidden);
  const profileBytes = Math.max(forward.bytes, sampler);
  const weights = weightsPerGpu(ctx, s.tp, s.pp);
  const nonKv = weights + profileBytes + CUBLAS_WORKSPACE_BYTES;
  const context = s.prompt + s.gen;
  const needTokens = s.batch * context;
  const needBytes = kvCacheBytes(arch, context, s.batch, ctx.kvElementBytes, policy) * frac;
  // hybrids: one recurrent-state slot per running sequence, taken from the same pool as the KV blocks
  const state = arch.hybrid ? recurrentState(arch.hybrid, 'vllm', e, s.tp) : null;
  const perSeqState = state ? state.bytes * frac : 0;
  let stateBytes = s.batch * perSeqState;
  // bytes that KV blocks and state slots share: the whole pool with a GPU, else this batch's need
  let shared = needBytes + stateBytes;
  const notes: Message[] = [];
  let kvBytes: number;
  let kvTokens: number;
  let engineReserveBytes = 0;
  if (ctx.capacityBytes !== null) {
    const total = vllmVisibleTotal(ctx.capacityBytes);
    shared = vllmPool(total, s.gpuUtil, nonKv + CUDA_CONTEXT_BYTES, perToken).kvPoolBytes;
    stateBytes = Math.min(stateBytes, shared);
    const pool = vllmPool(total, s.gpuUtil, nonKv + CUDA_CONTEXT_BYTES + stateBytes, perToken);
    kvBytes = pool.kvPoolBytes;
    kvTokens = pool.kvTokens;
    engineReserveBytes = Math.max(0, pool.requestedBytes - CUDA_CONTEXT_BYTES - nonKv - stateBytes - kvBytes);
    if (kvTokens < needTokens) {
      notes.push({
        code: 'vllm.kv-short',
        params: { kvTokens, needTokens },
        text: `The KV pool holds ${kvTokens} tokens, fewer than batch × (prompt + gen) = ${needTokens}: requests will queue or be preempted.`,
      });
    }
  } else {
    const blockBytes = VLLM_BLOCK_SIZE * Math.max(1, perToken);
    kvBytes = Math.ceil(needBytes / blockBytes) * blockBytes;
    kvTokens = Math.round(kvBytes / Math.max(1, perToken));
    notes.push({ code: 'vllm.no-gpu', text: 'No GPU chosen: vLLM would fill gpu_memory_utilization of the device; the KV pool shown is only what this batch needs.' });
  }
  const terms = [
    term(ctx, 'weights', weights, {
      formula: '(W_blocks/p + W_embedding|head)/t',
      values: { W: ctx.weights.total, t: s.tp, p: s.pp, format: s.weights },
      source: ctx.weights.derivation.source,
      confidence: ctx.weights.derivation.confidence,
    }),
    term(ctx, 'kv-cache', kvBytes, {
      formula: ctx.capacityBytes !== null
        ? 'floor((util·(C − driver) − context − weights − profile peak) / (16·kv_token))·16·kv_token'
        : 'ceil(b·(s_in+s_out)·kv_token / block)·block',
      values: { util: s.gpuUtil, C: ctx.capacityBytes ?? 'none', driver: DRIVER_RESERVED_BYTES, kv_token: perToken, block_size: VLLM_BLOCK_SIZE, kvTokens },
      source: 'vllm v1/worker/gpu_worker.py determine_available_memory; v1/kv_cache_interface.py (formulas.md §3.4)',
      confidence: 'derived',
    }),
    term(ctx, 'activations', profileBytes, {
      formula: `max(${forward.formula}, seqs·V·(e + 30))`,
      values: { ...forward.values, seqs: sequences, max_num_batched_tokens: batched, peak: forward.bytes >= sampler ? 'forward' : 'sampler' },
      source: 'vllm profile_run over max_num_batched_tokens, then the sampler warm-up (formulas.md §3.4; checked on vllm #10517, PR #10511)',
      confidence: 'heuristic',
    }),
    ...(state ? [stateTerm(ctx, arch.hybrid!, state, stateBytes, 'vllm')] : []),
    workspaceTerm(ctx),
  ];
  if (engineReserveBytes > 0) {
    terms.push(term(ctx, 'engine-reserve', engineReserveBytes, {
      formula: 'util·C − context − allocated (partial KV block)',
      values: { util: s.gpuUtil },
      source: 'formulas.md §3.4: vLLM always fills gpu_memory_utilization',
      confidence: 'derived',
    }, 'reserved', false));
  }
  return {
    terms,
    allocatedBytes: nonKv + kvBytes + stateBytes,
    live: [],
    engineReserveBytes,
    torchAllocator: true,
    trainable: 0,
    // a hybrid sequence needs its KV tokens and one state slot: (pool + state) / (kv_token·context + state per sequence)
    engine: { kvTokens, concurrency: state ? shared / Math.max(1, perToken * context + perSeqState) : kvTokens / Math.max(1, context) },
    notes,
  };
}
