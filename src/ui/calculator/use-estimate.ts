import { useMemo } from 'react';
import type { Estimate, Result, Scenario } from '../../core/types';
import { estimate } from '../../core/estimate';
import { SCENARIO_FIELDS } from '../../core/scenario/schema';
import { selectActive, useApp } from '../../state/store';
import { useT } from '../i18n';

const cache = new WeakMap<Scenario, Result<Estimate>>();

/** estimate() memoised per scenario object (the store replaces a scenario on every change). */
export function estimateOf(s: Scenario): Result<Estimate> {
  let r = cache.get(s);
  if (!r) {
    r = estimate(s);
    cache.set(s, r);
  }
  return r;
}

/** The estimate of the scenario being edited. */
export function useActiveEstimate(): Result<Estimate> {
  return estimateOf(useApp(selectActive));
}

const PROP_OF = new Map<string, string>(SCENARIO_FIELDS.flatMap((f) => [[f.name, f.prop], [f.prop, f.prop]]));

/** The core's errors for the active scenario, translated, by Scenario property. */
export function useFieldErrors(): Map<string, string> {
  const t = useT();
  const r = useActiveEstimate();
  return useMemo(() => {
    const m = new Map<string, string>();
    if (!r.ok) for (const e of r.errors) m.set(PROP_OF.get(e.key) ?? e.key, t.core(e));
    return m;
  }, [r, t]);
}
