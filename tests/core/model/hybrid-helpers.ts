/** Shared by the hybrid / linear-attention model tests: a preset's architecture, a bf16 inference estimate, a term's bytes. */
import { estimate } from '../../../src/core/estimate';
import { findPreset } from '../../../src/core/model/presets';
import { defaultScenario } from '../../../src/core/scenario';
import type { Estimate, ModelArch, Scenario } from '../../../src/core/types';

export function presetArch(id: string): ModelArch {
  const p = findPreset(id);
  if (!p) throw new Error(id);
  return p.arch;
}

/** Inference in bf16 (weights and KV), batch 1, prompt only, with `p` on top. */
export function runInference(p: Partial<Scenario>): Estimate {
  const r = estimate({ ...defaultScenario(), mode: 'inference', weights: 'bf16', kv: 'bf16', batch: 1, gen: 0, ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

export const termOf = (e: Estimate, id: string): number => e.terms.find((t) => t.id === id)?.bytes ?? 0;
