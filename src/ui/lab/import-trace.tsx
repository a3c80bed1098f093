import { useId, useState } from 'react';
import { importMemoryHistory, type HistoryImport } from '../../core/allocator/history-import';
import type { Trace } from '../../core/allocator/trace';
import type { Message } from '../../core/types';
import { useLabT } from './lab-i18n';
import { TextFileInput } from '../forms/text-file-input';
import { MiB } from '../../core/units';

/** Largest file read (bytes): a 100k-entry history is about 10 MB of JSON. */
const MAX_FILE = 64 * MiB;

/** Import of a real allocation history (docs/allocator-traces.md) into the trace editor. */
export function ImportTrace({ onTrace }: { onTrace: (trace: Trace) => void }) {
  const t = useLabT();
  const id = useId();
  const [json, setJson] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [done, setDone] = useState<HistoryImport | null>(null);

  const load = (text: string) => {
    const r = importMemoryHistory(text);
    if (!r.ok) {
      setError(r.error);
      setDone(null);
      return;
    }
    setError(null);
    setDone(r.value);
    onTrace(r.value.trace);
  };

  return (
    <details className="lab-import">
      <summary>{t('sim.import')}</summary>
      <p className="field-help">{t('sim.importHelp')}</p>
      <div className="field">
        <label htmlFor={`${id}-json`}>{t('sim.importPaste')}</label>
        <textarea id={`${id}-json`} rows={4} value={json} spellCheck={false} autoComplete="off" onChange={(e) => setJson(e.target.value)} />
      </div>
      <div className="row">
        <button type="button" disabled={!json.trim()} onClick={() => load(json)}>
          {t('sim.importRun')}
        </button>
        <TextFileInput
          label={t('sim.importFile')}
          accept=".json,application/json"
          maxBytes={MAX_FILE}
          onText={load}
          onTooBig={() => setError({ code: 'too-big', text: t('sim.importTooBig', { max: t.bytes(MAX_FILE) }) })}
        />
      </div>
      {error && (
        <p className="field-msg" role="alert">
          {t.core(error)}
        </p>
      )}
      {done && (
        <div role="status">
          <p>{t('sim.imported', { device: done.device, allocs: t.num(done.allocs), frees: t.num(done.frees), realAllocs: t.num(done.recorded.deviceAllocs), realOoms: t.num(done.recorded.ooms) })}</p>
          {done.notes.map((n) => (
            <p key={n.code} className="muted small">
              {t.core(n)}
            </p>
          ))}
        </div>
      )}
    </details>
  );
}
