import type { Estimate, Scenario } from '../../core/types';
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
  if (!m) memo.set(s, (m = new Map()));
  let x = m.get(spec);
  if (!x) m.set(spec, (x = { ...s, gpu: spec }));
  return x;
}

/**
 * vLLM pre-allocates its pool, so its device total always "fits"; what decides is whether the
 * KV pool holds batch × (prompt + gen) tokens. Same rule as src/core/solve.ts `fits`.
 */
function kvRoom(s: Scenario, est: Estimate | null): boolean {
  if (!est || s.mode !== 'inference' || s.engine !== 'vllm') return true;
  return (est.engine?.kvTokens ?? 0) >= s.batch * (s.prompt + s.gen);
}

/** Fit of the scenario on each chosen GPU: device total (what nvidia-smi shows) against capacity. */
export function fitsOf(s: Scenario, gpus: readonly ChosenGpu[]): Fit[] {
  return gpus.map((c) => {
    const r = estimateOf(onGpu(s, c.spec));
    const est = r.ok ? r.value : null;
    const used = est ? est.deviceBytes : Infinity;
    return { ...c, est, fits: used <= c.gpu.capacityBytes && kvRoom(s, est), headroom: est ? c.gpu.capacityBytes - used : 0 };
  });
}
