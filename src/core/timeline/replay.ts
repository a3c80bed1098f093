/**
 * Replays a synthesized allocation sequence through the caching-allocator model
 * (core/allocator/allocator.ts, PyTorch c10/cuda/CUDACachingAllocator.cpp DeviceCachingAllocator)
 * and samples allocated / reserved and the bytes of each category at every mark.
 */
import { CachingAllocator } from '../allocator/allocator';
import { defaultConfig } from '../allocator/config';
import type { TraceEvent } from '../allocator/trace';

export const CATEGORIES = ['weights', 'gradients', 'optimizer', 'activations', 'loss', 'temporary', 'buffers', 'kv'] as const;
export type Category = (typeof CATEGORIES)[number];

export type Phase = 'forward' | 'backward' | 'optimizer' | 'prefill' | 'decode';

/** One sample of the timeline: the figures after a group of events (allocated: its peak inside the group). */
export interface TimelinePoint {
  /** index of the sample (one per layer and phase) */
  t: number;
  /** 0-based optimizer step (training) or 0 (inference) */
  step: number;
  phase: Phase;
  /** highest allocated_bytes.all.current within the group */
  allocated: number;
  /** reserved_bytes.all.current at the end of the group */
  reserved: number;
  /** block bytes by category at the group's allocated peak */
  byCategory: Record<Category, number>;
}

/** A live tensor of the replay: the allocator keys it by number (allocator/blocks.ts TensorKey). */
export interface Handle {
  key: number;
  cat: number;
  size: number;
}

const CATEGORY_INDEX = Object.fromEntries(CATEGORIES.map((c, i) => [c, i])) as Record<Category, number>;

const emptyCats = (): Record<Category, number> => Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;

/** Largest card the simulated driver accepts (allocator run.ts MAX_CAPACITY): no OOM unless a card is given. */
const UNLIMITED = 2 ** 50;

export class Replay {
  readonly a: CachingAllocator;
  readonly points: TimelinePoint[] = [];
  /** the events as trace lines, when recording (tests re-run them through simulateTrace) */
  readonly trace: TraceEvent[] | null;
  /** false once a request did not fit the card */
  ok = true;
  step = 0;
  private next = 0;
  private cats = new Float64Array(CATEGORIES.length);
  private groupPeak = 0;
  private groupCats = new Float64Array(CATEGORIES.length);

  /** `expandable`: PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True (scenario key alloc-conf) */
  constructor(capacity: number | null, record = false, expandable = false) {
    this.a = new CachingAllocator({ capacity: capacity ?? UNLIMITED, overhead: 0, fraction: null }, { ...defaultConfig(), expandableSegments: expandable });
    this.trace = record ? [] : null;
  }

  get allocated(): number {
    return this.a.stats.arrays.allocated_bytes.all.current;
  }

  /** A tensor of `bytes` (rounded up to whole bytes); null for an empty tensor or an OOM. */
  alloc(cat: Category, bytes: number): Handle | null {
    const size = Math.ceil(bytes);
    if (!(size > 0) || !this.ok) return null;
    const key = this.next++;
    const r = this.a.malloc(key, size);
    if (!r.ok) {
      this.ok = false;
      return null;
    }
    const c = CATEGORY_INDEX[cat];
    this.cats[c]! += r.block.size; // a category index below CATEGORIES.length
    this.trace?.push({ op: 'alloc', name: `t${key}`, size, line: this.trace.length + 1 });
    const now = this.allocated;
    if (now > this.groupPeak) {
      this.groupPeak = now;
      this.groupCats.set(this.cats);
    }
    return { key, cat: c, size: r.block.size };
  }

  /** Tensors whose bytes sum to `bytes`: `unit`-sized pieces (at most `max` of them), then the rest. */
  allocSplit(cat: Category, bytes: number, units: readonly { size: number; max: number }[]): Handle[] {
    const out: Handle[] = [];
    let left = bytes;
    for (const u of units) {
      for (let k = 0; k < u.max && u.size > 0 && left >= u.size; k++) {
        const h = this.alloc(cat, u.size);
        if (h) out.push(h);
        left -= u.size;
      }
    }
    if (left >= 1) {
      const h = this.alloc(cat, left);
      if (h) out.push(h);
    }
    return out;
  }

  free(h: Handle | null | undefined): void {
    if (!h) return;
    if (this.a.free(h.key)) {
      this.cats[h.cat]! -= h.size;
      this.trace?.push({ op: 'free', name: `t${h.key}`, line: this.trace.length + 1 });
    }
  }

  freeAll(hs: readonly (Handle | null)[]): void {
    for (const h of hs) this.free(h);
  }

  /** Closes a group of events: one timeline point. */
  mark(phase: Phase): void {
    const peak = Math.max(this.groupPeak, this.allocated);
    const cats = peak > this.groupPeak ? this.cats : this.groupCats;
    const byCategory = emptyCats();
    CATEGORIES.forEach((c, i) => (byCategory[c] = cats[i]!)); // one entry per category
    this.points.push({ t: this.points.length, step: this.step, phase, allocated: peak, reserved: this.a.reserved, byCategory });
    this.groupPeak = this.allocated;
    this.groupCats.set(this.cats);
  }

  get peakAllocated(): number {
    return this.a.stats.arrays.allocated_bytes.all.peak;
  }

  /** requested_bytes.all.peak: the tensors' own sizes, before the allocator's rounding and split slack */
  get peakRequested(): number {
    return this.a.stats.arrays.requested_bytes.all.peak;
  }

  /** most tensors live at once (allocation.all.peak) */
  get peakTensors(): number {
    return this.a.stats.arrays.allocation.all.peak;
  }

  get peakReserved(): number {
    return this.a.stats.arrays.reserved_bytes.all.peak;
  }
}
