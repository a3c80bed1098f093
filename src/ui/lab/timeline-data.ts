import type { Timeline } from '../../core/allocator/run';

export interface TimelinePoint {
  /** 0 = before the first event, k = after event k */
  step: number;
  allocated: number;
  reserved: number;
}

/**
 * Allocated/reserved after each step, thinned to at most `max` points for long (imported) traces.
 * Thinning keeps, per bucket, the step with the highest reserved figure so peaks stay visible.
 */
export function timelinePoints(t: Pick<Timeline, 'allocated' | 'reserved'>, max = 1500): TimelinePoint[] {
  const all: TimelinePoint[] = [{ step: 0, allocated: 0, reserved: 0 }];
  for (let i = 0; i < t.reserved.length; i++) all.push({ step: i + 1, allocated: t.allocated[i], reserved: t.reserved[i] });
  if (all.length <= max) return all;
  const size = Math.ceil(all.length / max);
  const out: TimelinePoint[] = [];
  for (let i = 0; i < all.length; i += size) {
    let best = all[i];
    for (let j = i + 1; j < Math.min(all.length, i + size); j++) if (all[j].reserved > best.reserved) best = all[j];
    out.push(best);
  }
  return out;
}
