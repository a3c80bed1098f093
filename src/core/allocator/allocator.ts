/**
 * A one-device, one-stream model of PyTorch's native CUDA caching allocator
 * (DeviceCachingAllocator in c10/cuda/CUDACachingAllocator.cpp, 2.x): malloc path, best fit,
 * split/merge, oversize rules, release paths, GC and the OOM decision. docs/reference/allocator.md §3–§4.
 * Expandable segments live in expandable.ts, the release paths in release.ts.
 */
import { allocationSize, kOneEiB, kMinBlockSize, kSmallSize, poolFor, roundSize, type PoolKind } from './constants';
import { defaultConfig, type AllocatorConfig } from './config';
import { AddressOrderedPool, isSplit, newBlock, SizeOrderedPool, splice, type Block, type Segment, type TensorKey } from './blocks';
import { bump, cloneDeviceStats, decrease, increase, newDeviceStats, type DeviceStats } from './stats';
import { tryAllocateExpandable } from './expandable';
import { garbageCollect, releaseAvailable, releaseCached } from './release';
import { cloneAllocatorState } from './clone';
import type { AllocatorState } from './allocator-state';
import { MiB } from '../units';

/** The simulated card. */
export interface DeviceSpec {
  /** total memory of the card in bytes (cudaMemGetInfo total) */
  capacity: number;
  /** memory used on the card outside PyTorch's allocator (CUDA context, other libraries), bytes */
  overhead: number;
  /** torch.cuda.set_per_process_memory_fraction, or null when never called */
  fraction: number | null;
}

/** Figures the allocator has at hand when it raises OutOfMemoryError (docs/reference/allocator.md §3, §7.2). */
export interface OomFacts {
  /** true for the "more than 1EB" guard in allocate() */
  overOneEiB: boolean;
  /** the tensor's request in bytes */
  requested: number;
  /** get_allocation_size of the rounded request: what "Tried to allocate" prints */
  allocSize: number;
  total: number;
  free: number;
  allocated: number;
  reserved: number;
  /** fraction × total when a memory fraction is set */
  allowed: number | null;
  /** reserved + non-PyTorch memory: the NVML "this process" figure */
  processInUse: number;
}

export type MallocOutcome = { ok: true; block: Block } | { ok: false; oom: OomFacts };

/** Base of the fake device address space (looks like a CUDA pointer; far below 2^53). */
const ADDRESS_BASE = 0x7f0000000000;
/** Segment placement alignment (cudaMalloc returns 2 MiB aligned ranges for large sizes). */
const ADDRESS_ALIGN = 2 * MiB;

/** Index of the first segment at or above `addr` in an address-ordered list. */
function lowerBoundAddr(list: readonly Segment[], addr: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.addr < addr)
      lo = mid + 1; // mid < hi ≤ list.length
    else hi = mid;
  }
  return lo;
}

export class CachingAllocator implements AllocatorState {
  stats: DeviceStats = newDeviceStats();
  /** live segments ordered by address */
  segments: Segment[] = [];
  pools: Record<PoolKind, SizeOrderedPool> = { small: new SizeOrderedPool(), large: new SizeOrderedPool() };
  unmapped: Record<PoolKind, AddressOrderedPool> = { small: new AddressOrderedPool(), large: new AddressOrderedPool() };
  /** allocated blocks by tensor key */
  live = new Map<TensorKey, Block>();
  /** total_allocated_memory: bytes held from the driver */
  reserved = 0;
  /** get_free_blocks_call_count per pool (GC clock) */
  gcCalls: Record<PoolKind, number> = { small: 0, large: 0 };
  nextSegmentId = 1;
  /** max_split_size as a number (Infinity = unlimited) */
  readonly M: number;
  readonly allowedMax: number | null;

  constructor(
    readonly device: DeviceSpec,
    readonly config: AllocatorConfig = defaultConfig(),
  ) {
    this.M = config.maxSplitSize ?? Infinity;
    this.allowedMax = device.fraction === null ? null : Math.floor(device.fraction * device.capacity);
  }

  /** GC runs only with a threshold and a memory fraction (docs/reference/allocator.md §3). */
  private get gcActive(): boolean {
    return this.allowedMax !== null && this.config.garbageCollectionThreshold > 0;
  }

