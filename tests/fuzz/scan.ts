// Shared helpers for the fuzz suite: a deep scan for non-finite numbers, a per-run time limit,
// and string mutation of valid inputs (delete, insert, duplicate, swap characters).
import fc from 'fast-check';

/** Cases per parser: at least 10,000 each. */
export const RUNS = 10_000;

// Report the first counterexample as found: shrinking a long edited text can take minutes.
fc.configureGlobal({ endOnFailure: true });

/**
 * Paths of every NaN / ±Infinity reachable from `value`: plain objects, arrays, Maps, Sets and
 * typed arrays. Cycles are visited once; functions are skipped.
 */
export function nonFinite(value: unknown, path = '$', seen = new Set<object>(), out: string[] = []): string[] {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push(`${path} = ${value}`);
    return out;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return out;
  seen.add(value);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const arr = value as unknown as ArrayLike<number | bigint>;
    for (let i = 0; i < arr.length; i++) {
      const v = arr[i];
      if (typeof v === 'number' && !Number.isFinite(v)) out.push(`${path}[${i}] = ${v}`);
    }
  } else if (value instanceof Map) {
    for (const [k, v] of value) nonFinite(v, `${path}.get(${String(k)})`, seen, out);
  } else if (value instanceof Set) {
    let i = 0;
    for (const v of value) nonFinite(v, `${path}{${i++}}`, seen, out);
  } else {
    for (const [k, v] of Object.entries(value)) nonFinite(v, `${path}.${k}`, seen, out);
  }
  return out;
}

/**
 * Per-call time limit. Generous on purpose: it catches runaway (quadratic, exponential, endless)
 * parsing, not slowness, and must hold on a loaded 2-core machine where a GC pause or a
 * descheduled worker can cost a few hundred ms.
 */
export const LIMIT_MS = 2000;

/** Runs `fn`, fails when it throws or takes longer than `ms`, and returns its value. */
export function timed<T>(label: string, ms: number, fn: () => T): T {
  const t0 = performance.now();
  const value = fn();
  const dt = performance.now() - t0;
  if (dt > ms) throw new Error(`${label} took ${dt.toFixed(0)} ms (limit ${ms} ms)`);
  return value;
}

/** Throws with the offending paths when `value` holds a NaN or an infinity anywhere. */
export function assertFinite(label: string, value: unknown): void {
  const bad = nonFinite(value);
  if (bad.length > 0) throw new Error(`${label}: non-finite ${bad.slice(0, 5).join(', ')}`);
}

/** Characters that stress parsers: separators, quotes, digits, units, unicode, control chars. */
const nasty = fc.constantFrom(
  '',
  ' ',
  '\n',
  '\r\n',
  '\t',
  '|',
  '&',
  '=',
  '?',
  '#',
  '%',
  '%%',
  '%zz',
  '+',
  ',',
  ':',
  ';',
  '[',
  ']',
  '(',
  ')',
  '{',
  '}',
  '"',
  "'",
  '\\',
  '!',
  '@',
  '-',
  '.',
  '0',
  '-1',
  '1e309',
  'NaN',
  'Infinity',
  '1e-400',
  '9'.repeat(30),
  'x',
  'GiB',
  'MiB',
  'KiB',
  'bytes',
  '\u0000',
  '\uFFFD',
  '\uD800',
  '漢字',
  '\u001b[31m',
  '__proto__',
  'constructor',
);
const piece = fc.oneof({ weight: 3, arbitrary: nasty }, { weight: 1, arbitrary: fc.string({ maxLength: 12, unit: 'binary' }) });

type Edit = { at: number; len: number; kind: 'delete' | 'insert' | 'dup' | 'replace'; text: string };
const edit: fc.Arbitrary<Edit> = fc.record({
  at: fc.nat(),
  len: fc.integer({ min: 0, max: 24 }),
  kind: fc.constantFrom('delete', 'insert', 'dup', 'replace'),
  text: piece,
});

function applyEdit(s: string, e: Edit): string {
  const at = s.length === 0 ? 0 : e.at % (s.length + 1);
  const end = Math.min(s.length, at + e.len);
  if (e.kind === 'delete') return s.slice(0, at) + s.slice(end);
  if (e.kind === 'insert') return s.slice(0, at) + e.text + s.slice(at);
  if (e.kind === 'dup') return s.slice(0, end) + s.slice(at, end) + s.slice(end);
  return s.slice(0, at) + e.text + s.slice(end);
}

/** A valid input with 1–6 random edits applied. */
export function mutated(base: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc.tuple(base, fc.array(edit, { minLength: 1, maxLength: 6 })).map(([s, edits]) => edits.reduce(applyEdit, s));
}

/** Random text built from parser-hostile pieces and the tokens a format uses. */
export function soup(tokens: readonly string[], maxPieces = 40): fc.Arbitrary<string> {
  const tok = fc.oneof({ weight: 2, arbitrary: fc.constantFrom(...tokens) }, { weight: 1, arbitrary: piece });
  return fc.array(tok, { maxLength: maxPieces }).map((p) => p.join(''));
}
