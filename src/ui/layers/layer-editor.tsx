import { useEffect, useId, useState } from 'react';
import type { LayerSpec } from '../../core/layers/spec';
import { useLT } from './layers-i18n';
import { argOf, CLASS_NAME, defaultOf, fieldsOf, fieldText, isLeafKind, LEAF_KINDS, newLayer, readField, torchArg, type FieldType, type LeafKind } from './layer-fields';
import type { Step } from './net-edits';
import { useNet } from './net-store';

interface ArgProps {
  kind: string;
  field: string;
  type: FieldType;
  value: unknown;
  onValue: (v: unknown) => void;
}

/** One argument: a checkbox, a choice, or a text box that keeps what is typed until it is valid. */
function Arg({ kind, field, type, value, onValue }: ArgProps) {
  const t = useLT();
  const id = useId();
  const name = torchArg(kind, field);
  const dflt = defaultOf(kind, field);
  const [draft, setDraft] = useState(fieldText(value ?? dflt));
  useEffect(() => {
    if (type !== 'bool' && fieldText(readField(type, draft) ?? undefined) !== fieldText(value ?? dflt)) setDraft(fieldText(value ?? dflt));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only outside changes of the value replace what is being typed
  }, [value, dflt]);
  if (type === 'bool') {
    const checked = typeof value === 'boolean' ? value : dflt === true;
    return (
      <label className="net-arg check">
        <input type="checkbox" checked={checked} onChange={(e) => onValue(e.target.checked)} /> {name}
      </label>
    );
  }
  if (type === 'act' || type === 'merge') {
    const choices = type === 'act' ? ['relu', 'gelu'] : ['add', 'concat'];
    return (
      <div className="net-arg">
        <label htmlFor={id}>{name}</label>
        <select id={id} value={fieldText(value ?? dflt)} onChange={(e) => onValue(e.target.value)}>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </div>
    );
  }
  const bad = readField(type, draft) === null && !(draft === '' && value === undefined);
  return (
    <div className={`net-arg${bad ? ' invalid' : ''}`}>
      <label htmlFor={id}>{name}</label>
      <input
        id={id}
        type="text"
        value={draft}
        spellCheck={false}
        size={8}
        aria-invalid={bad || undefined}
        aria-describedby={bad ? `${id}-err` : undefined}
        onChange={(e) => {
          setDraft(e.target.value);
          const v = readField(type, e.target.value);
          if (v !== null) onValue(v);
        }}
      />
      {bad && (
        <p id={`${id}-err`} className="field-msg" role="alert">
          {t('edit.bad', { arg: name })}
        </p>
      )}
    </div>
  );
}

/** Edit one layer in place: its type (a new type starts from arguments that fit the shape flowing in) and arguments. */
export function LayerEditor({ at, spec, inShape, label, onClose }: { at: Step[]; spec: LayerSpec; inShape: number[] | null; label: string; onClose: () => void }) {
  const t = useLT();
  const id = useId();
  const setFields = useNet((s) => s.setFields);
  const fields = fieldsOf(spec.kind);
  return (
    <div className="net-editor" role="group" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('edit.title', { name: label })}</h3>
      <div className="net-args">
        {isLeafKind(spec.kind) && (
          <div className="net-arg">
            <label htmlFor={`${id}-kind`}>{t('edit.kind')}</label>
            <select id={`${id}-kind`} value={spec.kind} onChange={(e) => setFields(at, newLayer(e.target.value as LeafKind, inShape ?? []))}>
              {LEAF_KINDS.map((k) => (
                <option key={k} value={k}>
                  {CLASS_NAME[k] ?? k}
                </option>
              ))}
            </select>
          </div>
        )}
        {fields.map(([f, type]) => (
          <Arg key={`${spec.kind}.${f}`} kind={spec.kind} field={f} type={type} value={argOf(spec, f)} onValue={(v) => setFields(at, { [f]: v as never })} />
        ))}
      </div>
      <button type="button" onClick={onClose}>
        {t('edit.close')}
      </button>
    </div>
  );
}