  /**
   * DeviceCachingAllocator::malloc for tensor `name` of `orig` bytes. `segmentAt`: where the
   * driver placed the segment a recorded run made for this request (history-import.ts), used for a
   * new cudaMalloc'd segment here when that range is free (expandable segments place their own).
   */
  malloc(name: TensorKey, orig: number, segmentAt?: number): MallocOutcome {
    if (orig >= kOneEiB) return { ok: false, oom: this.oomFacts(orig, orig, true) };
    const size = roundSize(orig, this.config.roundupPower2Divisions);
    const pool = poolFor(size);
    const allocSz = allocationSize(size);
    let block = this.getFreeBlock(pool, size);
    if (!block) {
      if (this.gcActive) garbageCollect(this);
      block =
        this.allocBlock(pool, size, allocSz, false, segmentAt) ??
        (releaseAvailable(this, pool, size) ? this.allocBlock(pool, size, allocSz, false, segmentAt) : null) ??
        (releaseCached(this), this.allocBlock(pool, size, allocSz, true, segmentAt));
    }
    if (!block) {
      this.stats.num_ooms += 1;
      return { ok: false, oom: this.oomFacts(orig, allocSz, false) };
    }
    return { ok: true, block: this.allocFound(block, size, orig, name) };
  }

  /** free(): returns false when no live tensor has this key. */
  free(name: TensorKey): boolean {
    const b = this.live.get(name);
    if (!b) return false;
    this.live.delete(name);
    b.allocated = false;
    bump(this.stats, 'allocation', b.seg.pool, -1);
    bump(this.stats, 'allocated_bytes', b.seg.pool, -b.size);
    if (b.size >= this.M) decrease(this.stats.oversize_allocations, 1);
    this.freeBlock(b);
    return true;
  }

  /** torch.cuda.empty_cache(): release_cached_blocks. */
  emptyCache(): void {
    releaseCached(this);
  }

  clone(): CachingAllocator {
    const c = new CachingAllocator(this.device, this.config);
    cloneAllocatorState(this, c);
    c.stats = cloneDeviceStats(this.stats);
    return c;
  }

  private oomFacts(requested: number, allocSize: number, overOneEiB: boolean): OomFacts {
    const { capacity, overhead } = this.device;
    return {
      overOneEiB,
      requested,
      allocSize,
      total: capacity,
      free: Math.max(0, capacity - this.reserved - overhead),
      allocated: this.stats.arrays.allocated_bytes.all.current,
      reserved: this.reserved,
      allowed: this.allowedMax,
      processInUse: this.reserved + overhead,
    };
  }

  /** Inserts a free block into its pool (insert_into_blocks stamps the GC clock). */
  insertFree(b: Block): void {
    b.gcBase = this.gcCalls[b.seg.pool];
    this.pools[b.seg.pool].insert(b);
  }

  /** get_free_block: best fit, expandable tweak, oversize rules (docs/reference/allocator.md §3). */
  private getFreeBlock(pool: PoolKind, size: number): Block | null {
    if (this.gcActive) this.gcCalls[pool] += 1;
    const list = this.pools[pool];
    let b = list.firstBlockAtLeast(size);
    if (!b) return null;
    if (b.seg.expandable) {
      const expSize = (x: Block) => x.size + (x.next && !x.next.mapped ? x.next.size : 0);
      for (let n = list.after(b); b.seg.expandable && n && expSize(n) < expSize(b); n = list.after(b)) b = n;
    }
    if (size < this.M && b.size >= this.M) return null;
    if (size >= this.M && b.size >= size + this.config.maxNonSplitRounding) return null;
    list.remove(b);
    return b;
  }

