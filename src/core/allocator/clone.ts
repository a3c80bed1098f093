/**
 * Deep copy of an allocator's segments, blocks and pools, used for stepping checkpoints
 * (docs/reference/allocator.md §10 asks for a deterministic one-stream model, so a copy replays identically).
 */
import type { Block, Segment } from './blocks';
import type { AllocatorState } from './allocator-state';

/** Copies the block graph of `src` into the empty allocator `dst` (stats are copied by the caller). */
export function cloneAllocatorState(src: AllocatorState, dst: AllocatorState): void {
  const map = new Map<Block, Block>();
  for (const seg of src.segments) {
    const s: Segment = { ...seg };
    let prevCopy: Block | null = null;
    for (let b: Block | null = seg.head; b; b = b.next) {
      const c: Block = { ...b, seg: s, prev: prevCopy, next: null };
      if (prevCopy) prevCopy.next = c;
      else s.head = c;
      map.set(b, c);
      prevCopy = c;
    }
    dst.segments.push(s);
  }
  const get = (b: Block) => map.get(b) as Block;
  for (const pool of ['small', 'large'] as const) {
    for (const b of src.pools[pool].blocks) dst.pools[pool].insert(get(b));
    dst.unmapped[pool].blocks.push(...src.unmapped[pool].blocks.map(get));
  }
  for (const [name, b] of src.live) dst.live.set(name, get(b));
  dst.reserved = src.reserved;
  dst.gcCalls = { ...src.gcCalls };
  dst.nextSegmentId = src.nextSegmentId;
}
