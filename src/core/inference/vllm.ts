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
import { CUBLAS_WORKSPACE_BYTES, CUDA_CONTEXT_BYTES } from '../runtime';
import type { Message } from '../types';
import { kvBytesPerToken, kvCacheBytes } from './kv';
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
 * tokens through fused kernels (flash attention, merged gate_up) plus fp32 sampler logits for
 * up to `max_num_seqs` sequences, and the KV pool that fills what is left of
 * utilization × capacity. Without a chosen GPU the pool is sized to the scenario's own need.
 */
export function buildVllm(ctx: Ctx): Built {
  const { s, arch } = ctx;
  const e = inferenceElementBytes(ctx);
  const policy = { mlaLatent: true, windowed: true, tp: s.tp };
  const frac = stageLayerFraction(ctx, s.pp);
  const perToken = kvBytesPerToken(arch, ctx.kvElementBytes, policy) * frac;
  const batched = s.ubatch ?? VLLM_DEFAULT_BATCHED_TOKENS;
  const profile = forwardTransient(arch, batched, batched, 1, e, 'flash', s.tp, Math.min(batched, VLLM_MAX_NUM_SEQS));
  const weights = weightsPerGpu(ctx, s.tp, s.pp);
  const nonKv = weights + profile.bytes + CUBLAS_WORKSPACE_BYTES;
  const context = s.prompt + s.gen;
  const needTokens = s.batch * context;
  const needBytes = kvCacheBytes(arch, context, s.batch, ctx.kvElementBytes, policy) * frac;
  const notes: Message[] = [];
  let kvBytes: number;
  let kvTokens: number;
  let engineReserveBytes = 0;
  if (ctx.capacityBytes !== null) {
    const pool = vllmPool(ctx.capacityBytes, s.gpuUtil, nonKv + CUDA_CONTEXT_BYTES, perToken);
    kvBytes = pool.kvPoolBytes;
    kvTokens = pool.kvTokens;
    engineReserveBytes = Math.max(0, pool.requestedBytes - CUDA_CONTEXT_BYTES - nonKv - kvBytes);
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
        ? 'floor((util·C − context − weights − profile peak) / (16·kv_token))·16·kv_token'
        : 'ceil(b·(s_in+s_out)·kv_token / block)·block',
      values: { util: s.gpuUtil, C: ctx.capacityBytes ?? 'none', kv_token: perToken, block_size: VLLM_BLOCK_SIZE, kvTokens },
      source: 'vllm v1/worker/gpu_worker.py determine_available_memory; v1/kv_cache_interface.py (formulas.md §3.4)',
      confidence: 'derived',
    }),
    term(ctx, 'activations', profile.bytes, {
      formula: profile.formula,
      values: { ...profile.values, max_num_batched_tokens: batched },
      source: 'vllm profile_run over max_num_batched_tokens (formulas.md §3.4)',
      confidence: 'heuristic',
    }),
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
    allocatedBytes: nonKv + kvBytes,
    live: [],
    engineReserveBytes,
    torchAllocator: true,
    trainable: 0,
    engine: { kvTokens, concurrency: kvTokens / Math.max(1, context) },
    notes,
  };
}
