/**
 * Parsers for single external values (strings from a URL or CLI flag) into typed values,
 * each returning a named FieldError instead of throwing. Strict grammar: plain decimal numbers,
 * exact enum spellings (case-insensitive), so a URL round-trips to one canonical form.
 */
import type { FieldError, LoraTarget } from '../types';
import { LORA_TARGETS } from './schema';

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: FieldError };

/** Longest value we look at; anything longer is rejected unread (URL abuse guard). */
export const MAX_VALUE_LENGTH = 256;

const ok = <T>(value: T): Parsed<T> => ({ ok: true, value });

/** Short, printable echo of a user value for messages (never the full 100 KB string). */
export function echo(raw: string): string {
  const clean = raw.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? clean.slice(0, 37) + '...' : clean;
}

/** 'invalid-value' error for `raw`, naming what was expected. */
export function invalidValue(key: string, raw: string, expected: string, params: Record<string, string | number> = {}): FieldError {
  return { key, code: 'invalid-value', message: `${key}: '${echo(raw)}' is not valid; expected ${expected}`, params: { value: echo(raw), expected, ...params } };
}

/** invalidValue as a failed Parsed result. */
export function invalid(key: string, raw: string, expected: string, params: Record<string, string | number> = {}): Parsed<never> {
  return { ok: false, error: invalidValue(key, raw, expected, params) };
}

function outOfRange(key: string, value: number, min: number, max: number): Parsed<never> {
  return {
    ok: false,
    error: { key, code: 'out-of-range', message: `${key}: ${value} is out of range [${min}, ${max}]`, params: { value, min, max } },
  };
}

/** One of `values` (case-insensitive). */
export function parseEnum<T extends string>(key: string, raw: string, values: readonly T[]): Parsed<T> {
  const v = raw.trim().toLowerCase();
  const hit = values.find((x) => x === v);
  return hit !== undefined ? ok(hit) : invalid(key, raw, `one of ${values.join(', ')}`, { allowed: values.join(',') });
}

/** A whole number in [min, max]; `nullToken` (e.g. 'all') gives null. */
export function parseInteger(key: string, raw: string, min: number, max: number, nullToken?: string): Parsed<number | null> {
  const v = raw.trim().toLowerCase();
  if (nullToken !== undefined && v === nullToken) return ok(null);
  const expected = `a whole number from ${min} to ${max}${nullToken ? ` or '${nullToken}'` : ''}`;
  if (!/^\d{1,20}$/.test(v)) return invalid(key, raw, expected);
  const n = Number(v);
  return n < min || n > max ? outOfRange(key, n, min, max) : ok(n);
}

/** A decimal fraction in [min, max]. */
export function parseDecimal(key: string, raw: string, min: number, max: number): Parsed<number> {
  const v = raw.trim();
  if (!/^(?:\d{1,10}(?:\.\d{0,20})?|\.\d{1,20})$/.test(v)) return invalid(key, raw, `a number from ${min} to ${max}`);
  const n = Number(v);
  return n < min || n > max ? outOfRange(key, n, min, max) : ok(n);
}

const TRUE = ['true', '1', 'yes', 'on'];
const FALSE = ['false', '0', 'no', 'off'];

/** true/1/yes/on or false/0/no/off (case-insensitive). */
export function parseBool(key: string, raw: string): Parsed<boolean> {
  const v = raw.trim().toLowerCase();
  if (TRUE.includes(v)) return ok(true);
  if (FALSE.includes(v)) return ok(false);
  return invalid(key, raw, 'true or false');
}

/**
 * PEFT's `target_modules="all-linear"` (peft tuners/tuners_utils.py `_maybe_include_all_linear_layers`:
 * every nn.Linear / Conv1D except the output embedding): in a transformer block, every projection.
 */
export const ALL_LINEAR = 'all-linear';

/** Comma list of LoRA targets, 'all' or 'all-linear'; returned deduplicated in canonical order. */
export function parseTargets(key: string, raw: string): Parsed<LoraTarget[]> {
  const parts = raw
    .toLowerCase()
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 1 && (parts[0] === 'all' || parts[0] === ALL_LINEAR)) return ok([...LORA_TARGETS]);
  const bad = parts.find((p) => !(LORA_TARGETS as readonly string[]).includes(p));
  if (parts.length === 0 || bad !== undefined) {
    return invalid(key, raw, `a comma list of ${LORA_TARGETS.join(',')}, 'all' or '${ALL_LINEAR}'`, { allowed: LORA_TARGETS.join(',') });
  }
  return ok(LORA_TARGETS.filter((t) => parts.includes(t)));
}

/**
 * llama.cpp --tensor-split (common/arg.cpp): weights separated by ',' or '/', each a plain
 * non-negative decimal, at most `maxCount`; 'auto' (and all zeros, which llama.cpp reads as no
 * split given) is null: the default split by free memory.
 */
export function parseRatios(key: string, raw: string, maxCount: number): Parsed<number[] | null> {
  const v = raw.trim().toLowerCase();
  if (v === 'auto') return ok(null);
  const parts = v.split(/[,/]/).map((p) => p.trim());
  const expected = `'auto' or a comma list of at most ${maxCount} non-negative weights, e.g. 3,1`;
  if (parts.length > maxCount || parts.some((p) => !/^(?:\d{1,10}(?:\.\d{0,20})?|\.\d{1,20})$/.test(p))) return invalid(key, raw, expected, { max: maxCount });
  const weights = parts.map(Number);
  return ok(weights.every((w) => w === 0) ? null : weights);
}

/** Canonical writing of a tensor split: the weights joined by ','. */
export function formatRatios(w: readonly number[]): string {
  return w.join(',');
}

/** Free-text label: letters, digits, '_', '.', '-' (1–40 chars). */
export function parseLabel(key: string, raw: string): Parsed<string> {
  const v = raw.trim();
  return /^[\w.-]{1,40}$/.test(v) ? ok(v) : invalid(key, raw, 'letters, digits, _ . - (at most 40)');
}

/** Canonical writing of a LoRA target list ('all' when every target). */
export function formatTargets(t: readonly LoraTarget[]): string {
  const sorted = LORA_TARGETS.filter((x) => t.includes(x));
  return sorted.length === LORA_TARGETS.length ? 'all' : sorted.join(',');
}
