/**
 * The caching allocator's ways of giving memory back to the driver: release_block,
 * release_available_cached_blocks, release_cached_blocks (empty_cache) and
 * garbage_collect_cached_blocks. Source: c10/cuda/CUDACachingAllocator.cpp; docs/reference/allocator.md §3–§5.
 */
import type { PoolKind } from './constants';
import { isSplit, type Block } from './blocks';
import type { AllocatorState } from './allocator-state';
import { releaseExpandableFree } from './expandable';
import { bump, decrease } from './stats';

/** release_block: cudaFree of a whole free segment (docs/reference/allocator.md §4). */
function releaseBlock(a: AllocatorState, b: Block): void {
  const pool = b.seg.pool;
  a.pools[pool].remove(b);
  a.removeSegment(b.seg);
  a.reserved -= b.size;
  a.stats.num_device_free += 1;
  bump(a.stats, 'segment', pool, -1);
  bump(a.stats, 'reserved_bytes', pool, -b.size);
  if (b.size >= a.M) decrease(a.stats.oversize_segments, 1);
}

/**
 * release_available_cached_blocks: frees oversize cached blocks only (docs/reference/allocator.md §3).
 * Only unsplit blocks are cudaFree-able; with M in whole MB a free split block never reaches M.
 */
export function releaseAvailable(a: AllocatorState, pool: PoolKind, size: number): boolean {
  if (a.M === Infinity) return false;
  const key = Math.max(size, a.M);
  const p = a.pools[pool];
  const i = p.firstAtLeast(key);
  const fit = i < p.length ? p.at(i) : null;
  if (fit && !fit.seg.expandable && !isSplit(fit)) {
    releaseBlock(a, fit);
    return true;
  }
  // the blocks below the key, largest first, while they are oversize (a copy: releasing removes)
  const below = i > 0 ? p.blocks.slice(0, i) : [];
  let total = 0;
  for (let j = below.length - 1; j >= 0 && total < key; j--) {
    const b = below[j]!; // 0 ≤ j < below.length
    if (b.size < a.M) break;
    if (!b.seg.expandable && !isSplit(b)) {
      total += b.size;
      releaseBlock(a, b);
    }
  }
  return total >= key;
}

/** release_cached_blocks: the full flush behind empty_cache() (docs/reference/allocator.md §3, §5). */
export function releaseCached(a: AllocatorState): true {
  a.stats.num_sync_all_streams += 1;
  for (const pool of ['large', 'small'] as const) {
    // a copy, largest first: releasing removes blocks from the pool
    const list = a.pools[pool].blocks;
    for (let i = list.length - 1; i >= 0; i--) {
      const b = list[i]!; // 0 ≤ i < list.length
      if (!b.seg.expandable && !isSplit(b)) releaseBlock(a, b);
    }
    if (a.config.expandableSegments) releaseExpandableFree(a, pool);
  }
  return true;
}

/** garbage_collect_cached_blocks: frees old whole free large segments (docs/reference/allocator.md §3). */
export function garbageCollect(a: AllocatorState): void {
  const threshold = Math.floor(a.config.garbageCollectionThreshold * (a.allowedMax ?? 0));
  if (a.reserved <= threshold) return;
  const target = a.reserved - threshold;
  const age = (b: Block) => a.gcCalls.large - b.gcBase;
  let totalAge = 0;
  let count = 0;
  for (const b of a.pools.large.blocks) {
    if (!isSplit(b)) {
      totalAge += age(b);
      count += 1;
    }
  }
  let reclaimed = 0;
  let freed = true;
  while (reclaimed < target && freed && count > 0) {
    const threshAge = totalAge / count;
    freed = false;
    for (const b of a.pools.large.blocks) {
      if (!isSplit(b) && !b.seg.expandable && age(b) >= threshAge) {
        freed = true;
        reclaimed += b.size;
        totalAge -= age(b);
        count -= 1;
        releaseBlock(a, b);
      }
    }
  }
}
