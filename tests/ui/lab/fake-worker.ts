/**
 * A stand-in for the browser's Worker in the lab's hook tests: it keeps what the page posts in
 * `inbox` and answers only when a test tells it to (so the order of answers is the test's).
 * `installFakeWorkers` puts a subclass in place of the global Worker for each test.
 */
import { afterEach, beforeEach, vi } from 'vitest';

export class FakeWorkerBase<M> {
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onerror: ((e: { preventDefault: () => void }) => void) | null = null;
  terminated = false;
  inbox: M[] = [];
  postMessage(m: M) {
    this.inbox.push(m);
  }
  terminate() {
    this.terminated = true;
  }
}

/** Every worker the page made during the current test, oldest first. */
export function installFakeWorkers<W>(worker: new () => W): W[] {
  const made: W[] = [];
  beforeEach(() => {
    made.length = 0;
    vi.stubGlobal(
      'Worker',
      class extends (worker as new () => object) {
        constructor() {
          super();
          made.push(this as unknown as W);
        }
      },
    );
  });
  afterEach(() => vi.unstubAllGlobals());
  return made;
}
