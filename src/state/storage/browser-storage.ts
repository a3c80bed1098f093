/**
 * The browser's localStorage, reached without ever throwing. Sandboxed iframes and some privacy
 * modes throw a SecurityError from the `localStorage` getter itself, and a full store throws a
 * QuotaExceededError from setItem (HTML Living Standard, Web Storage §12.2.1 / §12.2.3).
 */

/** The two calls the saved-data stores use (a Map-backed fake in tests). */
export type KeyValue = Pick<Storage, 'getItem' | 'setItem'>;

/** window.localStorage, or null where merely touching it throws (SecurityError) or it is absent. */
export function browserStorage(): KeyValue | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/**
 * 'full' for a quota error (QuotaExceededError; Firefox's older NS_ERROR_DOM_QUOTA_REACHED; legacy
 * code 22), 'blocked' for anything else setItem throws (SecurityError, a disabled store).
 */
export function failureOf(e: unknown): 'full' | 'blocked' {
  const x = e as { name?: unknown; code?: unknown } | null;
  if (x && (x.name === 'QuotaExceededError' || x.name === 'NS_ERROR_DOM_QUOTA_REACHED' || x.code === 22)) return 'full';
  return 'blocked';
}
