/**
 * The lab's snapshot reader, off the page's thread: receives { file }, posts { phase } as each
 * step starts and { done: PackedParse } at the end (plain data, the trace packed: a cheap structured clone).
 */
import { packParse, readSnapshotFile } from './snapshot-read';

self.onmessage = (e: MessageEvent<{ file: Blob }>) => {
  void readSnapshotFile(e.data.file, (phase) => self.postMessage({ phase })).then(
    (done) => self.postMessage({ done: packParse(done) }),
    (err: unknown) => self.postMessage({ done: { ok: false, error: { code: 'snapshot-read-failed', text: `the file could not be read: ${String(err)}` } } }),
  );
};
