import { useId, useMemo } from 'react';
import type { LoraTarget, Method, Scenario } from '../../core/types';
import { LORA_TARGETS, SCENARIO_FIELDS, type FieldSpec } from '../../core/scenario/schema';
import { selectActive, useApp } from '../../state/store';
import { NumberField } from '../forms/number-field';
import { SelectField } from '../forms/select-field';
import { useT, type T } from '../i18n';
import { fieldLabel, optionLabel, zhHelp } from '../i18n/scenario-labels';
import { fieldReason, optionReason, reasonParams, repair, withGridGpus } from './compat';
import { methodChange } from './recipes';
import { autoValue } from '../../core/scenario/auto-values';
import { useFieldError } from './use-estimate';

type Prop = Exclude<keyof Scenario, 'arch'>;
/** Each scenario key's schema entry. */
export const SPEC = new Map<keyof Scenario, FieldSpec>(SCENARIO_FIELDS.map((f) => [f.prop, f]));

/** A key's help in the page language (the schema's English help until the Chinese chunk arrives). */
export function help(t: T, prop: Prop): string {
  return zhHelp(t.lang, prop) ?? SPEC.get(prop)?.help ?? '';
}

/** Apply a change to the active scenario, then repair values it made impossible. */
export function useChange() {
  const patch = useApp((st) => st.patch);
  return (p: Partial<Scenario>) => patch(repair({ ...selectActive(useApp.getState()), ...p }));
}

/** A tp or pp change with the GPU count it needs (see withGridGpus). */
function gridChange(prop: 'tp' | 'pp', v: number): Partial<Scenario> {
  const s = withGridGpus({ ...selectActive(useApp.getState()), [prop]: v });
  return { [prop]: v, gpus: s.gpus };
}

/**
 * Keys no incompatibility rule reads (rules.ts): a change to them cannot enable or disable an
 * option. Not gradAccum: optim-step=in-backward needs grad-accum=1.
 */
const RULE_FREE: readonly (keyof Scenario)[] = ['batch', 'prompt', 'gen', 'seq', 'loraRank', 'gpuUtil', 'ngl', 'ubatch'];

const RULE_KEYS = new WeakMap<Scenario, string>();

/**
 * The rule-relevant part of a scenario, as a string so a selector can compare it cheaply; built
 * once per scenario object (every select's selector asks on every store change).
 */
function ruleKey(s: Scenario): string {
  let key = RULE_KEYS.get(s);
  if (key === undefined) {
    const o: Partial<Scenario> = { ...s };
    for (const k of RULE_FREE) delete o[k];
    key = JSON.stringify(o);
    RULE_KEYS.set(s, key);
  }
  return key;
}

