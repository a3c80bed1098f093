import type { Scenario } from '../../core/types';
import { ruleArch } from '../../core/scenario/rules';
import { modelReads } from '../../core/scenario/model-kind';
import { selectActive, useApp } from '../../state/store';
import { LoraTargets, ScenarioNumber, ScenarioSelect, SPEC } from './fields';
import { TensorSplitField } from './tensor-split-field';

/**
 * The control of a schema key, chosen by its kind: a select, a number (slider + box), a list of
 * ratios (llama.cpp --tensor-split) or the LoRA target checkboxes. A key the chosen model does
 * not read (schema `models`: gen and the KV format for an embedding model, images for a text
 * model) is not shown.
 */
export function ScenarioField({ prop }: { prop: Exclude<keyof Scenario, 'arch'> }) {
  const kind = SPEC.get(prop)?.models;
  const shown = useApp((st) => !kind || modelReads(kind, ruleArch(selectActive(st))));
  if (!shown) return null;
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
