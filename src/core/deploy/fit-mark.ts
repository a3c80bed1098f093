/**
 * The mark a GPU gets for a scenario: it fits, it fits but tightly, or it does not fit.
 *
 * - 'no': the fit rule every answer uses (solve.ts fitsWithin) says no.
 * - 'tight': it fits by the estimate, but not if the memory the scenario needs is `high` times the
 *   estimate. Callers pass the upper end of the estimate's error band as `high` (the page and the
 *   CLI: src/validation/bands.ts, whose 80 % band is built from published measurements; the core
 *   does not read them). With `high` = 1 nothing is tight.
 * - 'fits': it fits at the upper end too.
 *
 * What a scenario needs is its device total (what nvidia-smi shows), within the capacity, except
 * under vLLM, which pre-allocates gpu_memory_utilization of the card and gives its KV pool what the
 * weights and the profiling run leave (vllm v1/worker/gpu_worker.py determine_available_memory): it
 * needs its total less the pool's unused part, within that pre-allocated total. More memory spent
 * elsewhere shrinks the pool, and the batch still fits while the pool holds its tokens.
 */
import type { Estimate, Scenario } from '../types';
import { fitsWithin, sizesToCard } from '../fit-rule';

export type FitMark = 'fits' | 'tight' | 'no';

/** Bytes `s` needs on one card: the device total; vLLM: its total less the KV pool's unused part. */
export function needBytes(s: Scenario, e: Estimate): number {
  const tokens = e.engine?.kvTokens ?? 0;
  if (!sizesToCard(s) || tokens <= 0) return e.deviceBytes;
  const pool = e.terms.find((t) => t.id === 'kv-cache')?.bytes ?? 0;
  const unused = pool * Math.max(0, 1 - (s.batch * (s.prompt + s.gen)) / tokens);
  return e.deviceBytes - unused;
}

/**
 * Mark of `s` (estimated as `e` on that card) on a card of `capacityBytes`, with `high` ≥ 1 the
 * factor the need may reach (the upper end of its error band).
 */
export function fitMark(s: Scenario, e: Estimate, capacityBytes: number, high: number): FitMark {
  if (!fitsWithin(s, e, capacityBytes)) return 'no';
  const budget = sizesToCard(s) ? Math.min(capacityBytes, e.deviceBytes) : capacityBytes;
  return needBytes(s, e) * Math.max(1, high) > budget ? 'tight' : 'fits';
}
