import { describe, expect, test } from 'vitest';
import { recommend } from '../../../src/core/deploy/recommend';
import { gpuFit } from '../../../src/core/deploy/verdict';
import { estimate } from '../../../src/core/estimate';
import { findGpu, GPUS } from '../../../src/core/gpus';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { solveOn } from '../../../src/core/solve';
import { estimateWithReplay, stepTimeline } from '../../../src/core/timeline';
import type { Estimate, Result, Scenario } from '../../../src/core/types';

const MiB = 2 ** 20;
function ok<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value;
}
const termBytes = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)!.bytes;
/** The device total from the estimate's own breakdown: peak allocated, then the allocator's and the context's terms on top. */
const fromBreakdown = (e: Estimate) => e.allocatedBytes + termBytes(e, 'allocator-reserve') + termBytes(e, 'cuda-context');

const train = (over: Partial<Scenario>): Scenario => ({ ...defaultScenario(), mode: 'training', method: 'full', gpu: '', ...over });

// Capacities from the catalogue, as nvidia-smi reports them (data/gpus.json memory_mib_reported)
const L40S = findGpu('l40s')!;
const A10 = findGpu('a10')!;

describe('one verdict: every card is judged from the estimate the headline shows', () => {
  test('the catalogue capacities: L40S 46,068 MiB, A10 23,028 MiB', () => {
    expect(L40S.capacityBytes).toBe(46_068 * MiB);
    expect(A10.capacityBytes).toBe(23_028 * MiB);
  });

  // Llama-3.2-1B full fine-tuning, batch 4 × 1920: the replay keeps the 16-bit logits' segment cached under the
  // fp32 loss gradients, which segment rounding alone does not (timeline/applies.ts)
  const over = train({ model: 'meta-llama/Llama-3.2-1B', batch: 4, seq: 1920 });
  const closed = ok(estimate(over));
  const shown = ok(estimateWithReplay(over));

  test('closed form and replay disagree on the L40S: under its capacity by the closed form, over it by the replay', () => {
    expect(fromBreakdown(closed)).toBe(closed.deviceBytes);
    expect(fromBreakdown(shown)).toBe(shown.deviceBytes);
    expect(shown.allocatedBytes).toBe(closed.allocatedBytes);
    expect(closed.deviceBytes).toBeLessThan(L40S.capacityBytes);
    expect(shown.deviceBytes).toBeGreaterThan(L40S.capacityBytes);
  });

  test('the marks of every card equal the verdict from the same estimate; the L40S is "no" and short by the replay', () => {
    const marks = ok(recommend(over, GPUS, 1, shown));
    expect(marks).toHaveLength(GPUS.length);
    for (const m of marks) {
      const verdict = gpuFit(over, shown, m.id, m.capacityBytes);
      expect(m.mark !== 'no', m.id).toBe(verdict.fits);
      expect(m.headroomBytes, m.id).toBe(verdict.headroomBytes);
      expect(verdict.fits, m.id).toBe(fromBreakdown(shown) <= m.capacityBytes);
    }
    const l40s = marks.find((m) => m.id === 'l40s')!;
    expect(l40s.mark).toBe('no');
    expect(-l40s.headroomBytes).toBe(fromBreakdown(shown) - 46_068 * MiB);
    // judged from the closed form instead, the same card would be marked as fitting: the mix this rules out
    expect(ok(recommend(over, GPUS, 1)).find((m) => m.id === 'l40s')!.fits).toBe(true);
  });

  test("the replayed estimate is the same on every card; the card's own replay differs (it frees its cache and retries)", () => {
    const onCard = ok(estimateWithReplay({ ...over, gpu: 'l40s' }));
    expect(onCard.deviceBytes).toBe(shown.deviceBytes);
    const tl = ok(stepTimeline({ ...over, gpu: 'l40s' }));
    expect(tl.retries).toBeGreaterThan(0);
  });

  test('the solvers are held to the verdict: it does not fit at batch 4 and seq 1920, so they answer less, and one card is not enough', () => {
    const fast = ok(solveOn(over, L40S.capacityBytes));
    expect(fast.maxBatch).toBeGreaterThanOrEqual(4);
    expect(fast.minGpus?.gpus).toBe(1);
    const held = ok(solveOn(over, L40S.capacityBytes, shown));
    expect(held.maxBatch).toBeLessThanOrEqual(3);
    expect(held.maxContext).toBeLessThanOrEqual(1919);
    expect(held.minGpus!.gpus).toBeGreaterThan(1);
  });

  // Qwen2.5-0.5B full fine-tuning, batch 1 × 4352: here segment rounding over-counts and the replay is lower
  const under = train({ model: 'Qwen/Qwen2.5-0.5B', batch: 1, seq: 4352 });
  const closedU = ok(estimate(under));
  const shownU = ok(estimateWithReplay(under));

  test('the other way on the A10: over its capacity by the closed form, under it by the replay; mark, verdict and solvers say fits', () => {
    expect(fromBreakdown(closedU)).toBeGreaterThan(A10.capacityBytes);
    expect(fromBreakdown(shownU)).toBeLessThan(A10.capacityBytes);
    const a10 = ok(recommend(under, GPUS, 1, shownU)).find((m) => m.id === 'a10')!;
    expect(a10.fits).toBe(true);
    expect(gpuFit(under, shownU, 'a10', A10.capacityBytes).fits).toBe(true);
    expect(ok(solveOn(under, A10.capacityBytes)).maxBatch).toBeLessThan(1);
    const held = ok(solveOn(under, A10.capacityBytes, shownU));
    expect(held.maxBatch).toBeGreaterThanOrEqual(1);
    expect(held.maxContext).toBeGreaterThanOrEqual(4352);
    expect(held.minGpus).toEqual({ gpus: 1, tp: 1, pp: 1 });
  });
});
