/**
 * Runs snapshot reads in a Web Worker (snapshot.worker.ts) and reports the phase and the result.
 * One worker per read, ended when it answers; where the page has no Worker the read runs here.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { packParse, readSnapshotFile, type PackedParse, type ReadPhase } from './snapshot-read';

export interface SnapshotImportState {
  /** the step running, or null when idle */
  phase: ReadPhase | null;
  /** name of the file being read or last read */
  name: string | null;
}

export function useSnapshotImport(onDone: (r: PackedParse) => void): { state: SnapshotImportState; read: (file: File) => void } {
  const [state, setState] = useState<SnapshotImportState>({ phase: null, name: null });
  const worker = useRef<Worker | null>(null);
  const done = useRef(onDone);
  done.current = onDone;
  useEffect(() => () => worker.current?.terminate(), []);

  const read = useCallback((file: File) => {
    worker.current?.terminate();
    worker.current = null;
    setState({ phase: 'reading', name: file.name });
    const finish = (r: PackedParse) => {
      worker.current?.terminate();
      worker.current = null;
      setState({ phase: null, name: file.name });
      done.current(r);
    };
    if (typeof Worker === 'undefined') {
      void readSnapshotFile(file, (phase) => setState({ phase, name: file.name })).then((r) => finish(packParse(r)));
      return;
    }
    const w = new Worker(new URL('./snapshot.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    w.onmessage = (e: MessageEvent<{ phase?: ReadPhase; done?: PackedParse }>) => {
      if (e.data.done) finish(e.data.done);
      else if (e.data.phase) setState({ phase: e.data.phase, name: file.name });
    };
    // a worker that dies (out of memory on a huge file) says nothing more: name it
    w.onerror = (e) => {
      e.preventDefault();
      finish({ ok: false, error: { code: 'snapshot-worker-failed', text: 'the browser stopped reading the file (too large for its memory?)' } });
    };
    w.postMessage({ file });
  }, []);
  return { state, read };
}
