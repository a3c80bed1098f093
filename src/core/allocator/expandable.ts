/**
 * expandable_segments:True — one growing virtual range per pool, physical pages mapped on demand.
 * Source: c10/cuda/CUDACachingAllocator.cpp (Note [Expandable Segments], find_expandable_block,
 * map_block, try_allocate_expandable_block, unmap_block, release_blocks); docs/reference/allocator.md §5.
 */
import { kLargePage, kSmallPage, type PoolKind } from './constants';
import { newBlock, splice, type Block } from './blocks';
import type { AllocatorState } from './allocator-state';
import { bump } from './stats';

const pageOf = (pool: PoolKind): number => (pool === 'small' ? kSmallPage : kLargePage);

const allocatable = (b: Block | null): b is Block => b !== null && !b.allocated;

/** Consecutive free-or-unmapped bytes from `b` reach `size`. */
function hasRoom(b: Block | null, size: number): boolean {
  let bytes = 0;
  while (bytes < size && allocatable(b)) {
    bytes += b.size;
    b = b.next;
  }
  return bytes >= size;
}

/**
 * find_expandable_block: the lowest-address unmapped block (or the free block right before it)
 * with enough room after it; otherwise a new segment reserving 9/8 of the card, in whole pages
 * (rounded up).
 */
function findExpandable(a: AllocatorState, pool: PoolKind, size: number): Block {
  for (const u of a.unmapped[pool].blocks) {
    const c = allocatable(u.prev) ? u.prev : u;
    if (hasRoom(c, size)) return c;
  }
  const page = pageOf(pool);
  // ExpandableSegment's constructor: max_handles_ = numSegments(totalGlobalMem + totalGlobalMem / 8),
  // a whole number of pages rounded up, so at least one page on any card
  const range = Math.ceil((a.device.capacity + Math.floor(a.device.capacity / 8)) / page) * page;
  const seg = a.addSegment(pool, range, true);
  const b = newBlock(seg, seg.addr, range, false);
  seg.head = b;
  a.unmapped[pool].insert(b);
  return b;
}

/** map_block: maps whole pages covering `size` bytes at the start of unmapped block `u`. */
function mapBlock(a: AllocatorState, u: Block, size: number): boolean {
  const page = pageOf(u.seg.pool);
  const mapped = Math.min(u.size, Math.ceil(size / page) * page);
  if (!a.deviceHasRoom(mapped)) return false;
  a.unmapped[u.seg.pool].remove(u);
  u.mapped = true;
  if (mapped < u.size) {
    const rest = newBlock(u.seg, u.addr + mapped, u.size - mapped, false);
    splice(rest, u, u.next);
    a.unmapped[u.seg.pool].insert(rest);
    u.size = mapped;
  }
  a.tryMerge(u, u.prev);
  a.tryMerge(u, u.next);
  a.insertFree(u);
  a.reserved += mapped;
  bump(a.stats, 'reserved_bytes', u.seg.pool, mapped);
  a.stats.num_device_alloc += 1;
  return true;
}

/**
 * try_allocate_expandable_block: maps pages after the chosen block until a free run of ≥ `size`
 * exists; returns that run removed from the free pool, or null when mapping runs out of memory.
 */
export function tryAllocateExpandable(a: AllocatorState, pool: PoolKind, size: number): Block | null {
  let c = findExpandable(a, pool, size);
  if (!c.mapped && !mapBlock(a, c, Math.min(c.size, size))) return null;
  while (c.size < size) {
    const next = c.next;
    // the range ends before `size` (a request beyond 9/8 of the card): out of memory
    if (!next || !mapBlock(a, next, Math.min(size - c.size, next.size))) return null;
    c = next;
  }
  a.pools[pool].remove(c);
  return c;
}

/** unmap_block: returns the whole pages inside free block `b` to the driver. */
function unmapBlock(a: AllocatorState, b: Block): void {
  const page = pageOf(b.seg.pool);
  const base = b.seg.addr;
  const start = base + Math.ceil((b.addr - base) / page) * page;
  const end = base + Math.floor((b.addr + b.size - base) / page) * page;
  if (end <= start) return;
  const pool = b.seg.pool;
  a.pools[pool].remove(b);
  if (start > b.addr) {
    const before = newBlock(b.seg, b.addr, start - b.addr, true);
    splice(before, b.prev, b);
    a.insertFree(before);
  }
  if (b.addr + b.size > end) {
    const after = newBlock(b.seg, end, b.addr + b.size - end, true);
    splice(after, b, b.next);
    a.insertFree(after);
  }
  b.addr = start;
  b.size = end - start;
  b.mapped = false;
  const unmappedBytes = b.size;
  a.tryMerge(b, b.prev);
  a.tryMerge(b, b.next);
  a.unmapped[pool].insert(b);
  a.reserved -= unmappedBytes;
  bump(a.stats, 'reserved_bytes', pool, -unmappedBytes);
  a.stats.num_device_free += 1;
  if (!b.prev && !b.next) {
    a.unmapped[pool].remove(b);
    a.removeSegment(b.seg);
  }
}

/** The expandable half of release_blocks: unmap every free expandable block's whole pages. */
export function releaseExpandableFree(a: AllocatorState, pool: PoolKind): void {
  const toUnmap = a.pools[pool].blocks.filter((b) => b.seg.expandable);
  for (const b of toUnmap) unmapBlock(a, b);
}
