/**
 * vLLM memory model (formulas.md §3.4; vllm-project/vllm `v1/worker/gpu_worker.py::
 * determine_available_memory`, `utils/mem_utils.py::memory_profiling`,
 * `v1/kv_cache_interface.py`).
 *
 * vLLM reserves `gpu_memory_utilization × total` up front, loads the weights, runs a profiling
 * forward of `max_num_batched_tokens` tokens, and hands everything left to the paged KV cache
 * in blocks of 16 tokens. It therefore always fills the requested fraction.
 */

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
