import { useId, useMemo, useState } from 'react';
import type { ModelArch } from '../../core/types';
import { findPreset } from '../../core/model/presets';
import { ARCH_FIELDS, type ArchFieldSpec } from '../../core/scenario/arch-fields';
import { deleteModel, isArch, loadSavedModels, saveModel } from '../../state/saved-models';
import { selectActive, useApp } from '../../state/store';
import { NumberField } from '../forms/number-field';
import { useT } from '../i18n';
import { ARCH_LABEL } from '../i18n/scenario-labels';

/** The architecture the estimate uses: the preset's (plus overrides) or the custom one. */
export function useArch(): ModelArch | null {
  const model = useApp((st) => selectActive(st).model);
  const over = useApp((st) => selectActive(st).arch);
  return useMemo(() => {
    const base = model === 'custom' ? null : (findPreset(model)?.arch ?? null);
    if (!base && model !== 'custom') return null;
    const merged = { ...(base ?? {}), ...(over ?? {}) } as ModelArch;
    if (base?.moe || over?.moe) merged.moe = { ...base?.moe, ...over?.moe } as ModelArch['moe'];
    return merged;
  }, [model, over]);
}

function valueOf(a: ModelArch, prop: ArchFieldSpec['prop']): unknown {
  if (prop.startsWith('moe.')) return a.moe?.[prop.slice(4) as keyof NonNullable<ModelArch['moe']>];
  return a[prop as keyof ModelArch];
}

/** Edit any architecture field (overrides on a preset), and save / load custom models. */
export function ArchEditor() {
  const t = useT();
  const model = useApp((st) => selectActive(st).model);
  const over = useApp((st) => selectActive(st).arch);
  const patch = useApp((st) => st.patch);
  const arch = useArch();
  if (!arch) return null;
  const set = (prop: ArchFieldSpec['prop'], v: unknown) => {
    const cur = { ...(over ?? {}) };
    if (prop.startsWith('moe.')) cur.moe = { ...arch.moe!, [prop.slice(4)]: v };
    else (cur as Record<string, unknown>)[prop] = v;
    patch({ arch: cur });
  };
  const fields = ARCH_FIELDS.filter((f) => !f.prop.startsWith('moe.') || arch.moe);
  return (
    <details>
      <summary>{t('arch.title')}</summary>
      <p className="field-help">{t('arch.help')}</p>
      {fields.map((f) => (
        <ArchInput key={f.prop} spec={f} value={valueOf(arch, f.prop)} onChange={(v) => set(f.prop, v)} />
      ))}
      {over && model !== 'custom' && (
        <button type="button" onClick={() => patch({ arch: null })}>
          {t('arch.reset')}
        </button>
      )}
      <SavedModels arch={arch} />
    </details>
  );
}

function ArchInput({ spec, value, onChange }: { spec: ArchFieldSpec; value: unknown; onChange: (v: unknown) => void }) {
  const t = useT();
  const id = useId();
  const label = ARCH_LABEL[t.lang][spec.prop] ?? spec.name;
  const k = spec.kind;
  if (k.type === 'int')
    return (
      <NumberField label={label} value={typeof value === 'number' ? value : k.min} min={k.min} max={k.max} sliderMin={Math.max(1, k.min)}
        sliderMax={Math.min(k.max, 1 << 20)} integer log help={spec.help} onChange={onChange} />
    );
  if (k.type === 'bool')
    return (
      <div className="field">
        <label htmlFor={id}>
          <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}
        </label>
      </div>
    );
  if (k.type === 'enum')
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <select id={id} value={String(value)} onChange={(e) => onChange(e.target.value)}>
          {k.values.map((v) => (
            <option key={v} value={v}>{v}</option>
          ))}
        </select>
      </div>
    );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={String(value ?? '')} onChange={(e) => onChange(e.target.value.replace(/[^\w.-]/g, '').slice(0, 40))} />
    </div>
  );
}

function SavedModels({ arch }: { arch: ModelArch }) {
  const t = useT();
  const id = useId();
  const patch = useApp((st) => st.patch);
  const [name, setName] = useState('');
  const [list, setList] = useState(() => loadSavedModels(localStorage).models);
  const [failed, setFailed] = useState(false);
  const refresh = () => setList(loadSavedModels(localStorage).models);
  return (
    <fieldset>
      <legend>{t('saved.title')}</legend>
      <div className="row">
        <div className="field">
          <label htmlFor={id}>{t('saved.name')}</label>
          <input id={id} type="text" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
        </div>
        <button
          type="button"
          disabled={!name.trim() || !isArch(arch)}
          onClick={() => {
            setFailed(!saveModel(localStorage, name.trim(), arch));
            refresh();
          }}
        >
          {t('saved.save')}
        </button>
      </div>
      {failed && <p className="field-msg" role="alert">{t('saved.failed')}</p>}
      {list.length > 0 && (
        <ul className="gpu-chips" aria-label={t('saved.title')}>
          {list.map((m) => (
            <li key={m.name}>
              <button type="button" className="linkish" onClick={() => patch({ model: 'custom', arch: m.arch, params: null })}>
                {m.name}
              </button>
              <button type="button" aria-label={t('saved.delete', { name: m.name })} onClick={() => { deleteModel(localStorage, m.name); refresh(); }}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
