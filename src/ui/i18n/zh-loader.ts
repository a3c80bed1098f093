/**
 * The calculator's Chinese tables arrive in a chunk of their own, so a page that speaks English
 * never downloads them. main.tsx waits for them before the first render when the page opens in
 * Chinese; switching to Chinese later fetches them at the first Chinese string asked for (English
 * shows meanwhile), and everything that reads them re-renders once they are in.
 */
import { useSyncExternalStore } from 'react';

export type ZhTables = typeof import('./zh-tables');

let tables: ZhTables | null = null;
let loading: Promise<ZhTables> | null = null;
const listeners = new Set<() => void>();

/** The Chinese tables, or null until they have arrived (asking starts the download). */
export function zhTables(): ZhTables | null {
  if (!tables) loadZh().catch(() => undefined);
  return tables;
}

/** Fetch the Chinese tables (once; a failed fetch, offline, is tried again at the next ask). */
export function loadZh(): Promise<ZhTables> {
  loading ??= import('./zh-tables').then(
    (m) => {
      tables = m;
      listeners.forEach((fn) => fn());
      return m;
    },
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

function subscribe(fn: () => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Re-renders the caller when the Chinese tables arrive; true once they are in. */
export function useZhLoaded(): boolean {
  return useSyncExternalStore(subscribe, () => tables !== null);
}