  /** alloc_block: a new segment from cudaMalloc, or mapped pages when expandable (docs/reference/allocator.md §3). */
  private allocBlock(pool: PoolKind, size: number, allocSz: number, retry: boolean, segmentAt?: number): Block | null {
    if (retry) this.stats.num_alloc_retries += 1;
    if (this.allowedMax !== null && this.reserved + allocSz > this.allowedMax) return null;
    if (this.config.expandableSegments) return tryAllocateExpandable(this, pool, size);
    if (!this.deviceHasRoom(allocSz)) return null;
    const seg = this.addSegment(pool, allocSz, false, segmentAt);
    const b = newBlock(seg, seg.addr, allocSz, true);
    seg.head = b;
    this.reserved += allocSz;
    bump(this.stats, 'segment', pool, 1);
    bump(this.stats, 'reserved_bytes', pool, allocSz);
    this.stats.num_device_alloc += 1;
    if (allocSz >= this.M) increase(this.stats.oversize_segments, 1);
    return b;
  }

  /** Would the simulated driver grant `bytes` more? */
  deviceHasRoom(bytes: number): boolean {
    return this.reserved + bytes <= this.device.capacity - this.device.overhead;
  }

  /**
   * Places a new segment at `at` when no segment overlaps that range (a recorded run's address,
   * history-import.ts), else in the lowest address gap that fits (the driver reuses freed ranges).
   * Only the gaps are scanned (segments with free address space before them, in address
   * order): with no released segment that is none, so a run of n segments costs O(n log n),
   * not O(n²) as a scan of every segment did.
   */
  addSegment(pool: PoolKind, size: number, expandable: boolean, at?: number): Segment {
    const holes = this.holeList();
    if (at !== undefined && this.rangeFree(at, size)) return this.placeSegment(pool, size, expandable, at);
    let i = this.segments.length;
    let h = 0;
    for (; h < holes.length; h++) {
      const hole = holes[h]!; // h < holes.length
      const at = this.segmentIndex(hole);
      if (hole.addr - this.startAfter(at) >= size) {
        i = at;
        break;
      }
    }
    const seg = { id: this.nextSegmentId++, addr: this.startAfter(i), size, pool, expandable } as Segment;
    this.segments.splice(i, 0, seg);
    // the gap it went into may be used up; a gap at the end of the range is none
    if (h < holes.length && this.gapBefore(i + 1) <= 0) holes.splice(h, 1);
    return seg;
  }

  /** No segment overlaps [at, at + size). */
  private rangeFree(at: number, size: number): boolean {
    const i = lowerBoundAddr(this.segments, at);
    const prev = this.segments[i - 1];
    const next = this.segments[i];
    return (!prev || prev.addr + prev.size <= at) && (!next || at + size <= next.addr);
  }

  /**
   * A new segment at `at` (a free range). The space before it lies between recorded addresses, not
   * in a range released here, so it is no gap for addSegment to fill (`recordedGap`): the gaps
   * stay those of released segments, and a replay that leaves the recording places its own
   * segments past them in time linear in those, not in every recorded segment.
   */
  private placeSegment(pool: PoolKind, size: number, expandable: boolean, at: number): Segment {
    const holes = this.holeList();
    const i = lowerBoundAddr(this.segments, at);
    const seg = { id: this.nextSegmentId++, addr: at, size, pool, expandable, recordedGap: true } as Segment;
    this.segments.splice(i, 0, seg);
    const next = this.segments[i + 1];
    if (next && this.gapBefore(i + 1) <= 0) {
      const k = lowerBoundAddr(holes, next.addr);
      if (holes[k] === next) holes.splice(k, 1);
    }
    return seg;
  }

  removeSegment(seg: Segment): void {
    const holes = this.holeList();
    const i = this.segmentIndex(seg);
    this.segments.splice(i, 1);
    const h = lowerBoundAddr(holes, seg.addr);
    if (holes[h] === seg) holes.splice(h, 1);
    // the next segment now has the freed range before it
    const next = this.segments[i];
    if (next && this.gapBefore(i) > 0) {
      next.recordedGap = false;
      const k = lowerBoundAddr(holes, next.addr);
      if (holes[k] !== next) holes.splice(k, 0, next);
    }
  }

  /** Segments with free address space before them, by address, but for a recorded gap (rebuilt after a clone). */
  private holes: Segment[] | null = null;

  private holeList(): Segment[] {
    this.holes ??= this.segments.filter((s, i) => !s.recordedGap && this.gapBefore(i) > 0);
    return this.holes;
  }

