import { useId, useState } from 'react';
import { importMemoryHistory, type RecordedRun } from '../../core/allocator/history-import';
import type { PackedTrace } from '../../core/allocator/trace-pack';
import type { Message } from '../../core/types';
import { useLabT } from './lab-i18n';
import { packParse, type PackedImport, type PackedParse } from './snapshot-read';
import { useSnapshotImport } from './use-snapshot-import';

/**
 * Import of a real allocation history into the trace editor: the pickle torch writes
 * (_dump_snapshot), gzipped or not, or memory-history JSON (docs/allocator-traces.md), picked,
 * dropped or pasted. Files are read in a Web Worker (use-snapshot-import.ts).
 */
export function ImportTrace({ onTrace }: { onTrace: (trace: PackedTrace, recorded: RecordedRun) => void }) {
  const t = useLabT();
  const id = useId();
  const [json, setJson] = useState('');
  const [error, setError] = useState<Message | null>(null);
  const [done, setDone] = useState<PackedImport | null>(null);
  const [over, setOver] = useState(false);

  const apply = (r: PackedParse) => {
    if (!r.ok) {
      setError(r.error);
      setDone(null);
      return;
    }
    setError(null);
    setDone(r.value);
    onTrace(r.value.trace, r.value.recorded);
  };
  const { state, read } = useSnapshotImport(apply);
  const busy = state.phase !== null;

  return (
    <details className="lab-import">
      <summary>{t('sim.import')}</summary>
      <div
        className={over ? 'lab-drop lab-drop-over' : 'lab-drop'}
        onDragOver={(e) => {
          e.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(e) => {
          e.preventDefault();
          setOver(false);
          const f = e.dataTransfer.files[0];
          if (f) read(f);
        }}
      >
        <p className="field-help">{t('sim.importHelp')}</p>
        <div className="row">
          <label className="small">
            {t('sim.importFile')}{' '}
            <input
              type="file"
              accept=".pickle,.pkl,.gz,.json,application/json,application/gzip,application/octet-stream"
              disabled={busy}
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) read(f);
                e.target.value = '';
              }}
            />
          </label>
          <span className="muted small">{t('sim.importDrop')}</span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-json`}>{t('sim.importPaste')}</label>
          <textarea id={`${id}-json`} rows={4} value={json} spellCheck={false} autoComplete="off" onChange={(e) => setJson(e.target.value)} />
        </div>
        <div className="row">
          <button type="button" disabled={!json.trim() || busy} onClick={() => apply(packParse(importMemoryHistory(json)))}>
            {t('sim.importRun')}
          </button>
        </div>
      </div>
      <p role="status" className="small" data-testid="lab-import-status">
        {state.phase !== null && state.name !== null ? t(`sim.phase.${state.phase}`, { name: state.name }) : ''}
      </p>
      {error && (
        <p className="field-msg" role="alert">
          {t.core(error)}
        </p>
      )}
      {done && !busy && (
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
