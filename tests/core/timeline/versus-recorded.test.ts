/**
 * Predicted against recorded (core/timeline/versus-recorded.ts): a tiny timeline and series whose
 * fractions, buckets and errors are worked by hand below, and the real H200 snapshot
 * (tests/fixtures/torch-snapshot, tools/measure/record_snapshot.py) against the calculator's
 * prediction for its scenario.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import stats from '../../fixtures/torch-snapshot/train-varied.default.stats.json';
import { importSnapshotPickle } from '../../../src/core/allocator/history-import';
import { simulateTrace } from '../../../src/core/allocator/run';
import { timelinePoints } from '../../../src/core/allocator/run-series';
import { parseScenario } from '../../../src/core/scenario/parse';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { fractions, peakRow, predictedVsRecorded, predictionFor, resample } from '../../../src/core/timeline/versus-recorded';

const pt = (t: number, allocated: number, reserved: number) => ({ t, step: 0, phase: 'forward' as const, allocated, reserved, byCategory: {} as never });

describe('predicted vs recorded, by hand', () => {
  // predicted samples t = 0…4 → fractions 0, ¼, ½, ¾, 1
  const predicted = {
    points: [pt(0, 10, 20), pt(1, 30, 40), pt(2, 50, 60), pt(3, 20, 60), pt(4, 40, 60)],
    peakAllocated: 50,
    peakReserved: 60,
  };
  // recorded points after events 0, 2, 3, 8 → fractions 0, 2/8 = ¼, 3/8, 1
  const recorded = {
    points: [
      { step: 0, allocated: 0, reserved: 0 },
      { step: 2, allocated: 16, reserved: 32 },
      { step: 3, allocated: 8, reserved: 32 },
      { step: 8, allocated: 24, reserved: 48 },
    ],
    allocatedPeak: 24,
    reservedPeak: 50,
  };

  it('places each series by fraction of its own span', () => {
    expect(fractions([0, 1, 2, 3, 4])).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(fractions([0, 2, 3, 8])).toEqual([0, 0.25, 0.375, 1]);
    expect(fractions([5])).toEqual([0]);
    expect(fractions([])).toEqual([]);
  });

  it('resamples on four buckets: the highest point in a bucket, the last value held through an empty one', () => {
    const r = predictedVsRecorded(predicted, recorded, 4);
    expect(r.x).toEqual([0, 0.25, 0.5, 0.75]);
    // [0,¼): t0 · [¼,½): t1 · [½,¾): t2 · [¾,1]: t3 and t4 → max(20, 40)
    expect(r.predicted.allocated).toEqual([10, 30, 50, 40]);
    expect(r.predicted.reserved).toEqual([20, 40, 60, 60]);
    // [0,¼): event 0 · [¼,½): events 2 and 3 → max(16, 8) · [½,¾): none, event 3's 8 held · [¾,1]: event 8
    expect(r.recorded.allocated).toEqual([0, 16, 8, 24]);
    expect(r.recorded.reserved).toEqual([0, 32, 32, 48]);
  });

  it('signs the peak errors: (predicted − recorded) / recorded', () => {
    const r = predictedVsRecorded(predicted, recorded, 4);
    // allocated (50 − 24) / 24 = 26/24; reserved (60 − 50) / 50 = +0.2
    expect(r.allocated).toEqual({ predicted: 50, recorded: 24, error: 26 / 24 });
    expect(r.reserved.error).toBeCloseTo(0.2, 12);
    expect(peakRow(40, 50).error).toBeCloseTo(-0.2, 12);
    expect(peakRow(40, 0).error).toBeNull();
  });

  it('one bucket holds each series’ peak; more buckets than points hold values', () => {
    expect(resample([0, 0.5, 1], [3, 9, 1], 1)).toEqual([9]);
    // buckets [0,⅙) … [⅚,1]: 0 → 3 at j=0, held to ½ (j=3: 9), held, then 1 at the last
    expect(resample([0, 0.5, 1], [3, 9, 1], 6)).toEqual([3, 3, 3, 9, 9, 1]);
  });

  it('refuses llama.cpp, which has no PyTorch allocator, and passes the estimate’s own errors through', () => {
    const r = predictionFor({ ...defaultScenario(), engine: 'llama.cpp' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].code).toBe('overlay-not-torch');
    const bad = predictionFor({ ...defaultScenario(), model: 'custom', arch: null });
    expect(bad.ok).toBe(false);
  });
});

describe('the real H200 snapshot against the calculator’s prediction for its scenario', () => {
  // record_snapshot.py: 2-block Llama, hidden 1024, ffn 2816, 16 / 4 heads, vocab 32000, pure bf16,
  // AdamW (foreach), batch 2, longest step 2048 tokens
  const link = 'model=custom&hidden=1024&layers=2&heads=16&kv-heads=4&ffn=2816&vocab=32000&mode=training&method=full&weights=bf16&precision=bf16&batch=2&seq=2048';
  const s = parseScenario(Object.fromEntries(new URLSearchParams(link)));

  it('puts both peaks within 5 % of what PyTorch recorded (2,931,818,496 B reserved)', () => {
    expect(s.errors).toEqual([]);
    const imported = importSnapshotPickle(new Uint8Array(gunzipSync(readFileSync(new URL('../../fixtures/torch-snapshot/train-varied.pickle.gz', import.meta.url)))));
    if (!imported.ok) throw new Error(imported.error.text);
    const run = simulateTrace(imported.value.trace);
    if (!run.ok) throw new Error('does not simulate');
    expect(imported.value.recorded.reservedPeak).toBe(stats.max_reserved);
    const tl = predictionFor(s.scenario);
    if (!tl.ok) throw new Error(JSON.stringify(tl.errors));
    const r = predictedVsRecorded(tl.value, { points: timelinePoints(run.value.timeline), allocatedPeak: run.value.peakAllocated, reservedPeak: imported.value.recorded.reservedPeak });
    expect(r.reserved.recorded).toBe(2_931_818_496);
    expect(Math.abs(r.reserved.error!)).toBeLessThan(0.05);
    // the replayed allocated peak is within 1 MiB of PyTorch's allocated_bytes.all.peak (frame-series.test.ts)
    expect(Math.abs(r.allocated.recorded - stats.max_allocated)).toBeLessThanOrEqual(2 ** 20);
    expect(Math.abs(r.allocated.error!)).toBeLessThan(0.05);
    // the curves end where each run ends: the recorded reserved at its last point is PyTorch's reserved_end
    expect(r.recorded.reserved.at(-1)).toBe(stats.reserved_end);
    expect(Math.max(...r.predicted.reserved)).toBe(tl.value.peakReserved);
  });
});
