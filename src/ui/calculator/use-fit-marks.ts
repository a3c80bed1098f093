import { useEffect, useState } from 'react';
import { selectActive, useApp } from '../../state/store';
import type { Marks } from './fit-marks';
import { estimateOf } from './use-estimate';
import { useSettled } from './use-settled';
import { useShownEstimate } from './use-replay';

type Module = typeof import('./fit-marks');

let loaded: Module | null = null;
let loading: Promise<Module | null> | null = null;
// fetched on first use (not by pages that show no GPU list, such as most embedded widgets)
const load = () =>
  (loading ??= import('./fit-marks').then(
    (m) => (loaded = m),
    () => null,
  ));

/**
 * The catalogue's fit marks for the active scenario once it has settled, judged from the estimate
 * the headline shows for it (so a mark never disagrees with the verdict): computed once per
 * scenario change and once more when its replay arrives, not on every step of a dragged slider;
 * null until the module has loaded, and at once when the scenario as it is now cannot be
 * estimated (no stale mark claims a fit then).
 */
export function useFitMarks(): Marks | null {
  // a boolean, not the scenario: a slider step does not re-render the selects and cards that show marks
  const nowOk = useApp((st) => estimateOf(selectActive(st)).ok);
  const s = useSettled(selectActive);
  const [mod, setMod] = useState<Module | null>(loaded);
  useEffect(() => {
    if (!mod) void load().then(setMod);
  }, [mod]);
  // the headline's estimate of the settled scenario: closed form until its replay is ready, then that
  const shown = useShownEstimate(s);
  return mod && nowOk && shown.ok ? mod.marksFor(s, shown.value) : null;
}
