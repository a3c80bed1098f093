/**
 * Active memory over a simulated run, stacked by the top user stack frame of each allocation
 * (frames.ts; issue #13 §2, as memory_viz's "Active Memory Timeline" colours by stack). A tensor
 * counts its block size (allocated_bytes, docs/reference/allocator.md §6.1) from its alloc until its
 * free, so the series add up to allocated_bytes.all.current at every point. The frames with the
 * highest peaks get a series each; the rest are summed as "other", allocations without frames as
 * "unknown".
 */
import type { SimRun } from './run';
import { CHART_POINTS, thinIndices } from './run-series';

export type FrameGroup = { kind: 'frame'; frame: string } | { kind: 'other' } | { kind: 'unknown' };

export interface FrameSeries {
  groups: FrameGroup[];
  /** each group's highest active bytes over the run (for "other": of the sum) */
  peaks: number[];
  /** `bytes[g]` of group g after step `step` (0 = before the first event) */
  points: { step: number; bytes: number[] }[];
}

/** Most series drawn, "other" and "unknown" included. */
export const MAX_FRAME_SERIES = 8;

/** Active bytes by top frame; null when no event of the run carries a frame. */
export function activeByFrame(run: Pick<SimRun, 'events' | 'timeline'>, maxSeries = MAX_FRAME_SERIES, maxPoints = CHART_POINTS): FrameSeries | null {
  const { events, timeline: t } = run;
  const n = events.length;
  // per event: an alloc's group id (0 unknown, frames numbered by first appearance), a free's alloc
  // index, −1 when it moves no bytes (failed, skipped, empty_cache)
  const ids = new Map<string, number>();
  const UNKNOWN = 0;
  const groupOf = new Int32Array(n).fill(-1);
  const liveAt = new Map<string, number>();
  for (let i = 0; i < n; i++) {
    const e = events[i]!;
    if (e.op === 'alloc' && t.outcome[i] === 0) {
      let g = UNKNOWN;
      if (e.frame !== undefined) {
        g = ids.get(e.frame) ?? ids.size + 1;
        ids.set(e.frame, g);
      }
      groupOf[i] = g;
      liveAt.set(e.name, i);
    } else if (e.op === 'free' && t.outcome[i] === 0) {
      groupOf[i] = liveAt.get(e.name) ?? -1;
      liveAt.delete(e.name);
    }
  }
  if (ids.size === 0) return null;
  // bytes each event adds (alloc) or removes (free, pointing at its alloc): one pass for the peaks
  const delta = (i: number): [number, number] => {
    const g = groupOf[i]!;
    if (g < 0) return [-1, 0];
    const e = events[i]!;
    if (e.op === 'alloc') return [g, t.blockSize[i]!];
    return [groupOf[g]!, -t.blockSize[g]!]; // a free's entry is its alloc's index
  };
  const groupsN = ids.size + 1;
  const cur = new Float64Array(groupsN);
  const peak = new Float64Array(groupsN);
  for (let i = 0; i < n; i++) {
    const [g, d] = delta(i);
    if (g < 0) continue;
    cur[g]! += d;
    if (cur[g]! > peak[g]!) peak[g] = cur[g]!;
  }
  // series: the highest-peak frames, "other" when some are left over, "unknown" when any allocation had no frame
  const frames = [...ids.entries()].sort((a, b) => peak[b[1]]! - peak[a[1]]! || a[1] - b[1]);
  const hasUnknown = peak[UNKNOWN]! > 0;
  const room = Math.max(1, maxSeries - (hasUnknown ? 1 : 0));
  const keep = frames.length <= room ? frames : frames.slice(0, room - 1);
  const groups: FrameGroup[] = keep.map(([frame]) => ({ kind: 'frame', frame }));
  const slot = new Int32Array(groupsN);
  keep.forEach(([, g], s) => (slot[g] = s));
  const other = keep.length < frames.length ? groups.push({ kind: 'other' }) - 1 : -1;
  for (const [, g] of frames.slice(keep.length)) slot[g] = other;
  const unknown = hasUnknown ? groups.push({ kind: 'unknown' }) - 1 : -1;
  slot[UNKNOWN] = unknown;
  // second pass: the series at the thinned steps (each bucket's highest allocated), and each series' peak
  const picks = thinIndices(n + 1, maxPoints, (k) => (k === 0 ? 0 : t.allocated[k - 1]!));
  const bytes = new Array<number>(groups.length).fill(0);
  const peaks = new Array<number>(groups.length).fill(0);
  const points: FrameSeries['points'] = [];
  let next = 0;
  for (let k = 0; k <= n; k++) {
    if (k > 0) {
      const [g, d] = delta(k - 1);
      if (g >= 0) {
        const s = slot[g]!;
        bytes[s]! += d;
        if (bytes[s]! > peaks[s]!) peaks[s] = bytes[s]!;
      }
    }
    if (next < picks.length && picks[next] === k) {
      points.push({ step: k, bytes: [...bytes] });
      next++;
    }
  }
  return { groups, peaks, points };
}
