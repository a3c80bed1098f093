/**
 * Per-step series of a simulated run for charts, thinned to a bounded number of points: a 10^6-event
 * import still draws a few hundred points, and each kept point is a real step (the bucket's
 * highest, so peaks stay visible). Point `step` k is the state after event k (0: before the first).
 * Figures: allocated_bytes / reserved_bytes .all.current (docs/reference/allocator.md §6.1) and the
 * largest free block the cache holds (AllocatorView.largestFreeBlock).
 */
import type { Timeline } from './run';

/** Points a chart draws by default. */
export const CHART_POINTS = 600;

/**
 * Indices 0…n−1 thinned to at most `max` + 2: consecutive buckets of ⌈n / max⌉ indices, each
 * represented by its highest-scoring index (the first on ties), plus the first and last index so a
 * chart spans the whole run. All of them when n ≤ max.
 */
export function thinIndices(n: number, max: number, score: (i: number) => number): number[] {
  const size = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(max))));
  const out: number[] = [];
  for (let i = 0; i < n; i += size) {
    let best = i;
    for (let j = i + 1; j < Math.min(n, i + size); j++) if (score(j) > score(best)) best = j;
    out.push(best);
  }
  if (out.length > 0 && out[0] !== 0) out.unshift(0);
  if (out.length > 0 && out[out.length - 1] !== n - 1) out.push(n - 1);
  return out;
}

export interface MemoryPoint {
  /** 0 = before the first event, k = after event k */
  step: number;
  allocated: number;
  reserved: number;
}

export interface FragmentationPoint {
  step: number;
  /** reserved − allocated: bytes PyTorch holds but no tensor uses */
  cachedFree: number;
  /** the largest of those free blocks: the biggest tensor the cache can serve without a new segment */
  largestFree: number;
}

type Columns = Pick<Timeline, 'allocated' | 'reserved' | 'largestFree'>;

/** Point k's figure from a per-event column (point 0, before any event, is 0). */
const at = (col: Float64Array, k: number): number => (k === 0 ? 0 : col[k - 1]!); // 1 ≤ k ≤ col.length

/** Allocated and reserved after each step; a thinned bucket keeps its highest reserved step. */
export function timelinePoints(t: Pick<Timeline, 'allocated' | 'reserved'>, max = CHART_POINTS): MemoryPoint[] {
  const picks = thinIndices(t.reserved.length + 1, max, (k) => at(t.reserved, k));
  return picks.map((k) => ({ step: k, allocated: at(t.allocated, k), reserved: at(t.reserved, k) }));
}

/** Fragmentation after each step; a thinned bucket keeps its step with the most cached free bytes. */
export function fragmentationPoints(t: Columns, max = CHART_POINTS): FragmentationPoint[] {
  const cached = (k: number) => at(t.reserved, k) - at(t.allocated, k);
  return thinIndices(t.reserved.length + 1, max, cached).map((k) => ({ step: k, cachedFree: cached(k), largestFree: at(t.largestFree, k) }));
}
