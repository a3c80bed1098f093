import { useId } from 'react';
import type { ModelArch } from '../../core/types';
import { ARCH_FIELDS, type ArchFieldSpec } from '../../core/scenario/arch-fields';
import { isModelArch } from '../../core/model/arch-check';
import { browserStorage } from '../../state/storage/browser-storage';
import { deleteModel, loadSavedModels, MODELS_STORE, saveModel } from '../../state/storage/models';
import { backupKeys } from '../../state/storage/versioned-store';
import { SavedList, useLoaded } from '../forms/saved-list';
import { selectActive, useApp } from '../../state/store';
import { NumberField } from '../forms/number-field';
import { useT } from '../i18n';
import { archLabel } from '../i18n/arch-labels';

function valueOf(a: ModelArch, prop: ArchFieldSpec['prop']): unknown {
  if (prop.startsWith('moe.')) return a.moe?.[prop.slice(4) as keyof NonNullable<ModelArch['moe']>];
  return a[prop as keyof ModelArch];
}

/**
 * Edit any architecture field of `arch` (overrides on a preset), and save / load custom models.
 * The body of the model picker's "Edit architecture fields" box, in a chunk of its own that is
 * fetched when the box is first opened (model-picker.tsx).
 */
export function ArchEditor({ arch }: { arch: ModelArch }) {
  const t = useT();
  const model = useApp((st) => selectActive(st).model);
  const over = useApp((st) => selectActive(st).arch);
  const patch = useApp((st) => st.patch);
  const set = (prop: ArchFieldSpec['prop'], v: unknown) => {
    const cur = { ...(over ?? {}) };
    if (prop.startsWith('moe.')) cur.moe = { ...arch.moe!, [prop.slice(4)]: v };
    else (cur as Record<string, unknown>)[prop] = v;
    patch({ arch: cur });
  };
  const fields = ARCH_FIELDS.filter((f) => !f.prop.startsWith('moe.') || arch.moe);
  return (
    <>
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
    </>
  );
}

function ArchInput({ spec, value, onChange }: { spec: ArchFieldSpec; value: unknown; onChange: (v: unknown) => void }) {
  const t = useT();
  const id = useId();
  const label = archLabel(t.lang, spec.prop) ?? spec.name;
  const k = spec.kind;
  if (k.type === 'int')
    return (
      <NumberField
        label={label}
        value={typeof value === 'number' ? value : k.min}
        min={k.min}
        max={k.max}
        sliderMin={Math.max(1, k.min)}
        sliderMax={Math.min(k.max, 1 << 20)}
        integer
        log
        help={spec.help}
        onChange={onChange}
      />
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
        <select id={id} value={typeof value === 'string' ? value : k.values[0]} onChange={(e) => onChange(e.target.value)}>
          {k.values.map((v) => (
            <option key={v} value={v}>
              {v}
            </option>
          ))}
        </select>
      </div>
    );
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="text" value={String((value as string | number | undefined) ?? '')} onChange={(e) => onChange(e.target.value.replace(/[^\w.-]/g, '').slice(0, 40))} />
    </div>
  );
}

const readModels = () => loadSavedModels(browserStorage());

function SavedModels({ arch }: { arch: ModelArch }) {
  const t = useT();
  const patch = useApp((st) => st.patch);
  const [loaded, refresh] = useLoaded(readModels);
  return (
    <SavedList
      loaded={loaded}
      refresh={refresh}
      backupKey={backupKeys(MODELS_STORE.key)[0]}
      canSave={isModelArch(arch)}
      labels={{ title: t('saved.title'), name: t('saved.name'), save: t('saved.save') }}
      onSave={(name) => saveModel(browserStorage(), name, arch)}
      onDelete={(name) => deleteModel(browserStorage(), name)}
      onLoad={(_, m) => patch({ model: 'custom', arch: m.arch, params: null })}
    />
  );
}
