import { SCENARIO_FIELDS, type FieldSpec } from '../../core/scenario';
import { fieldText } from '../../core/scenario/serialize';
import type { Scenario } from '../../core/types';
import type { Lang } from '../../state/store';
import { formatNumber } from '../i18n/format';
import { fieldLabel, optionLabel, type FieldProp } from '../i18n/scenario-labels';

/** Keys every chip names anyway (the model and the mode) or that the page holds for all scenarios (the GPU). */
const NAMED_ANYWAY = new Set(['model', 'params', 'mode', 'gpu']);

/** At most this many differences on one chip; more end in "…". */
export const MAX_SHOWN_DIFFERENCES = 3;

/**
 * The scenario keys, in the schema's order, whose values are not the same in every scenario,
 * compared in their link spelling (core/scenario/serialize.ts fieldText). Model, mode and GPU are
 * left out: every chip names the first two, and the page judges every scenario on the same GPUs.
 */
export function differingFields(scenarios: readonly Scenario[]): FieldSpec[] {
  if (scenarios.length < 2) return [];
  return SCENARIO_FIELDS.filter((f) => !NAMED_ANYWAY.has(f.name) && new Set(scenarios.map((s) => fieldText(s, f))).size > 1);
}

/** Keys whose option labels name themselves ("AWQ int4", "QLoRA", "vLLM", "pure bf16", "AdamW 8-bit"). */
const SELF_NAMED = new Set(['weights', 'method', 'engine', 'precision', 'optimizer']);

/** One key's value in a chip's words: "AWQ int4", "Batch size 16", "Gradient checkpointing: Full (every layer)". */
export function valueWords(lang: Lang, s: Scenario, f: FieldSpec): string {
  const prop = f.prop as FieldProp;
  const v = s[prop];
  if (f.kind.type === 'enum') {
    const option = optionLabel(lang, prop, String(v));
    return SELF_NAMED.has(f.name) ? option : `${fieldLabel(lang, prop)}: ${option}`;
  }
  return `${fieldLabel(lang, prop)} ${typeof v === 'number' ? formatNumber(v, lang) : fieldText(s, f)}`;
}
