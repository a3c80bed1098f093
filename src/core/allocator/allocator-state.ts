/**
 * What the allocator's helpers (expandable.ts, release.ts, clone.ts) read and change: the state
 * of the caching allocator and the primitives they share with it. CachingAllocator (allocator.ts)
 * implements it; the helpers take this interface, so allocator.ts imports them and none of them
 * imports allocator.ts back.
 */
import type { AllocatorConfig } from './config';
import type { PoolKind } from './constants';
import type { AddressOrderedPool, Block, Segment, SizeOrderedPool, TensorKey } from './blocks';
import type { DeviceStats } from './stats';

export interface AllocatorState {
  stats: DeviceStats;
  segments: Segment[];
  pools: Record<PoolKind, SizeOrderedPool>;
  unmapped: Record<PoolKind, AddressOrderedPool>;
  live: Map<TensorKey, Block>;
  reserved: number;
  gcCalls: Record<PoolKind, number>;
  nextSegmentId: number;
  readonly M: number;
  readonly allowedMax: number | null;
  readonly device: { readonly capacity: number };
  readonly config: AllocatorConfig;
  insertFree(b: Block): void;
  deviceHasRoom(bytes: number): boolean;
  addSegment(pool: PoolKind, size: number, expandable: boolean, at?: number): Segment;
  removeSegment(seg: Segment): void;
  tryMerge(dst: Block, src: Block | null): number;
}
