import type { KeyValue } from '../../../src/state/storage/browser-storage';

/** A Map-backed localStorage stand-in; `failGet` / `failSet` make the calls throw like a browser does. */
export function memoryKv(initial: Record<string, string> = {}, opts: { failGet?: Error; failSet?: Error } = {}): KeyValue & { m: Map<string, string> } {
  const m = new Map(Object.entries(initial));
  return {
    m,
    getItem: (k) => {
      if (opts.failGet) throw opts.failGet;
      return m.get(k) ?? null;
    },
    setItem: (k, v) => {
      if (opts.failSet) throw opts.failSet;
      m.set(k, v);
    },
  };
}

/** The DOMExceptions browsers throw (HTML Web Storage §12.2.1: QuotaExceededError; SecurityError when blocked). */
export const quotaError = () => Object.assign(new Error('quota'), { name: 'QuotaExceededError' });
export const securityError = () => Object.assign(new Error('denied'), { name: 'SecurityError' });
