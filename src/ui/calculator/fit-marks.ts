/**
 * Every catalogue card's mark for a scenario (core/deploy/recommend.ts, cheapest kind first), with
 * "tight" judged at the upper end of the scenario's 80 % band (src/validation/bands.ts). Loaded
 * lazily (use-fit-marks.ts): the band's fixture rows stay out of the page's first script.
 */
import { recommend, type Recommendation } from '../../core/deploy/recommend';
import { GPUS } from '../../core/gpus';
import type { Scenario } from '../../core/types';
import { bandHigh } from '../../validation/bands';

export interface Marks {
  /** the catalogue ranked cheapest kind first, fitting cards before the rest */
  ranked: Recommendation[];
  byId: ReadonlyMap<string, Recommendation>;
}

const memo = new WeakMap<Scenario, Marks | null>();

/** The marks of `s` (null when it cannot be estimated: the verdict says why), once per scenario object. */
export function marksFor(s: Scenario): Marks | null {
  let m = memo.get(s);
  if (m === undefined) {
    const r = recommend(s, GPUS, bandHigh(s));
    m = r.ok ? { ranked: r.value, byId: new Map(r.value.map((x) => [x.id, x])) } : null;
    memo.set(s, m);
  }
  return m;
}
