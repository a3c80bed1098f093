/**
 * The verdict for one card: fits or not (fit-rule.ts fitsWithin) and the headroom, from the estimate
 * the caller shows. The page's verdict, its list of chosen cards and the CLI's `gpu` all call this
 * with the same estimate (estimateWithReplay's where the replay decides reserved memory), so the
 * words on screen, the fit marks (recommend.ts, given that estimate) and the CLI cannot disagree.
 */
import { fitsWithin } from '../fit-rule';
import type { Estimate, GpuFit, Scenario } from '../types';

/** `e` is the estimate of `s` on that card (one estimate serves every card unless fit-rule.ts sizesToCard). */
export function gpuFit(s: Scenario, e: Estimate, id: string, capacityBytes: number): GpuFit {
  return { id, capacityBytes, fits: fitsWithin(s, e, capacityBytes), headroomBytes: capacityBytes - e.deviceBytes };
}
