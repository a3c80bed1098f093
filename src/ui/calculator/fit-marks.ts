/**
 * Every catalogue card's mark for a scenario (core/deploy/recommend.ts, cheapest kind first), with
 * "tight" judged at the upper end of the scenario's 80 % band (src/validation/bands.ts). Loaded
 * lazily (use-fit-marks.ts): the band's fixture rows stay out of the page's first script.
 */
import { recommend, type Recommendation } from '../../core/deploy/recommend';
import { GPUS } from '../../core/gpus';
import type { Estimate, Scenario } from '../../core/types';
import { bandHigh } from '../../validation/bands';

export interface Marks {
  /** the catalogue ranked cheapest kind first, fitting cards before the rest */
  ranked: Recommendation[];
  byId: ReadonlyMap<string, Recommendation>;
}

const memo = new WeakMap<Estimate, Marks | null>();

/**
 * The marks of `s`, judged from `shown` (the estimate the headline shows for `s`: the replayed one
 * once it is ready), once per estimate object; null when it cannot be ranked (the verdict says why).
 */
export function marksFor(s: Scenario, shown: Estimate): Marks | null {
  let m = memo.get(shown);
  if (m === undefined) {
    const r = recommend(s, GPUS, bandHigh(s), shown);
    m = r.ok ? { ranked: r.value, byId: new Map(r.value.map((x) => [x.id, x])) } : null;
    memo.set(shown, m);
  }
  return m;
}
