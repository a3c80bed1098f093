/**
 * The lab's snapshot reader, off the page's thread: receives { file }, posts { phase } as each
 * step starts and { done: HistoryParse } at the end (plain data: structured clone).
 */
import { readSnapshotFile } from './snapshot-read';

self.onmessage = (e: MessageEvent<{ file: Blob }>) => {
  void readSnapshotFile(e.data.file, (phase) => self.postMessage({ phase })).then(
    (done) => self.postMessage({ done }),
    (err: unknown) => self.postMessage({ done: { ok: false, error: { code: 'snapshot-read-failed', text: `the file could not be read: ${String(err)}` } } }),
  );
};
