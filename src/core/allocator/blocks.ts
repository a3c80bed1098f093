/**
 * Segments, blocks and the sorted free-block pools of the caching allocator.
 * Source: c10/cuda/CUDACachingAllocator.cpp (Block, BlockPool, BlockComparatorSize /
 * BlockComparatorAddress); docs/reference/allocator.md §2. One stream, so the (stream, size, address)
 * order reduces to (size, address).
 */
import type { PoolKind } from './constants';

/**
 * What names a live tensor for the allocator: its trace name, or a number an imported trace gives
 * each address instead of a string (trace-columns.ts), named only when a view shows it.
 */
export type TensorKey = string | number;

/** One Block: a contiguous piece of a segment, linked to its address neighbours. */
export interface Block {
  addr: number;
  size: number;
  /** the original, unrounded request of the tensor that holds it (0 when free) */
  requested: number;
  allocated: boolean;
  /** false only for the unmapped address space of an expandable segment */
  mapped: boolean;
  prev: Block | null;
  next: Block | null;
  seg: Segment;
  /** the key of the tensor holding it */
  name: TensorKey | null;
  /** get_free_blocks_call_count when it entered the pool (GC age clock) */
  gcBase: number;
}

/** One cudaMalloc (or, with expandable segments, one reserved virtual range). */
export interface Segment {
  id: number;
  addr: number;
  /** cudaMalloc size, or the whole virtual range for an expandable segment */
  size: number;
  pool: PoolKind;
  expandable: boolean;
  /** lowest-address block */
  head: Block;
  /** placed at a recorded address, with free space before it that no segment released: not reused (allocator.ts placeSegment) */
  recordedGap?: boolean;
}

/** Block::is_split: a block with any neighbour. */
export const isSplit = (b: Block): boolean => b.prev !== null || b.next !== null;

