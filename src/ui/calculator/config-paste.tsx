import { useId, useState } from 'react';
import { parseHfConfig } from '../../core/model/config';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { TextFileInput } from '../forms/text-file-input';
import { MiB } from '../../core/units';
import { HubFetch } from './hub-fetch';

/** A config.json is a few kB; anything past 1 MiB is not one. */
const MAX_CONFIG_BYTES = MiB;

/**
 * Paste or upload a Hugging Face config.json. Errors name the config field they come from
 * ("hidden_size: expected a positive integer…"), shown next to the box; nothing changes until
 * the config parses. The body of the model picker's "Paste or upload config.json" box, in a
 * chunk of its own that is fetched when the box is first opened (model-picker.tsx); the box also
 * holds "Fetch from Hugging Face" (hub-fetch.tsx).
 */
export function ConfigPaste() {
  const t = useT();
  const id = useId();
  const patch = useApp((s) => s.patch);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[]>([]);
  const [done, setDone] = useState<string | null>(null);

  const use = (json: string) => {
    setDone(null);
    let raw: unknown;
    try {
      // a UTF-8 byte-order mark (Windows editors write one) is not JSON; a file read drops it, a paste keeps it
      raw = JSON.parse(json.replace(/^\uFEFF/, ''));
    } catch (e) {
      setErrors([t('config.badJson', { detail: e instanceof Error ? e.message : String(e) })]);
      return;
    }
    const r = parseHfConfig(raw);
    if (!r.ok) {
      setErrors(r.errors.map((e) => t.core(e)));
      return;
    }
    setErrors([]);
    setDone(r.value.family);
    patch({ model: 'custom', arch: r.value, params: null });
  };

  return (
    <>
      <div className="field">
        <label htmlFor={`${id}-text`}>{t('config.paste')}</label>
        <textarea
          id={`${id}-text`}
          rows={6}
          value={text}
          spellCheck={false}
          aria-invalid={errors.length > 0 ? true : undefined}
          aria-describedby={errors.length ? `${id}-err` : undefined}
          onChange={(e) => setText(e.target.value)}
        />
      </div>
      <div className="row">
        <button type="button" className="primary" onClick={() => use(text)}>
          {t('config.use')}
        </button>
        <TextFileInput
          label={t('config.upload')}
          accept=".json,application/json"
          maxBytes={MAX_CONFIG_BYTES}
          onText={(body) => {
            setText(body);
            use(body);
          }}
          onTooBig={() => setErrors([t('config.tooBig')])}
        />
      </div>
      {errors.length > 0 && (
        <ul id={`${id}-err`} className="field-msg" role="alert">
          {errors.map((m, i) => (
            <li key={i}>{m}</li>
          ))}
        </ul>
      )}
      {done && (
        <p role="status" className="small">
          {t('config.loaded', { family: done })}
        </p>
      )}
      <HubFetch />
    </>
  );
}
