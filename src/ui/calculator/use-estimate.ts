import type { Estimate, Result, Scenario } from '../../core/types';
import { estimate } from '../../core/estimate';
import { SCENARIO_FIELDS } from '../../core/scenario/schema';
import { selectActive, useApp } from '../../state/store';
import { useT } from '../i18n';
import { loadFor } from './estimator-loader';

const cache = new WeakMap<Scenario, Result<Estimate>>();

/** estimate() memoised per scenario object (the store replaces a scenario on every change). */
export function estimateOf(s: Scenario): Result<Estimate> {
  let r = cache.get(s);
  if (!r) {
    r = estimate(s);
    // an image model or a training scenario before its estimator has arrived: fetch it (the loader then renews the scenarios)
    loadFor(r);
    cache.set(s, r);
  }
  return r;
}

const PROP_OF = new Map<string, string>(
  SCENARIO_FIELDS.flatMap((f) => [
    [f.name, f.prop],
    [f.prop, f.prop],
  ]),
);

/** The core's error for one Scenario property of the active scenario, translated (re-renders only when it changes). */
export function useFieldError(prop: string): string | undefined {
  const t = useT();
  const e = useApp((st) => {
    const r = estimateOf(selectActive(st));
    return r.ok ? undefined : r.errors.find((x) => (PROP_OF.get(x.key) ?? x.key) === prop);
  });
  return e && t.core(e);
}
