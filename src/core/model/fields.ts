/**
 * Typed readers for untrusted config.json objects. Each reader records a FieldError named
 * after the config key (e.g. "hidden_size: expected a positive integer, got -3") instead of
 * throwing, so a parser can report every bad field at once.
 * Source: HF config.json conventions (docs/reference/formulas.md §1, notation table).
 */
import type { FieldError } from '../types';

export type Json = Record<string, unknown>;
/** The spellings of one config field, the canonical one first (what a "missing" message names). */
export type Spellings = readonly [string, ...string[]];

/**
 * Upper bound on any single config dimension. The largest real ones are vocabularies
 * (~262k, Gemma-3) and contexts (~10M); 2^30 keeps every product of three dims below 2^90,
 * far from float64 overflow, while rejecting garbage.
 */
export const MAX_DIM = 2 ** 30;
/** Upper bound on layer counts (largest released models have ~130). */
export const MAX_LAYERS = 10_000;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
  if (Array.isArray(v)) return 'an array';
  if (isObject(v)) return 'an object';
  return String(v);
}

/** Collects FieldErrors while reading fields of one config object. */
export class FieldReader {
  readonly errors: FieldError[] = [];
  constructor(readonly cfg: Json) {}

  fail(key: string, code: string, message: string, params?: Record<string, number | string>): void {
    this.errors.push({ key, code, message: `${key}: ${message}`, ...(params ? { params } : {}) });
  }

  /** First key present with a non-null value, or undefined. */
  pick(keys: readonly string[]): string | undefined {
    return keys.find((k) => this.cfg[k] !== undefined && this.cfg[k] !== null);
  }

  /**
   * A positive integer (≥ min) under the first present key; `fallback` when none is present.
   * Pass fallback = undefined to make the field required (error lists all spellings).
   */
  int(keys: Spellings, fallback?: number, min = 1, max = MAX_DIM): number | undefined {
    const key = this.pick(keys);
    if (key === undefined) {
      if (fallback === undefined) {
        const [first, ...others] = keys;
        const alt = others.length > 0 ? ` (or ${others.join(' / ')})` : '';
        this.errors.push({
          key: first,
          code: 'missing',
          message: `missing ${first}${alt}`,
        });
      }
      return fallback;
    }
    const v = this.cfg[key];
    if (typeof v === 'number' && Number.isSafeInteger(v) && v > max) {
      this.fail(key, 'too-large', `expected at most ${max}, got ${v}`, { max });
      return fallback;
    }
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min) {
      const what = min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer ≥ ${min}`;
      this.fail(key, 'not-integer', `expected ${what}, got ${show(v)}`, { min });
      return fallback;
    }
    return v;
  }

  /** Like int() but optional: undefined when no key is present (or the value is bad, with an error). */
  optInt(keys: Spellings, min = 1): number | undefined {
    return this.pick(keys) === undefined ? undefined : this.int(keys, undefined, min);
  }

  /** A boolean under `key`; absent or null gives undefined, anything else is an error. */
  bool(key: string): boolean | undefined {
    const v = this.cfg[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.fail(key, 'not-boolean', `expected true or false, got ${show(v)}`);
      return undefined;
    }
    return v;
  }

  /** A string under `key`; non-strings are ignored (labels only). */
  str(key: string): string | undefined {
    const v = this.cfg[key];
    return typeof v === 'string' ? v : undefined;
  }
}
