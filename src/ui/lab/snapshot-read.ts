/**
 * Reads a snapshot file the user picked or dropped — the pickle torch.cuda.memory._dump_snapshot()
 * writes, the same gzipped, or the memory-history JSON of docs/allocator-traces.md — into a trace.
 * Runs in the lab's Web Worker (snapshot.worker.ts), so a large file never blocks the page; the
 * same code runs on the page where workers are missing. Sizes are checked before reading and while
 * decompressing (core/snapshot/sniff.ts MAX_SNAPSHOT_BYTES).
 */
import { importMemoryHistory, importSnapshotPickle, type HistoryImport, type HistoryParse } from '../../core/allocator/history-import';
import { packTrace, type PackedTrace } from '../../core/allocator/trace-pack';
import type { Message } from '../../core/types';
import { MAX_SNAPSHOT_BYTES, snapshotKind } from '../../core/snapshot/sniff';
import { MiB } from '../../core/units';

/** An import as it crosses to the page: the trace packed (trace-pack.ts), so the page never clones 10^5 event objects. */
export type PackedImport = Omit<HistoryImport, 'trace'> & { trace: PackedTrace };
export type PackedParse = { ok: true; value: PackedImport } | { ok: false; error: Message };

export const packParse = (r: HistoryParse): PackedParse => (r.ok ? { ok: true, value: { ...r.value, trace: packTrace(r.value.trace) } } : r);

/** Steps of a read, shown while it runs. */
export type ReadPhase = 'reading' | 'decompressing' | 'parsing';

const fail = (code: string, text: string, params?: Record<string, number | string>): HistoryParse => ({ ok: false, error: { code, text, ...(params ? { params } : {}) } });

const tooBig = (): HistoryParse => fail('snapshot-too-big', `the snapshot is larger than ${MAX_SNAPSHOT_BYTES / MiB} MiB; record fewer entries (max_entries)`, { max: MAX_SNAPSHOT_BYTES });

/** gunzip with a cap: null when the output would pass `cap` bytes. */
export async function gunzipCapped(bytes: Uint8Array, cap: number): Promise<Uint8Array | null> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const parts: Uint8Array[] = [];
  let n = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    n += value.length;
    if (n > cap) {
      await reader.cancel();
      return null;
    }
    parts.push(value);
  }
  const out = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The trace of a snapshot file; `phase` hears each step as it starts. */
export async function readSnapshotFile(file: Blob, phase: (p: ReadPhase) => void = () => undefined): Promise<HistoryParse> {
  if (file.size > MAX_SNAPSHOT_BYTES) return tooBig();
  phase('reading');
  let bytes: Uint8Array = new Uint8Array(await file.arrayBuffer());
  if (snapshotKind(bytes) === 'gzip') {
    phase('decompressing');
    let out: Uint8Array | null;
    try {
      out = await gunzipCapped(bytes, MAX_SNAPSHOT_BYTES);
    } catch {
      return fail('snapshot-bad-gzip', 'the file starts like gzip but does not decompress');
    }
    if (!out) return tooBig();
    bytes = out;
  }
  phase('parsing');
  if (snapshotKind(bytes) === 'pickle') return importSnapshotPickle(bytes);
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes).replace(/^\uFEFF/, '');
  if (!/^\s*\{/.test(text)) return fail('snapshot-unknown', 'not a snapshot: neither a pickle from torch.cuda.memory._dump_snapshot() nor memory-history JSON');
  return importMemoryHistory(text);
}
