/** The timeline's replay driver over the caching-allocator model: docs/reference/allocator.md §9 (i), by hand. */
import { describe, expect, it } from 'vitest';
import { Replay } from '../../../src/core/timeline/replay';

const MiB = 1024 * 1024;

describe('Replay', () => {
  it('reproduces docs/reference/allocator.md §9 (i): 10 × 4 MiB, free every other one, then 64 MiB', () => {
    const r = new Replay(null);
    const t = Array.from({ length: 10 }, () => r.alloc('activations', 4 * MiB));
    r.mark('forward');
    // 4 MiB requests get 20 MiB segments (1–10 MiB → kLargeBuffer), five per segment: 2 segments
    expect(r.points[0].allocated).toBe(10 * 4 * MiB);
    expect(r.points[0].reserved).toBe(2 * 20 * MiB);
    expect(r.points[0].byCategory.activations).toBe(40 * MiB);
    for (let i = 0; i < 10; i += 2) r.free(t[i]);
    r.alloc('loss', 64 * MiB);
    r.mark('forward');
    // no hole ≥ 64 MiB: a new 64 MiB segment; allocated 5·4 + 64 = 84 MiB, reserved 40 + 64 = 104 MiB
    const p = r.points[1];
    expect(p.allocated).toBe(84 * MiB);
    expect(p.reserved).toBe(104 * MiB);
    expect(p.byCategory).toMatchObject({ activations: 20 * MiB, loss: 64 * MiB });
    expect(r.peakReserved).toBe(109_051_904);
  });

  it('a point keeps the highest allocated of its group, with the categories at that moment', () => {
    const r = new Replay(null);
    r.alloc('weights', 3 * MiB);
    const tmp = r.alloc('temporary', 2 * MiB);
    r.free(tmp);
    r.mark('backward');
    // 3 MiB and 2 MiB share one 20 MiB segment; the 2 MiB temporary was live at the peak
    expect(r.points[0]).toMatchObject({ allocated: 5 * MiB, reserved: 20 * MiB, phase: 'backward' });
    expect(r.points[0].byCategory).toMatchObject({ weights: 3 * MiB, temporary: 2 * MiB });
  });

  it('splits a tensor group into s·b·f and s·b·h pieces, then the rest', () => {
    const r = new Replay(null, true);
    // 4 f-pieces of 256 KiB at most, then 128 KiB pieces, then 1000 B left over
    const hs = r.allocSplit('activations', 4 * 262_144 + 3 * 131_072 + 1000, [
      { size: 262_144, max: 4 },
      { size: 131_072, max: Infinity },
    ]);
    expect(hs.map((h) => h.size)).toEqual([262_144, 262_144, 262_144, 262_144, 131_072, 131_072, 131_072, 1024]);
    expect(r.trace?.filter((e) => e.op === 'alloc').length).toBe(8);
  });

  it('stops at the first request the card refuses', () => {
    const r = new Replay(30 * MiB);
    expect(r.alloc('weights', 8 * MiB)).not.toBeNull();
    // 24 MiB needs its own 24 MiB segment: 20 + 24 > 30 MiB, and nothing cached can be released
    expect(r.alloc('weights', 24 * MiB)).toBeNull();
    expect(r.ok).toBe(false);
    expect(r.alloc('weights', 1 * MiB)).toBeNull();
  });
});
