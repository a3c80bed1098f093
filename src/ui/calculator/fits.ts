import type { Estimate, Scenario } from '../../core/types';
import { fitsWithin } from '../../core/fit-rule';
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

/** Fit of the scenario on each chosen GPU: device total (what nvidia-smi shows) against capacity. */
export function fitsOf(s: Scenario, gpus: readonly ChosenGpu[]): Fit[] {
  return gpus.map((c) => {
    const r = estimateOf(onGpu(s, c.spec));
    const est = r.ok ? r.value : null;
    // one fit rule for the page and the solvers (vLLM: its KV pool must also hold the batch)
    const fits = est !== null && fitsWithin(s, est, c.gpu.capacityBytes);
    return { ...c, est, fits, headroom: est ? c.gpu.capacityBytes - est.deviceBytes : 0 };
  });
}
