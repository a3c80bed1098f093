/**
 * The estimate shown for varied sample lengths (`lengths=varied`): reserved memory from a replay
 * through the caching-allocator model (core/timeline estimateWithReplay), which takes tens to
 * hundreds of milliseconds. It stays off the slider's path: the settled details panel computes it
 * once per scenario, and the headline shows the closed form until that result is ready.
 */
import { useSyncExternalStore } from 'react';
import { estimateWithReplay } from '../../core/timeline';
import type { Estimate, Result, Scenario } from '../../core/types';
import { estimateOf } from './use-estimate';

const cache = new WeakMap<Scenario, Result<Estimate>>();
const listeners = new Set<() => void>();
let version = 0;

/** Scenarios whose reserved memory comes from the replay. */
export const needsReplay = (s: Scenario): boolean => s.mode === 'training' && s.lengths === 'varied';

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The replayed estimate (computed now if not cached); closed form where no replay applies. */
export function replayedEstimateOf(s: Scenario): Result<Estimate> {
  if (!needsReplay(s)) return estimateOf(s);
  let r = cache.get(s);
  if (!r) {
    r = estimateWithReplay(s);
    cache.set(s, r);
    version++;
    // tell readers outside this render (the headline) once it has finished
    setTimeout(() => listeners.forEach((fn) => fn()), 0);
  }
  return r;
}

/** The replayed estimate when it is ready, else the closed form (never computes the replay). */
export function useShownEstimate(s: Scenario): Result<Estimate> {
  useSyncExternalStore(subscribe, () => version);
  return (needsReplay(s) && cache.get(s)) || estimateOf(s);
}
