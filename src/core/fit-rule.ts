/**
 * The one fit rule (apart from the solvers in solve.ts, so the page's first screen, which only
 * judges fits, does not carry them).
 */
import type { Estimate, Scenario } from './types';

/**
 * Scenarios whose memory is sized to the card: vLLM pre-allocates gpu_memory_utilization of it, so
 * each card needs its own estimate. Every other scenario's estimate is the same on any card, and
 * one estimate is judged against each card's capacity (recommend, the page's marks and verdict).
 */
export function sizesToCard(s: Scenario): boolean {
  return s.mode === 'inference' && s.engine === 'vllm';
}

/**
 * The fit rule every "does it fit" answer uses (maxBatch, maxContext, minGpus, the page's
 * headline): the device total (nvidia-smi view) within capacity; vLLM pre-allocates its pool to
 * gpu_memory_utilization, so it also needs KV-cache room for batch × (prompt + gen) tokens
 * (vLLM refuses to start when max_model_len does not fit; requests beyond the pool queue).
 * `e` must be the estimate of `s` on a device of that capacity.
 */
export function fitsWithin(s: Scenario, e: Estimate, capacityBytes: number): boolean {
  if (e.deviceBytes > capacityBytes) return false;
  return !sizesToCard(s) || (e.engine?.kvTokens ?? 0) >= s.batch * (s.prompt + s.gen);
}
