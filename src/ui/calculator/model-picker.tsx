import { useId, useState } from 'react';
import { DIFFUSION_PRESETS } from '../../core/diffusion/presets';
import { searchPresets } from '../../core/model/presets';
import { parseQuickCount } from '../../core/model/quick';
import { MAX_PARAMS } from '../../core/scenario/parse';
import { selectActive, useApp } from '../../state/store';
import { LazyDetails } from '../forms/lazy-details';
import { useT } from '../i18n';
import { formatCount } from '../i18n/format';
import { lazyRetry } from '../shell/lazy-retry';
import { useArch } from './use-arch';
import { repair } from './compat';
import { estimateOf } from './use-estimate';
import { preloadEstimator } from './estimator-loader';

// the boxes start closed: their code (and the saved-models list) is fetched when one is first opened
const ConfigPaste = lazyRetry(async () => ({ default: (await import('./config-paste')).ConfigPaste }));
const ArchEditor = lazyRetry(async () => ({ default: (await import('./arch-editor')).ArchEditor }));

/** Model choice: search the presets, a bare parameter count, a pasted config.json, a Hub model fetched on request, or edited fields. */
export function ModelPicker() {
  const t = useT();
  const arch = useArch();
  const model = useApp((st) => selectActive(st).model);
  const family = useApp((st) => selectActive(st).arch?.family ?? '');
  const current = model === 'custom' ? t('model.custom', { family }) : model || t('model.bare');
  return (
    <section className="panel" aria-labelledby="model-h">
      <h2 id="model-h">{t('model.title')}</h2>
      <p className="small" aria-live="polite">
        <strong>{current}</strong>
        <ParamCount />
      </p>
      <PresetSearch />
      <ImagePresets />
      <BareCount />
      <LazyDetails name="config-paste" className="config-paste" summary={t('config.title')}>
        <ConfigPaste />
      </LazyDetails>
      {arch && (
        <LazyDetails name="arch-editor" summary={t('arch.title')}>
          <ArchEditor arch={arch} />
        </LazyDetails>
      )}
    </section>
  );
}

/** The total parameter count (re-renders only when it changes). */
function ParamCount() {
  const t = useT();
  const total = useApp((st) => {
    const r = estimateOf(selectActive(st));
    return r.ok ? r.value.params.total : null;
  });
  return total === null ? null : <> · {t('model.params', { n: formatCount(total, t.lang) })}</>;
}

function PresetSearch() {
  const t = useT();
  const id = useId();
  const patch = useApp((st) => st.patch);
  const [q, setQ] = useState('');
  const hits = q.trim() ? searchPresets(q).slice(0, 8) : [];
  return (
    <div className="field">
      <label htmlFor={id}>{t('model.search')}</label>
      <input id={id} type="search" aria-controls={`${id}-list`} placeholder="llama 3 8b, qwen2.5, mixtral…" value={q} onChange={(e) => setQ(e.target.value)} />
      {q.trim() !== '' && (
        <ul id={`${id}-list`} className="listbox" aria-label={t('model.results')} aria-live="polite">
          {hits.length === 0 && <li className="muted small">{t('model.noHits')}</li>}
          {hits.map((p) => (
            <li key={p.id}>
              <button
                type="button"
                onClick={() => {
                  patch({ model: p.id, arch: null, params: null });
                  setQ('');
                }}
              >
                <span>{p.name}</span>
                <span className="muted small">{p.id}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The image-generation pipelines (core/diffusion): a separate group, inference only. */
function ImagePresets() {
  const t = useT();
  const model = useApp((st) => selectActive(st).model);
  const patch = useApp((st) => st.patch);
  // the pipelines' estimator is a lazy chunk: start fetching it when a button is approached
  const preload = () => preloadEstimator('diffusion');
  return (
    <fieldset className="image-presets" onPointerEnter={preload} onFocus={preload}>
      <legend>{t('model.imageGroup')}</legend>
      <div className="row">
        {DIFFUSION_PRESETS.map((p) => (
          <button
            key={p.id}
            type="button"
            aria-pressed={model === p.id}
            title={p.id}
            onClick={() => patch(repair({ ...selectActive(useApp.getState()), model: p.id, arch: null, params: null, mode: 'inference' }))}
          >
            {p.name}
          </button>
        ))}
      </div>
    </fieldset>
  );
}

function BareCount() {
  const t = useT();
  const id = useId();
  const patch = useApp((st) => st.patch);
  const [text, setText] = useState('');
  const [error, setError] = useState(false);
  const apply = () => {
    const n = parseQuickCount(text);
    const ok = n !== null && n >= 1 && n <= MAX_PARAMS;
    setError(!ok);
    if (ok) patch({ model: '', arch: null, params: Math.round(n) });
  };
  return (
    <form
      className="field"
      onSubmit={(e) => {
        e.preventDefault();
        apply();
      }}
    >
      <label htmlFor={id}>{t('model.count')}</label>
      <div className="row">
        <input
          id={id}
          type="text"
          placeholder="7b, 350m, 1.5e9"
          value={text}
          aria-invalid={error || undefined}
          aria-describedby={error ? `${id}-msg` : undefined}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit">{t('model.useCount')}</button>
      </div>
      {error && (
        <p id={`${id}-msg`} className="field-msg" role="alert">
          {t('model.badCount')}
        </p>
      )}
    </form>
  );
}
