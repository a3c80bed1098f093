/**
 * The query-string layer every view's link goes through (src/state/url-codec.ts reads and writes
 * with it; the lab and the layer builder write their `lab.*` / `net.*` pairs with replaceViewPairs):
 * one way to split, unescape, escape and bound a link. Pure (no DOM); nothing here throws.
 * Rules documented in docs/url-schema.md ("Reading rules").
 */
import type { FieldError } from '../core/types';

/** Ordered key/value pairs as they appeared in the query string (first occurrence of each key). */
export type Pairs = Array<[string, string]>;

/** Limits that keep a hostile link cheap: pairs read, key length, view value length, input size, compare entries, vs columns. */
export const URL_LIMITS = { pairs: 200, keyLength: 64, viewValueLength: 8192, input: 256 * 1024, compare: 8, vs: 3 } as const;

/** Replace lone UTF-16 surrogates (which encodeURIComponent rejects) with U+FFFD; pairs stay. */
export function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** Percent-encode, leaving '/', ',' and ':' readable (allowed in a query, RFC 3986 §3.4). */
export function enc(s: string): string {
  return encodeURIComponent(wellFormed(s)).replace(/%2F/g, '/').replace(/%2C/g, ',').replace(/%3A/g, ':');
}

/** Unescape one key or value (`+` is a space); null when a `%` escape is malformed. */
export function dec(s: string): string | null {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The raw `k=v` chunks of a query string or a whole URL (before '#', after the first '?'). */
function chunksOf(search: string): string[] {
  let q = search.length > URL_LIMITS.input ? search.slice(0, URL_LIMITS.input) : search;
  const hash = q.indexOf('#');
  if (hash >= 0) q = q.slice(0, hash);
  const qm = q.indexOf('?');
  if (qm >= 0) q = q.slice(qm + 1);
  return q.split('&').filter((c) => c !== '');
}

/**
 * Split a query string (or a whole URL) into decoded pairs, first occurrence of each key (`vs` may
 * repeat). Past URL_LIMITS.pairs, malformed escapes and over-long keys are reported, not read.
 */
export function readPairs(search: string, ignored: string[], errors: FieldError[]): Pairs {
  const chunks = chunksOf(search);
  if (chunks.length > URL_LIMITS.pairs) {
    errors.push({ key: 'url', code: 'too-many-keys', message: `only the first ${URL_LIMITS.pairs} keys of the link are read`, params: { max: URL_LIMITS.pairs } });
    ignored.push(`${chunks.length - URL_LIMITS.pairs} more keys`);
  }
  const seen = new Set<string>();
  const pairs: Pairs = [];
  for (const chunk of chunks.slice(0, URL_LIMITS.pairs)) {
    const eq = chunk.indexOf('=');
    const key = dec(eq >= 0 ? chunk.slice(0, eq) : chunk);
    const value = dec(eq >= 0 ? chunk.slice(eq + 1) : '');
    const shown = (key ?? chunk).slice(0, URL_LIMITS.keyLength);
    if (key === null || value === null || key.length > URL_LIMITS.keyLength) {
      errors.push({ key: shown, code: 'malformed', message: `could not read '${shown}' in the link`, params: {} });
      ignored.push(shown);
    } else if (seen.has(key) && key !== 'vs') {
      ignored.push(`${key} (repeated)`);
    } else {
      seen.add(key);
      pairs.push([key, value]);
    }
  }
  return pairs;
}

/** The decoded key of a raw chunk, or the raw text when its escapes are malformed. */
function keyOf(chunk: string): string {
  const eq = chunk.indexOf('=');
  const raw = eq >= 0 ? chunk.slice(0, eq) : chunk;
  return dec(raw) ?? raw;
}

/**
 * The query (no '?') with every pair under `prefix` (e.g. 'lab.') replaced by `pairs`, written
 * after the others; every other pair is kept verbatim, in order. How a view writes its own state
 * into the address bar without touching the rest of the link.
 */
export function replaceViewPairs(search: string, prefix: string, pairs: Pairs): string {
  const kept = chunksOf(search).filter((c) => !keyOf(c).startsWith(prefix));
  return [...kept, ...pairs.map(([k, v]) => `${enc(k)}=${enc(v)}`)].join('&');
}
