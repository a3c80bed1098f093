// Structural invariants of the allocator model, checked from first principles over its blocks
// (docs/reference/allocator.md §2, §4, §6.1): segments are disjoint, blocks tile them, free neighbours are merged, pools hold
// exactly the free blocks, and every statistic equals the sum it names.
import type { CachingAllocator } from '../../../src/core/allocator/allocator';
import type { Block } from '../../../src/core/allocator/blocks';

export function invariantViolations(a: CachingAllocator): string[] {
  const bad: string[] = [];
  const pooled = new Set<Block>([...a.pools.small.blocks, ...a.pools.large.blocks]);
  const unmapped = new Set<Block>([...a.unmapped.small.blocks, ...a.unmapped.large.blocks]);
  const sums = { allocated: [0, 0], allocs: [0, 0], requested: [0, 0], reserved: [0, 0], segments: [0, 0], split: [0, 0], splitBytes: [0, 0] };
  let overAlloc = 0;
  let overSeg = 0;
  let named = 0;
  for (let i = 1; i < a.segments.length; i++) {
    const [p, q] = [a.segments[i - 1], a.segments[i]];
    if (p.addr + p.size > q.addr) bad.push(`segments ${p.id} and ${q.id} overlap or are out of address order`);
  }
  for (const seg of a.segments) {
    const p = seg.pool === 'large' ? 0 : 1;
    if (!seg.expandable) {
      sums.segments[p]++;
      if (seg.size >= a.M) overSeg++;
    }
    let addr = seg.addr;
    let prev: Block | null = null;
    for (let b: Block | null = seg.head; b; prev = b, b = b.next) {
      if (b.seg !== seg) bad.push(`block ${b.addr} points to another segment`);
      if (b.prev !== prev) bad.push(`block ${b.addr} prev link broken`);
      if (b.addr !== addr) bad.push(`gap or overlap at ${b.addr} (expected ${addr})`);
      if (b.size <= 0) bad.push(`empty block at ${b.addr}`);
      addr += b.size;
      if (prev && !prev.allocated && !b.allocated && prev.mapped === b.mapped) bad.push(`adjacent free blocks at ${prev.addr} and ${b.addr}`);
      if (b.mapped) sums.reserved[p] += b.size;
      if (b.allocated) {
        sums.allocated[p] += b.size;
        sums.allocs[p]++;
        sums.requested[p] += b.requested;
        if (b.size >= a.M) overAlloc++;
        if (a.live.get(b.name ?? '') !== b) bad.push(`allocated block ${b.addr} not in live map`);
        named++;
        if (pooled.has(b) || unmapped.has(b)) bad.push(`allocated block ${b.addr} sits in a free pool`);
      } else if (b.mapped) {
        if (!pooled.delete(b)) bad.push(`free block ${b.addr} missing from its pool`);
        if (!seg.expandable && (b.prev || b.next)) {
          sums.split[p]++;
          sums.splitBytes[p] += b.size;
        }
      } else if (!unmapped.delete(b)) bad.push(`unmapped block ${b.addr} missing from the unmapped set`);
    }
    if (addr !== seg.addr + seg.size) bad.push(`segment ${seg.id} blocks sum to ${addr - seg.addr}, not ${seg.size}`);
  }
  if (pooled.size || unmapped.size) bad.push(`${pooled.size + unmapped.size} pooled blocks belong to no segment`);
  if (named !== a.live.size) bad.push('live map holds names without blocks');
  for (const pool of ['small', 'large'] as const) {
    const l = a.pools[pool].blocks;
    for (let i = 1; i < l.length; i++) {
      if (l[i - 1].size > l[i].size || (l[i - 1].size === l[i].size && l[i - 1].addr >= l[i].addr)) bad.push(`${pool} pool out of order`);
    }
  }
  const s = a.stats.arrays;
  const check = (name: string, stat: keyof typeof s, v: number[]) => {
    if (s[stat].large_pool.current !== v[0] || s[stat].small_pool.current !== v[1] || s[stat].all.current !== v[0] + v[1]) {
      bad.push(`${name}: stats ${s[stat].large_pool.current}/${s[stat].small_pool.current}, blocks ${v[0]}/${v[1]}`);
    }
    for (const k of ['all', 'large_pool', 'small_pool'] as const) {
      const st = s[stat][k];
      if (st.peak < st.current || st.allocated - st.freed !== st.current) bad.push(`${name}.${k} peak/allocated/freed inconsistent`);
    }
  };
  check('allocated_bytes', 'allocated_bytes', sums.allocated);
  check('active_bytes', 'active_bytes', sums.allocated);
  check('allocation', 'allocation', sums.allocs);
  check('active', 'active', sums.allocs);
  check('requested_bytes', 'requested_bytes', sums.requested);
  check('reserved_bytes', 'reserved_bytes', sums.reserved);
  check('segment', 'segment', sums.segments);
  check('inactive_split', 'inactive_split', sums.split);
  check('inactive_split_bytes', 'inactive_split_bytes', sums.splitBytes);
  if (a.reserved !== s.reserved_bytes.all.current) bad.push('total_allocated_memory differs from reserved_bytes');
  if (a.stats.oversize_allocations.current !== overAlloc) bad.push('oversize_allocations differs from blocks ≥ M');
  if (a.stats.oversize_segments.current !== overSeg) bad.push('oversize_segments differs from segments ≥ M');
  if (s.reserved_bytes.all.current < s.allocated_bytes.all.current) bad.push('reserved < allocated');
  if (a.reserved > a.device.capacity - a.device.overhead) bad.push('reserved exceeds the card');
  // alloc_block checks the fraction against alloc_size, but expandable segments then map whole
  // 20 MiB pages (docs/reference/allocator.md §3 step 2, §5), so only cudaMalloc'd segments obey the limit exactly.
  if (a.allowedMax !== null && !a.config.expandableSegments && a.reserved > a.allowedMax) bad.push('reserved exceeds the allowed fraction');
  return bad;
}
