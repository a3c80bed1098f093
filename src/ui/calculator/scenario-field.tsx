import type { Scenario } from '../../core/types';
import { LoraTargets, ScenarioNumber, ScenarioSelect, SPEC } from './fields';
import { TensorSplitField } from './tensor-split-field';

/**
 * The control of a schema key, chosen by its kind: a select, a number (slider + box), a list of
 * ratios (llama.cpp --tensor-split) or the LoRA target checkboxes.
 */
export function ScenarioField({ prop }: { prop: Exclude<keyof Scenario, 'arch'> }) {
  if (prop === 'loraTargets') return <LoraTargets />;
  switch (SPEC.get(prop)?.kind.type) {
    case 'enum':
      return <ScenarioSelect prop={prop} />;
    case 'int':
    case 'float':
      return <ScenarioNumber prop={prop} />;
    case 'ratios':
      return <TensorSplitField />;
    default:
      return null;
  }
}
