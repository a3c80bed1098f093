/**
 * What the reserved band of a lengths=varied estimate (default allocator) rests on: our H200
 * Trainer runs (and one H100 run, t026) of varied lengths (fixtures/measured-gpu.json), the signed error of each one's
 * reserved peak against estimateWithReplay, lowest to highest. The replay itself reproduces a run
 * whose order of lengths is known (tests/validation/measured-gpu.test.ts: t004, t014 within 5 %);
 * what it cannot know is that order — which step is the longest so far, each one cutting new
 * segments — so the spread of these runs is the band. t004, t005, t014 and t018 ran the same
 * order, as did t009 and t042 (160 lengths of one draw), so the 17 rows hold 13 orders.
 *
 * Stored, not recomputed on the page: scoring the rows replays 9 of 201 orders of each row's records
 * (seconds). tests/validation/measured-gpu.test.ts recomputes it and fails when it drifts.
 */
import type { SignedBand } from './independent-check';
import type { GpuScore } from './measured-gpu';

export interface VariedBand {
  /** rows of varied lengths under the default allocator */
  rows: number;
  /** lowest / highest signed error of reserved, %, rounded to 0.1 */
  signedPct: SignedBand;
}

export const VARIED_RESERVED_BAND: VariedBand = { rows: 17, signedPct: [-55.8, 14.5] };

/** The band from scored rows (the rows of varied lengths, default allocator). */
export function variedBandOf(scores: readonly GpuScore[]): VariedBand {
  const e = scores.filter((x) => x.varied && x.allocConf === 'default').map((x) => x.reservedErrPct);
  const r = (x: number) => Math.round(x * 10) / 10;
  return { rows: e.length, signedPct: [r(Math.min(...e)), r(Math.max(...e))] };
}
