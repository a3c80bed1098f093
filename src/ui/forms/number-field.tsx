import { useEffect, useId, useState } from 'react';
import { useT } from '../i18n';
import { formatNumber } from '../i18n/format';
import { describedBy, FieldNotes } from './field-notes';

export interface NumberFieldProps {
  label: string;
  value: number;
  min: number;
  max: number;
  /** integers only (batch, tokens, GPUs) */
  integer?: boolean;
  /** slider moves on a log scale (wide ranges such as context length) */
  log?: boolean;
  step?: number;
  /** slider range when narrower than what the box accepts (defaults: min / max) */
  sliderMin?: number;
  sliderMax?: number;
  help?: string;
  disabled?: boolean;
  disabledReason?: string;
  /** an error from the core validator for this key */
  error?: string;
  onChange: (v: number) => void;
}

const LOG_STEPS = 1000;

/** Slider position of a value (log sliders need min > 0; values outside pin to the ends). */
function toSlider(v: number, min: number, max: number, log: boolean): number {
  const c = Math.min(Math.max(v, min), max);
  if (!log) return c;
  const lo = Math.log(min);
  return Math.round(((Math.log(c) - lo) / (Math.log(max) - lo)) * LOG_STEPS);
}

function fromSlider(p: number, min: number, max: number, log: boolean, integer: boolean): number {
  if (!log) return p;
  if (p <= 0) return min;
  if (p >= LOG_STEPS) return max;
  const lo = Math.log(min);
  const v = Math.exp(lo + (p / LOG_STEPS) * (Math.log(max) - lo));
  return integer ? Math.round(v) : Number(v.toPrecision(3));
}

/** Parses what the user typed; accepts grouping commas/spaces and a trailing decimal point. */
export function parseTyped(text: string): number | null {
  const t = text.replace(/[,\s_]/g, '');
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i.test(t)) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/**
 * A slider paired with a number box. The box keeps what the user is typing: an external change
 * replaces the text only when the text does not already mean the current value, so "1." or "" are
 * never overwritten mid-edit. Invalid or out-of-range text is explained next to the field and not
 * sent to the store.
 */
export function NumberField(p: NumberFieldProps) {
  const t = useT();
  const id = useId();
  const [draft, setDraft] = useState(() => String(p.value));
  const typed = parseTyped(draft);
  useEffect(() => {
    if (parseTyped(draft) !== p.value) setDraft(String(p.value));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only external value changes should reach the draft
  }, [p.value]);

  let local: string | undefined;
  if (typed === null) local = t('field.notNumber');
  else if (p.integer && !Number.isInteger(typed)) local = t('field.notInteger');
  else if (typed < p.min || typed > p.max) local = t('field.outOfRange', { min: formatNumber(p.min, t.lang), max: formatNumber(p.max, t.lang) });
  const message = local ?? p.error;
  const notes = { error: message, why: p.disabled ? p.disabledReason : undefined, help: p.help };
  const described = describedBy(id, notes);
  const log = !!p.log;
  const sMin = p.sliderMin ?? p.min;
  const sMax = p.sliderMax ?? p.max;

  return (
    <div className={`field number-field${message ? ' invalid' : ''}${p.disabled ? ' disabled' : ''}`}>
      <label htmlFor={id}>{p.label}</label>
      <div className="number-row">
        <input
          type="range"
          aria-label={t('field.slider', { label: p.label })}
          min={log ? 0 : sMin}
          max={log ? LOG_STEPS : sMax}
          step={log ? 1 : (p.step ?? (p.integer ? 1 : 'any'))}
          value={toSlider(p.value, sMin, sMax, log)}
          aria-valuetext={formatNumber(p.value, t.lang)}
          disabled={p.disabled}
          aria-describedby={described}
          onChange={(e) => {
            const pos = Number(e.target.value);
            let v = fromSlider(pos, sMin, sMax, log, !!p.integer);
            // a log step can round back to the same integer: move by one so arrow keys never stick
            if (v === p.value && pos !== toSlider(p.value, sMin, sMax, log)) {
              v = Math.min(Math.max(p.value + Math.sign(pos - toSlider(p.value, sMin, sMax, log)), sMin), sMax);
            }
            setDraft(String(v));
            p.onChange(v);
          }}
        />
        <input
          id={id}
          type="text"
          inputMode="decimal"
          className="number-box"
          value={draft}
          disabled={p.disabled}
          aria-invalid={message ? true : undefined}
          aria-describedby={described}
          onChange={(e) => {
            setDraft(e.target.value);
            const v = parseTyped(e.target.value);
            if (v !== null && v >= p.min && v <= p.max && (!p.integer || Number.isInteger(v))) p.onChange(v);
          }}
        />
      </div>
      <FieldNotes id={id} {...notes} />
    </div>
  );
}
