/**
 * Plain-data views of the allocator state for pages and CLIs: segments with their blocks,
 * memory_stats() counters and the card's free memory (docs/reference/allocator.md §2, §6.1, §10).
 */
import type { PoolKind } from './constants';
import type { CachingAllocator } from './allocator';
import type { Block } from './blocks';
import { toMemoryStats, type MemoryStats } from './stats';

export type BlockState = 'allocated' | 'free' | 'unmapped';

export interface BlockView {
  addr: number;
  size: number;
  state: BlockState;
  /** tensor name when allocated */
  name?: string;
  /** original request (allocated blocks): size − requested is rounding/split slack */
  requested?: number;
}

export interface SegmentView {
  id: number;
  addr: number;
  pool: PoolKind;
  expandable: boolean;
  /** address range: cudaMalloc size, or the whole virtual range when expandable */
  size: number;
  /** bytes backed by device memory (size minus unmapped blocks) */
  reserved: number;
  blocks: BlockView[];
}

export interface AllocatorView {
  segments: SegmentView[];
  stats: MemoryStats;
  capacity: number;
  /** non-PyTorch memory on the card */
  overhead: number;
  /** capacity − reserved − overhead: what cudaMemGetInfo would call free */
  deviceFree: number;
  /** reserved − allocated: free bytes held in PyTorch's cache */
  cachedFree: number;
  /** the largest single free (mapped) block: the biggest tensor the cache can serve without a new segment */
  largestFreeBlock: number;
}

/** Snapshot of the allocator as plain, JSON-safe data; `nameOf` names the tensors keyed by number (trace-columns.ts). */
export function viewAllocator(a: CachingAllocator, nameOf: (key: number) => string = String): AllocatorView {
  let largestFreeBlock = 0;
  const segments: SegmentView[] = a.segments.map((seg) => {
    const blocks: BlockView[] = [];
    let reserved = 0;
    for (let b: Block | null = seg.head; b; b = b.next) {
      if (!b.allocated && b.mapped && b.size > largestFreeBlock) largestFreeBlock = b.size;
      const state: BlockState = b.allocated ? 'allocated' : b.mapped ? 'free' : 'unmapped';
      if (b.mapped) reserved += b.size;
      blocks.push(
        b.allocated ? { addr: b.addr, size: b.size, state, name: typeof b.name === 'number' ? nameOf(b.name) : (b.name ?? ''), requested: b.requested } : { addr: b.addr, size: b.size, state },
      );
    }
    return { id: seg.id, addr: seg.addr, pool: seg.pool, expandable: seg.expandable, size: seg.size, reserved, blocks };
  });
  const { capacity, overhead } = a.device;
  return {
    segments,
    stats: toMemoryStats(a.stats, a.config.maxSplitSize),
    capacity,
    overhead,
    deviceFree: Math.max(0, capacity - a.reserved - overhead),
    cachedFree: a.reserved - a.stats.arrays.allocated_bytes.all.current,
    largestFreeBlock,
  };
}
