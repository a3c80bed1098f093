import type { Estimate, Scenario } from '../../core/types';
import { gpuFit } from '../../core/deploy/verdict';
import { sizesToCard } from '../../core/fit-rule';
import { estimateOf } from './use-estimate';
import type { ChosenGpu } from './gpu-list';

export interface Fit extends ChosenGpu {
  /** the estimate on this device (engines such as vLLM size their pools from the device) */
  est: Estimate | null;
  fits: boolean;
  /** capacity − device total (negative: short by that much) */
  headroom: number;
}

const memo = new WeakMap<Scenario, Map<string, Scenario>>();
/** The scenario re-targeted at another GPU, one object per (scenario, gpu) so estimates are cached. */
export function onGpu(s: Scenario, spec: string): Scenario {
  if (s.gpu === spec) return s;
  let m = memo.get(s);
  if (!m) memo.set(s, (m = new Map<string, Scenario>()));
  let x = m.get(spec);
  if (!x) m.set(spec, (x = { ...s, gpu: spec }));
  return x;
}

/**
 * Fit of the scenario on each chosen GPU: device total (what nvidia-smi shows) against capacity,
 * judged from `shown`, the estimate the headline shows (the replayed one once it is ready), by the
 * core's one rule (core/deploy/verdict.ts). Only a scenario sized to the card (vLLM) is estimated
 * per card.
 */
export function fitsOf(s: Scenario, gpus: readonly ChosenGpu[], shown: Estimate): Fit[] {
  return gpus.map((c) => {
    const r = sizesToCard(s) ? estimateOf(onGpu(s, c.spec)) : null;
    const est = r === null ? shown : r.ok ? r.value : null;
    if (est === null) return { ...c, est, fits: false, headroom: 0 };
    const f = gpuFit(s, est, c.spec, c.gpu.capacityBytes);
    return { ...c, est, fits: f.fits, headroom: f.headroomBytes };
  });
}
