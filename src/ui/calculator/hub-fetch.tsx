import { useId, useRef, useState } from 'react';
import { readHubModel, repoIdError, type HubModel } from '../../core/hub/hub-read';
import { parseHfConfig } from '../../core/model/config';
import { countParams } from '../../core/model/params';
import { fetchHubGet } from '../../state/hub-fetch';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes, formatCount } from '../i18n/format';
import { useHubT } from './hub-i18n';

type Status = { kind: 'idle' } | { kind: 'busy'; id: string } | { kind: 'error'; lines: string[] } | { kind: 'done'; model: HubModel; family: string; counted: number };

/**
 * "Fetch from Hugging Face": config.json and the safetensors headers of a Hub model
 * (src/core/hub/hub-read.ts), only when the user presses Fetch; the page's CSP lets it reach
 * huggingface.co and its file hosts and nothing else. The model becomes the scenario's custom
 * architecture, as a pasted config.json does. The embed never fetches.
 */
export function HubFetch() {
  const t = useT();
  const h = useHubT();
  const id = useId();
  const embed = useApp((s) => s.embed);
  const unit = useApp((s) => s.unit);
  const patch = useApp((s) => s.patch);
  const [repo, setRepo] = useState('');
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const asked = useRef(0);
  if (embed) return null;

  const fetchModel = async () => {
    const want = repo.trim();
    const mine = ++asked.current;
    const bad = repoIdError(want);
    if (bad) return setStatus({ kind: 'error', lines: [t.core(bad)] });
    setStatus({ kind: 'busy', id: want });
    const r = await readHubModel(want, fetchHubGet());
    if (mine !== asked.current) return;
    if (!r.ok) return setStatus({ kind: 'error', lines: [t.core(r.error)] });
    const arch = parseHfConfig(r.value.config);
    if (!arch.ok) return setStatus({ kind: 'error', lines: [h('configBad', { id: want }), ...arch.errors.map((e) => t.core(e))] });
    patch({ model: 'custom', arch: arch.value, params: null });
    setStatus({ kind: 'done', model: r.value, family: arch.value.family, counted: countParams(arch.value).total });
  };

  const w = status.kind === 'done' ? status.model.weights : null;
  const packed = status.kind === 'done' && typeof status.model.config === 'object' && status.model.config !== null && 'quantization_config' in status.model.config;
  return (
    <form
      className="field"
      onSubmit={(e) => {
        e.preventDefault();
        void fetchModel();
      }}
    >
      <h3 className="small">{h('title')}</h3>
      <p id={`${id}-privacy`} className="small muted">
        {h('privacy')}
      </p>
      <label htmlFor={id}>{h('id')}</label>
      <div className="row">
        <input
          id={id}
          type="text"
          placeholder="Qwen/Qwen2.5-7B-Instruct"
          spellCheck={false}
          autoComplete="off"
          value={repo}
          aria-invalid={status.kind === 'error' || undefined}
          aria-describedby={`${id}-privacy${status.kind === 'error' ? ` ${id}-err` : ''}`}
          onChange={(e) => setRepo(e.target.value)}
        />
        <button type="submit" disabled={status.kind === 'busy'}>
          {h('fetch')}
        </button>
      </div>
      <div role="status" aria-live="polite" className="small">
        {status.kind === 'busy' && <p>{h('busy', { id: status.id })}</p>}
        {status.kind === 'done' && (
          <>
            <p>{h('loaded', { id: status.model.id, family: status.family })}</p>
            <p>
              {w
                ? h('files', {
                    files: status.model.files.length,
                    elements: formatCount(w.elements, t.lang),
                    bytes: formatBytes(w.bytes, unit, t.lang),
                    // one dtype: its name; several: each with its share
                    dtypes: Object.entries(w.byDtype)
                      .map(([d, v], _, all) => (all.length > 1 ? `${d} ${formatBytes(v.bytes, unit, t.lang)}` : d))
                      .join(', '),
                  })
                : h('noFiles')}{' '}
              {h('counted', { params: formatCount(status.counted, t.lang) })}
            </p>
            {packed && <p>{h('packed')}</p>}
          </>
        )}
      </div>
      {status.kind === 'error' && (
        <ul id={`${id}-err`} className="field-msg" role="alert">
          {status.lines.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      )}
    </form>
  );
}