  /** First address a segment placed at index i may take: ADDRESS_BASE or the aligned end of segment i − 1. */
  private startAfter(i: number): number {
    const s = this.segments[i - 1];
    return s ? Math.ceil((s.addr + s.size) / ADDRESS_ALIGN) * ADDRESS_ALIGN : ADDRESS_BASE;
  }

  private gapBefore(i: number): number {
    const s = this.segments[i];
    return s ? s.addr - this.startAfter(i) : 0;
  }

  private segmentIndex(seg: Segment): number {
    const i = lowerBoundAddr(this.segments, seg.addr);
    if (this.segments[i] !== seg) throw new Error(`allocator invariant: segment at ${seg.addr} missing`);
    return i;
  }

  /** should_split (docs/reference/allocator.md §4). */
  private shouldSplit(b: Block, size: number): boolean {
    const remaining = b.size - size;
    if (b.seg.pool === 'small' || this.config.expandableSegments) return remaining >= kMinBlockSize;
    return size < this.M && remaining > kSmallSize;
  }

  /** alloc_found_block: split, inactive_split bookkeeping, counters (docs/reference/allocator.md §4). */
  private allocFound(found: Block, size: number, orig: number, name: TensorKey): Block {
    const pool = found.seg.pool;
    const exp = found.seg.expandable;
    const alreadySplit = isSplit(found);
    let b = found;
    if (this.shouldSplit(found, size)) {
      b = newBlock(found.seg, found.addr, size, true);
      splice(b, found.prev, found);
      found.addr += size;
      found.size -= size;
      this.insertFree(found);
      if (!exp && alreadySplit) bump(this.stats, 'inactive_split_bytes', pool, -size);
      else if (!exp) {
        bump(this.stats, 'inactive_split_bytes', pool, found.size);
        bump(this.stats, 'inactive_split', pool, 1);
      }
    } else if (alreadySplit && !exp) {
      bump(this.stats, 'inactive_split_bytes', pool, -b.size);
      bump(this.stats, 'inactive_split', pool, -1);
    }
    b.allocated = true;
    b.requested = orig;
    b.name = name;
    this.live.set(name, b);
    bump(this.stats, 'allocation', pool, 1);
    bump(this.stats, 'allocated_bytes', pool, b.size);
    bump(this.stats, 'active', pool, 1);
    bump(this.stats, 'active_bytes', pool, b.size);
    bump(this.stats, 'requested_bytes', pool, orig);
    if (b.size >= this.M) increase(this.stats.oversize_allocations, 1);
    return b;
  }

  /** try_merge_blocks: `dst` absorbs free neighbour `src` with the same mapped state; returns bytes absorbed. */
  tryMerge(dst: Block, src: Block | null): number {
    if (!src || src.allocated || src.mapped !== dst.mapped) return 0;
    if (src.mapped) this.pools[src.seg.pool].remove(src);
    else this.unmapped[src.seg.pool].remove(src);
    if (dst.prev === src) {
      dst.addr = src.addr;
      splice(dst, src.prev, dst.next);
    } else {
      splice(dst, dst.prev, src.next);
    }
    dst.size += src.size;
    return src.size;
  }

  /** free_block: merge with both neighbours, return to the pool, stats (docs/reference/allocator.md §4). */
  private freeBlock(b: Block): void {
    const pool = b.seg.pool;
    const origSize = b.size;
    const req = b.requested;
    let netN = 0;
    let netBytes = 0;
    const fromPrev = this.tryMerge(b, b.prev);
    const fromNext = this.tryMerge(b, b.next);
    if (fromPrev > 0) netN -= 1;
    if (fromNext > 0) netN -= 1;
    netBytes -= fromPrev + fromNext;
    this.insertFree(b);
    if (isSplit(b)) {
      netN += 1;
      netBytes += b.size;
    }
    if (!b.seg.expandable) {
      bump(this.stats, 'inactive_split', pool, netN);
      bump(this.stats, 'inactive_split_bytes', pool, netBytes);
    }
    bump(this.stats, 'active', pool, -1);
    bump(this.stats, 'active_bytes', pool, -origSize);
    bump(this.stats, 'requested_bytes', pool, -req);
    b.requested = 0;
    b.name = null;
  }
}
