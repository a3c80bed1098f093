/**
 * The estimate shown for varied sample lengths (`lengths=varied`): reserved memory from a replay
 * through the caching-allocator model (core/timeline estimateWithReplay), which takes tens to
 * hundreds of milliseconds. It stays off the slider's path: the settled details panel computes it
 * once per scenario, and the headline, the fit verdicts and marks, the scenario tabs and the term
 * chart show the closed form until that result is ready, then all of them show it. The replay
 * code (the timeline and the allocator model) is fetched only when a scenario first needs it: the
 * first answer for any other scenario loads none of it.
 */
import { useSyncExternalStore } from 'react';
import type { Estimate, Result, Scenario } from '../../core/types';
import { estimateOf } from './use-estimate';
import { replayDecidesReserved } from '../../core/timeline/applies';

type Timeline = typeof import('../../core/timeline');

const cache = new WeakMap<Scenario, Result<Estimate>>();
const listeners = new Set<() => void>();
let version = 0;
let timeline: Timeline | null = null;
let loading: Promise<Timeline> | null = null;

/** Scenarios whose reserved memory comes from the replay. */
export const needsReplay = (s: Scenario): boolean => replayDecidesReserved(s);

function changed(): void {
  version++;
  listeners.forEach((fn) => fn());
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** The replay code, fetched once (a failed fetch is tried again on the next call). */
export function loadReplay(): Promise<Timeline> {
  loading ??= import('../../core/timeline').then(
    (m) => {
      timeline = m;
      changed();
      return m;
    },
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/**
 * The replayed estimate (computed now if not cached); closed form where no replay applies, and
 * until the replay code has arrived (readers re-render through useReplayVersion then).
 */
export function replayedEstimateOf(s: Scenario): Result<Estimate> {
  if (!needsReplay(s)) return estimateOf(s);
  if (!timeline) {
    // offline without the chunk: the closed form stays, as before the replay is ready
    loadReplay().catch(() => undefined);
    return estimateOf(s);
  }
  let r = cache.get(s);
  if (!r) {
    r = timeline.estimateWithReplay(s);
    cache.set(s, r);
    // tell readers outside this render (the headline) once it has finished
    setTimeout(changed, 0);
  }
  return r;
}

/** Re-renders the caller when a replay finished or the replay code arrived; returns a counter. */
export function useReplayVersion(): number {
  return useSyncExternalStore(subscribe, () => version);
}

/**
 * The estimate the page shows for `s`: the replayed one when it is ready, else the closed form
 * (never computes the replay). Every total and fit verdict on screen reads this, so they change
 * together when the replay arrives. Readers re-render through useReplayVersion.
 */
export function shownEstimateOf(s: Scenario): Result<Estimate> {
  return (needsReplay(s) && cache.get(s)) || estimateOf(s);
}

/** shownEstimateOf, re-rendering the caller when a replay finishes. */
export function useShownEstimate(s: Scenario): Result<Estimate> {
  useReplayVersion();
  return shownEstimateOf(s);
}
