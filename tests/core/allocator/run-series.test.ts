/**
 * Fragmentation and memory series of a run, against docs/reference/allocator.md §9 (i) worked by hand:
 * ten 4 MiB tensors (t0 splits a 20 MiB segment S1, t1–t3 carve it, t4 takes the last 4 MiB whole;
 * t5–t9 fill S2), then the even ones freed (five 4 MiB holes whose neighbours are live, so none
 * merge), then 64 MiB in a new segment of its own.
 */
import { describe, expect, test } from 'vitest';
import { findPreset } from '../../../src/core/allocator/presets';
import { simulateTrace } from '../../../src/core/allocator/run';
import { fragmentationPoints, thinIndices, timelinePoints } from '../../../src/core/allocator/run-series';
import { parseTrace } from '../../../src/core/allocator/trace';

const MiB = 2 ** 20;

function classic() {
  const p = parseTrace(findPreset('classic')!.text);
  if (!p.ok) throw new Error('preset does not parse');
  const r = simulateTrace(p.trace);
  if (!r.ok) throw new Error('preset does not simulate');
  return r.value;
}

describe('fragmentation over a run', () => {
  test('§9 (i): cached free bytes and the largest free block after every step', () => {
    const pts = fragmentationPoints(classic().timeline);
    // step: [reserved − allocated, largest free block], in MiB
    const expected: [number, number][] = [
      [0, 0], // before the first event
      [16, 16], // t0 splits S1 (20 MiB): 16 MiB stay free as one block
      [12, 12],
      [8, 8],
      [4, 4],
      [0, 0], // t4 takes S1's last 4 MiB whole (a 0 B remainder is not split off)
      [16, 16], // t5 splits S2
      [12, 12],
      [8, 8],
      [4, 4],
      [0, 0], // step A: reserved = allocated = 40 MiB
      [4, 4], // free t0: one 4 MiB hole
      [8, 4],
      [12, 4],
      [16, 4],
      [20, 4], // step B: five 4 MiB holes, 20 MiB cached, no hole larger than 4 MiB
      [20, 4], // step C: 64 MiB in its own new segment; the holes stay
    ];
    expect(pts.map((p) => [p.cachedFree / MiB, p.largestFree / MiB])).toEqual(expected);
    expect(pts.map((p) => p.step)).toEqual(expected.map((_, i) => i));
  });

  test('step C: reserved 104 MiB for 84 MiB allocated (§9 (i))', () => {
    const last = timelinePoints(classic().timeline).at(-1);
    expect(last).toEqual({ step: 16, allocated: 84 * MiB, reserved: 104 * MiB });
  });
});

describe('thinning', () => {
  const cols = (reserved: number[]) => ({ allocated: Float64Array.from(reserved), reserved: Float64Array.from(reserved) });

  test('one point per step plus the empty start', () => {
    expect(timelinePoints(cols([10, 20]))).toEqual([
      { step: 0, allocated: 0, reserved: 0 },
      { step: 1, allocated: 10, reserved: 10 },
      { step: 2, allocated: 20, reserved: 20 },
    ]);
  });

  test('long runs are thinned without losing the peak', () => {
    const pts = timelinePoints(cols(Array.from({ length: 10_000 }, (_, i) => (i === 7_777 ? 1e9 : i))), 500);
    expect(pts.length).toBeLessThanOrEqual(502);
    expect([pts[0].step, pts.at(-1)!.step]).toEqual([0, 10_000]);
    expect(Math.max(...pts.map((p) => p.reserved))).toBe(1e9);
  });

  test('each bucket of ⌈n / max⌉ indices keeps its highest (the first on ties), and the ends stay', () => {
    // 7 indices, at most 3 points: buckets {0,1,2} {3,4,5} {6}, then index 0 added in front
    expect(thinIndices(7, 3, (i) => [1, 5, 5, 0, 0, 0, 2][i])).toEqual([0, 1, 3, 6]);
    // buckets {0,1} {2,3} {4}: 0, 3, 4 already hold both ends
    expect(thinIndices(5, 3, (i) => [9, 0, 0, 1, 0][i])).toEqual([0, 3, 4]);
    // {0,1,2} {3,4,5}: the last index 5 is added
    expect(thinIndices(6, 2, (i) => [0, 0, 0, 9, 0, 0][i])).toEqual([0, 3, 5]);
    expect(thinIndices(3, 10, () => 0)).toEqual([0, 1, 2]);
  });

  test('the fragmentation peak survives thinning', () => {
    // one step with 1 GiB reserved and nothing allocated among 10^4 where all that is reserved is used
    const n = 10_000;
    const reserved = Float64Array.from({ length: n }, (_, i) => (i === 4_321 ? 2 ** 30 : 1000));
    const allocated = Float64Array.from({ length: n }, (_, i) => (i === 4_321 ? 0 : 1000));
    const pts = fragmentationPoints({ reserved, allocated, largestFree: new Float64Array(n) }, 200);
    expect(pts.length).toBeLessThanOrEqual(202);
    expect(pts.find((p) => p.cachedFree === 2 ** 30)?.step).toBe(4_322);
  });
});
