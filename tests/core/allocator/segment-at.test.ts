/**
 * A new segment placed where the recorded run's driver put it (CachingAllocator.malloc's
 * `segmentAt`). Placement matters only for ties: best fit takes the smallest free block that fits,
 * and among blocks of one size the lowest address (BlockComparatorSize in
 * c10/cuda/CUDACachingAllocator.cpp orders by stream, size, then ptr; get_free_block takes
 * lower_bound). The driver does not hand addresses out in rising order, so the run's tie can go
 * the other way from the model's own placement.
 */
import { describe, expect, it } from 'vitest';
import { CachingAllocator } from '../../../src/core/allocator/allocator';
import { GiB, MiB } from '../../../src/core/units';

const make = () => new CachingAllocator({ capacity: 80 * GiB, overhead: 0, fraction: null });
const addr = (r: ReturnType<CachingAllocator['malloc']>) => (r.ok ? r.block.addr : NaN);

// 12 MiB is ≥ kMinLargeAlloc (10 MiB): its segment is the request rounded up to 2 MiB, 12 MiB,
// used whole. Two of them, freed, leave two free 12 MiB blocks; a third 12 MiB request takes the
// one at the lower address.
const HI = 0x7fb400000000;
const LO = 0x7fb300000000;

describe('segments at the recorded addresses', () => {
  it('breaks a best-fit tie as the run did when the second segment sits lower', () => {
    const a = make();
    expect(addr(a.malloc('A', 12 * MiB, HI))).toBe(HI);
    expect(addr(a.malloc('B', 12 * MiB, LO))).toBe(LO);
    a.free('A');
    a.free('B');
    expect(addr(a.malloc('C', 12 * MiB))).toBe(LO);
    expect(a.stats.num_device_alloc).toBe(2);
  });

  it('without them, places segments upward and takes the first one', () => {
    const a = make();
    const first = addr(a.malloc('A', 12 * MiB));
    expect(addr(a.malloc('B', 12 * MiB))).toBeGreaterThan(first);
    a.free('A');
    a.free('B');
    expect(addr(a.malloc('C', 12 * MiB))).toBe(first);
  });

  it('places a segment past the others when its recorded range is taken, never in a recorded gap', () => {
    const a = make();
    a.malloc('B', 12 * MiB, LO);
    // the range from LO + 2 MiB overlaps B; the space below LO was never released: D goes to B's end
    expect(addr(a.malloc('D', 12 * MiB, LO + 2 * MiB))).toBe(LO + 12 * MiB);
    expect(addr(a.malloc('E', 12 * MiB, HI))).toBe(HI);
    // once B is released, the space before D is a gap like any other: F goes there, not past E
    a.free('B');
    a.emptyCache();
    expect(addr(a.malloc('F', 12 * MiB))).toBeLessThanOrEqual(LO);
  });

  it('a copy (a stepping checkpoint) places the next segment as the original does after a release beside a recorded one', () => {
    const a = make();
    a.malloc('X', 12 * MiB, LO);
    a.malloc('Y', 12 * MiB, LO + 40 * MiB);
    a.free('X');
    a.emptyCache();
    const c = a.clone();
    expect(addr(c.malloc('Z', 12 * MiB))).toBe(addr(a.malloc('Z', 12 * MiB)));
    expect(addr(a.malloc('W', 12 * MiB))).toBeLessThan(LO + 40 * MiB);
  });
});
