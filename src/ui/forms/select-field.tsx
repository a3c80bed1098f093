import { useId } from 'react';
import { describedBy, FieldNotes } from './field-notes';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
  /** why this option cannot be chosen now (shown in the option text and as a title) */
  disabledReason?: string;
  /** longer explanation for the tooltip */
  detail?: string;
}

export interface SelectFieldProps<V extends string> {
  label: string;
  value: V;
  options: SelectOption<V>[];
  help?: string;
  disabled?: boolean;
  disabledReason?: string;
  error?: string;
  onChange: (v: V) => void;
}

/** A labelled <select>; options that make no sense with the rest are disabled with their reason. */
export function SelectField<V extends string>(p: SelectFieldProps<V>) {
  const id = useId();
  const notes = { error: p.error, why: p.disabled ? p.disabledReason : undefined, help: p.help };
  return (
    <div className={`field select-field${p.disabled ? ' disabled' : ''}${p.error ? ' invalid' : ''}`}>
      <label htmlFor={id}>{p.label}</label>
      <select id={id} value={p.value} disabled={p.disabled} aria-describedby={describedBy(id, notes)} aria-invalid={p.error ? true : undefined} onChange={(e) => p.onChange(e.target.value as V)}>
        {p.options.map((o) => (
          <option key={o.value} value={o.value} disabled={!!o.disabledReason} title={o.detail ?? o.disabledReason}>
            {o.disabledReason ? `${o.label} — ${o.disabledReason}` : o.label}
          </option>
        ))}
      </select>
      <FieldNotes id={id} {...notes} />
    </div>
  );
}
