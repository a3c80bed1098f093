import { useEffect, useId, useState } from 'react';
import { SCENARIO_FIELDS } from '../../core/scenario/schema';
import { formatRatios, parseRatios } from '../../core/scenario/values';
import { selectActive, useApp } from '../../state/store';
import { describedBy, FieldNotes } from '../forms/field-notes';
import { useT } from '../i18n';
import { fieldLabel } from '../i18n/scenario-labels';
import { fieldReason, reasonParams } from './compat';
import { help, useChange } from './fields';
import { useFieldError } from './use-estimate';

const kind = SCENARIO_FIELDS.find((f) => f.prop === 'tensorSplit')!.kind;
const MAX_COUNT = kind.type === 'ratios' ? kind.maxCount : 1;

const written = (v: readonly number[] | null) => (v ? formatRatios(v) : 'auto');

/**
 * llama.cpp --tensor-split as a text box ('3,1' or 'auto'), read by the core's own value parser:
 * what it rejects is explained next to the field and not sent to the store; the core's
 * one-weight-per-GPU rule shows here too.
 */
export function TensorSplitField() {
  const t = useT();
  const id = useId();
  const value = useApp((st) => selectActive(st).tensorSplit);
  const why = useApp((st) => fieldReason(selectActive(st), 'tensorSplit'));
  const change = useChange();
  const coreError = useFieldError('tensorSplit');
  const [draft, setDraft] = useState(() => written(value));
  const parsed = parseRatios('tensor-split', draft, MAX_COUNT);
  useEffect(() => {
    const r = parseRatios('tensor-split', draft, MAX_COUNT);
    if (!r.ok || written(r.value) !== written(value)) setDraft(written(value));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only external value changes should reach the draft
  }, [value]);
  const error = parsed.ok ? coreError : t.core(parsed.error);
  const notes = { error, why: why ? t(why, reasonParams(t.lang, 'tensorSplit')) : undefined, help: help(t, 'tensorSplit') };
  return (
    <div className={`field text-field${error ? ' invalid' : ''}${why ? ' disabled' : ''}`}>
      <label htmlFor={id}>{fieldLabel(t.lang, 'tensorSplit')}</label>
      <input
        id={id}
        type="text"
        className="number-box"
        value={draft}
        disabled={!!why}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, notes)}
        onChange={(e) => {
          setDraft(e.target.value);
          const r = parseRatios('tensor-split', e.target.value, MAX_COUNT);
          if (r.ok) change({ tensorSplit: r.value });
        }}
      />
      <FieldNotes id={id} {...notes} />
    </div>
  );
}