/** A schema enum key as a select; impossible options are disabled with their reason. */
export function ScenarioSelect({ prop }: { prop: Prop }) {
  const t = useT();
  const value = useApp((st) => String(selectActive(st)[prop]));
  const rules = useApp((st) => ruleKey(selectActive(st)));
  const why = useApp((st) => fieldReason(selectActive(st), prop));
  const change = useChange();
  const error = useFieldError(prop);
  const options = useMemo(() => {
    const s = selectActive(useApp.getState());
    const kind = SPEC.get(prop)!.kind;
    return (kind.type === 'enum' ? kind.values : []).map((v) => {
      const r = optionReason(s, prop, v);
      return { value: v, label: optionLabel(t.lang, prop, v), disabledReason: r && t(r.key), detail: r?.detail };
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the options read the store through getState(); `rules` is what changes them
  }, [rules, t, prop]);
  return (
    <SelectField
      label={fieldLabel(t.lang, prop)}
      value={value}
      help={help(t, prop)}
      error={error}
      disabled={!!why}
      disabledReason={why && t(why, reasonParams(t.lang, prop))}
      options={options}
      onChange={(v) => change(prop === 'method' ? methodChange(v as Method) : { [prop]: prop === 'zero' ? Number(v) : v })}
    />
  );
}

/** A schema number key as slider + box, with the schema's range and slider (`FieldSpec.slider`) and the core's error. */
export function ScenarioNumber({ prop }: { prop: Prop }) {
  const t = useT();
  const slider = SPEC.get(prop)?.slider;
  const log = slider?.log ?? false;
  const sliderMax = slider?.max;
  const raw = useApp((st) => selectActive(st)[prop]);
  // a key left at 'auto' shows the number auto stands for (resolution: the native image side)
  const auto = useApp((st) => (selectActive(st)[prop] === null ? autoValue(selectActive(st), prop) : null));
  const why = useApp((st) => fieldReason(selectActive(st), prop));
  const change = useChange();
  const error = useFieldError(prop);
  const kind = SPEC.get(prop)!.kind;
  if (kind.type !== 'int' && kind.type !== 'float') return null;
  const nullable = kind.type === 'int' && kind.nullToken !== undefined;
  const value = typeof raw === 'number' ? raw : (auto ?? kind.min);
  const field = (
    <NumberField
      label={fieldLabel(t.lang, prop)}
      value={value}
      min={kind.min}
      max={kind.max}
      sliderMin={log ? Math.max(kind.min, 1) : kind.min}
      sliderMax={Math.min(sliderMax ?? kind.max, kind.max)}
      integer={kind.type === 'int'}
      log={log}
      step={kind.type === 'float' ? 0.01 : 1}
      help={help(t, prop)}
      error={error}
      disabled={!!why || (nullable && raw === null)}
      disabledReason={why && t(why, reasonParams(t.lang, prop))}
      onChange={(v) => change(prop === 'tp' || prop === 'pp' ? gridChange(prop, v) : { [prop]: v })}
    />
  );
  if (!nullable) return field;
  return <NullableNumber prop={prop} token={kind.nullToken!} isNull={raw === null} disabled={!!why} fallback={value} field={field} />;
}

/** What a key's 'auto' box says it stands for. */
function autoLabel(prop: Prop) {
  if (prop === 'resolution') return 'field.nullNative';
  if (prop === 'lenMean') return 'field.nullHalfSeq';
  if (prop === 'groupSize') return 'field.nullDefault';
  if (prop === 'dsReduceBucket' || prop === 'dsPrefetchBucket' || prop === 'dsPersistThreshold') return 'field.nullHfAuto';
  return 'field.nullAuto';
}

function NullableNumber(p: { prop: Prop; token: string; isNull: boolean; disabled: boolean; fallback: number; field: React.ReactNode }) {
  const t = useT();
  const change = useChange();
  const id = useId();
  return (
    <div className="nullable">
      {p.field}
      <label htmlFor={id} className="small">
        <input id={id} type="checkbox" checked={p.isNull} disabled={p.disabled} onChange={(e) => change({ [p.prop]: e.target.checked ? null : p.fallback })} />{' '}
        {t(p.token === 'all' ? 'field.nullAll' : autoLabel(p.prop))}
      </label>
    </div>
  );
}

/** LoRA target projections as a checkbox group. */
export function LoraTargets() {
  const t = useT();
  const targets = useApp((st) => selectActive(st).loraTargets);
  const why = useApp((st) => fieldReason(selectActive(st), 'loraTargets'));
  const change = useChange();
  const toggle = (x: LoraTarget, on: boolean) => {
    const next = LORA_TARGETS.filter((y) => (y === x ? on : targets.includes(y)));
    if (next.length > 0) change({ loraTargets: next });
  };
  return (
    <fieldset disabled={!!why}>
      <legend>{fieldLabel(t.lang, 'loraTargets')}</legend>
      <div className="checks">
        {LORA_TARGETS.map((x) => (
          <label key={x}>
            <input type="checkbox" checked={targets.includes(x)} onChange={(e) => toggle(x, e.target.checked)} /> {x}_proj
          </label>
        ))}
      </div>
      <button type="button" className="linkish" disabled={targets.length === LORA_TARGETS.length} onClick={() => change({ loraTargets: [...LORA_TARGETS] })}>
        {t('form.allLinear')}
      </button>
      {why && <p className="field-why">{t(why)}</p>}
    </fieldset>
  );
}
