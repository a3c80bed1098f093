/** Llama-2-7b training runs shared by the step-phase tests. */
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Scenario } from '../../../src/core/types';

export const LLAMA2 = 'meta-llama/Llama-2-7b-hf';
/** Llama-2-7b, published count (docs/reference/formulas.md §1.1) */
export const P = 6_738_415_616;

/** Estimate of a Llama-2-7b training scenario; throws on a rejected scenario. */
export function run(over: Partial<Scenario>): Estimate {
  const r = estimate({ ...defaultScenario(), model: LLAMA2, mode: 'training', ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