/** Index of the first block ordered at or after (size, addr). */
function lowerBoundSize(list: Block[], size: number, addr: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const b = list[mid]!; // lo ≤ mid < hi ≤ list.length
    if (b.size < size || (b.size === size && b.addr < addr)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Largest chunk of SizeOrderedPool; a full one splits in two halves. Inserting or removing moves
 * up to a chunk of pointers (a recorded run's pools hold a few hundred blocks: with 1,024 that was
 * the whole pool on every malloc and free, a quarter of a replay), and the chunks are binary-searched.
 */
const CHUNK = 64;

const before = (a: Block, size: number, addr: number): boolean => a.size < size || (a.size === size && a.addr < addr);

/**
 * Free blocks of one pool ordered by (size, address): best fit is the first block ≥ size.
 * PyTorch keeps them in a std::set (a balanced tree: every insert and erase logarithmic). A flat
 * sorted array moves half of itself on each insert or removal, which made 200,000 fragmented
 * blocks quadratic; sorted chunks of at most CHUNK blocks bound each move by the chunk, and
 * positions are found by binary search over the chunks' last blocks, then inside one chunk.
 */
export class SizeOrderedPool {
  private chunks: Block[][] = [];
  private count = 0;

  get length(): number {
    return this.count;
  }

  /** A copy of every block in order (for whole-pool passes: empty_cache, GC, cloning). */
  get blocks(): Block[] {
    return this.chunks.flat();
  }

  /** Index of the first chunk whose last block is at or after (size, addr); chunks.length when none. */
  private chunkFor(size: number, addr: number): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      // mid < hi ≤ chunks.length, and a chunk is never empty (remove() drops an emptied one)
      const c = this.chunks[mid]!;
      if (before(c[c.length - 1]!, size, addr)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Index of the smallest block with size ≥ `size` (length when none). */
  firstAtLeast(size: number): number {
    const c = this.chunkFor(size, 0);
    let at = 0;
    for (let k = 0; k < c; k++) at += this.chunks[k]!.length; // c ≤ chunks.length
    const chunk = this.chunks[c];
    return chunk ? at + lowerBoundSize(chunk, size, 0) : at;
  }

  /** The smallest block with size ≥ `size` (best fit), or null when none: firstAtLeast without counting the chunks before it. */
  firstBlockAtLeast(size: number): Block | null {
    const chunk = this.chunks[this.chunkFor(size, 0)];
    return chunk ? chunk[lowerBoundSize(chunk, size, 0)]! : null; // the chunk's last block is at or after (size, 0)
  }

  /** The block after `b` (a member) in (size, address) order, or null when it is the last. */
  after(b: Block): Block | null {
    const k = this.chunkFor(b.size, b.addr);
    const c = this.chunks[k]!; // b is in the pool, so its chunk exists
    const i = lowerBoundSize(c, b.size, b.addr) + 1;
    return i < c.length ? c[i]! : (this.chunks[k + 1]?.[0] ?? null);
  }

  /** The largest block (last in (size, address) order), or null when the pool is empty. */
  last(): Block | null {
    const c = this.chunks[this.chunks.length - 1];
    return c ? c[c.length - 1]! : null; // a chunk is never empty
  }

  /** The block at index i (0 ≤ i < length). */
  at(i: number): Block {
    for (const c of this.chunks) {
      if (i < c.length) return c[i]!;
      i -= c.length;
    }
    throw new Error(`allocator invariant: pool index ${i} past its end`);
  }

  insert(b: Block): void {
    this.count++;
    if (this.chunks.length === 0) {
      this.chunks.push([b]);
      return;
    }
    const k = Math.min(this.chunkFor(b.size, b.addr), this.chunks.length - 1);
    const c = this.chunks[k]!; // 0 ≤ k < chunks.length: the empty case returned above
    // shifted by hand: splice() would build a result array on every call
    const at = lowerBoundSize(c, b.size, b.addr);
    c.push(b);
    for (let j = c.length - 1; j > at; j--) c[j] = c[j - 1]!; // at < j < c.length
    c[at] = b;
    if (c.length > CHUNK) this.chunks.splice(k + 1, 0, c.splice(CHUNK / 2));
  }

  remove(b: Block): void {
    const k = this.chunkFor(b.size, b.addr);
    const c = this.chunks[k];
    const i = c ? lowerBoundSize(c, b.size, b.addr) : -1;
    if (!c || c[i] !== b) throw new Error(`allocator invariant: block at ${b.addr} missing from its pool`);
    for (let j = i + 1; j < c.length; j++) c[j - 1] = c[j]!; // j < c.length
    c.length--;
    if (c.length === 0) this.chunks.splice(k, 1);
    this.count--;
  }
}

/** Unmapped blocks of one pool ordered by address (expandable segments only). */
export class AddressOrderedPool {
  readonly blocks: Block[] = [];

  private indexOf(addr: number): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.blocks[mid]!.addr < addr)
        lo = mid + 1; // mid < hi ≤ blocks.length
      else hi = mid;
    }
    return lo;
  }

  insert(b: Block): void {
    this.blocks.splice(this.indexOf(b.addr), 0, b);
  }

  remove(b: Block): void {
    const i = this.indexOf(b.addr);
    if (this.blocks[i] !== b) throw new Error(`allocator invariant: unmapped block at ${b.addr} missing`);
    this.blocks.splice(i, 1);
  }
}

/** A fresh free block of `size` bytes at `addr` inside `seg`, not linked yet. */
export function newBlock(seg: Segment, addr: number, size: number, mapped: boolean): Block {
  return { addr, size, requested: 0, allocated: false, mapped, prev: null, next: null, seg, name: null, gcBase: 0 };
}

/** Links `b` between `prev` and `next` (Block::splice), updating the segment head. */
export function splice(b: Block, prev: Block | null, next: Block | null): void {
  b.prev = prev;
  b.next = next;
  if (prev) prev.next = b;
  else b.seg.head = b;
  if (next) next.prev = b;
}
