/**
 * The one link codec of the page and the CLI: Scenario, page extras and the other views' state <->
 * query string. Pure (no DOM). Readable keys from the scenario schema (src/core/scenario), only
 * non-default values, one version field `v` and one migration chain (migrations.ts) for every key,
 * the allocator lab's `lab.*` and the layer builder's `net.*` included. decodeUrl never throws,
 * whatever the string. Format documented in docs/url-schema.md.
 */
import type { FieldError, Scenario } from '../core/types';
import { parseScenario, serializeScenario } from '../core/scenario';
import { findGpu, parseCapacity } from '../core/gpus';
import { SCENARIO_FIELDS } from '../core/scenario/schema';
import { URL_VERSION, migrate } from './migrations';
import { URL_LIMITS, enc, readPairs, type Pairs } from './url-query';

export interface UrlExtra {
  /** UI language, e.g. 'en', 'pt-BR' */
  lang?: string;
  /** chrome-less embed mode */
  embed?: boolean;
  /** which view is open, e.g. 'lab' */
  view?: string;
  /** byte unit of the figures (key `unit`, written only for 'GB'; GiB is the default) */
  unit?: 'GiB' | 'GB';
  /** colour scheme (key `theme`, written only when not 'auto', which follows the system) */
  theme?: 'light' | 'dark';
  /** the scenario keys an embedded widget shows as inputs, e.g. ['batch', 'prompt'] (key `controls`) */
  controls?: string[];
  /** GPUs compared side by side: catalogue ids or capacities such as '24gib' (key `compare`) */
  compare?: string[];
  /** up to MAX_VS more scenarios shown as columns (repeated key `vs`, each an encoded query) */
  vs?: Scenario[];
  /** the lab's and the layer builder's state: full keys under VIEW_PREFIXES → decoded, migrated values */
  views?: Record<string, string>;
}

export interface DecodedUrl {
  scenario: Scenario;
  extra: UrlExtra;
  errors: FieldError[];
  warnings: FieldError[];
  /** keys (or fragments) that were not applied: unknown, malformed, repeated, over the limits */
  ignored: string[];
  /** schema version the link was written in (0 = before versioning) */
  version: number;
}

/**
 * Key prefixes of the other views' state: `lab.` (allocator lab, src/ui/lab/lab-url.ts) and `net.`
 * (layer builder, src/ui/layers/net-url.ts). Those pairs are read, migrated and written by this
 * codec like every other key (one `v`, one chain in migrations.ts); what they mean is each view's.
 */
const VIEW_PREFIXES = ['lab.', 'net.'] as const;

const LANG = /^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?$/;
const VIEW = /^[a-z][a-z0-9-]{0,31}$/;
const VIEW_KEY = /^[\w.-]+$/;

/** Scenario keys an embed may show as controls: the schema's keys (`model` and `gpu` are the pickers). */
const CONTROL_KEYS: ReadonlySet<string> = new Set(SCENARIO_FIELDS.map((f) => f.name));

/** `controls` value: known keys, in the given order, once each; unknown ones are ignored by name. */
function readControls(v: string, ignored: string[]): string[] {
  const out: string[] = [];
  for (const k of v
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)) {
    if (!CONTROL_KEYS.has(k)) ignored.push(`controls=${k}`);
    else if (!out.includes(k)) out.push(k);
  }
  return out;
}

const isViewKey = (k: string) => VIEW_PREFIXES.some((p) => k.startsWith(p) && k.length > p.length);

/** Canonical spelling of a compared GPU (catalogue id or capacity), null when neither. */
function gpuSpec(spec: string): string | null {
  const g = findGpu(spec);
  if (g) return g.id;
  return parseCapacity(spec) !== null ? spec.toLowerCase().replace(/\s+/g, '') : null;
}

/** The scenario's own keys only (no version, no extras): the body of a `vs` entry. */
function scenarioQuery(s: Scenario): string {
  return Object.entries(serializeScenario(s))
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .join('&');
}

/** Query string (no leading '?') for `s`: `v=<URL_VERSION>` then non-default scenario keys, extras, view state. */
export function encodeUrl(s: Scenario, extra: UrlExtra = {}): string {
  const parts = [`v=${URL_VERSION}`];
  for (const [k, v] of Object.entries(serializeScenario(s))) parts.push(`${enc(k)}=${enc(v)}`);
  if (extra.lang && LANG.test(extra.lang)) parts.push(`lang=${extra.lang}`);
  if (extra.embed) parts.push('embed=1');
  if (extra.view && VIEW.test(extra.view)) parts.push(`view=${extra.view}`);
  if (extra.unit === 'GB') parts.push('unit=gb');
  if (extra.theme === 'light' || extra.theme === 'dark') parts.push(`theme=${extra.theme}`);
  const controls = (extra.controls ?? []).filter((k) => CONTROL_KEYS.has(k));
  if (controls.length > 0) parts.push(`controls=${controls.join(',')}`);
  const compare = (extra.compare ?? [])
    .map(gpuSpec)
    .filter((g): g is string => g !== null)
    .slice(0, URL_LIMITS.compare);
  if (compare.length > 0) parts.push(`compare=${compare.map(enc).join(',')}`);
  for (const v of (extra.vs ?? []).slice(0, URL_LIMITS.vs)) parts.push(`vs=${enc(scenarioQuery(v))}`);
  for (const [k, v] of Object.entries(extra.views ?? {})) {
    if (isViewKey(k) && VIEW_KEY.test(k) && k.length <= URL_LIMITS.keyLength && v.length <= URL_LIMITS.viewValueLength) {
      parts.push(`${k}=${enc(v)}`);
    }
  }
  return parts.join('&');
}

function readVersion(pairs: Pairs, errors: FieldError[], warnings: FieldError[]): number {
  const raw = pairs.find(([k]) => k === 'v')?.[1];
  if (raw === undefined) return 0;
  if (!/^\d{1,4}$/.test(raw)) {
    errors.push({ key: 'v', code: 'invalid-value', message: `v: '${raw.slice(0, 20)}' is not a version number; read as v${URL_VERSION}`, params: {} });
    return URL_VERSION;
  }
  const v = Number(raw);
  if (v > URL_VERSION) {
    warnings.push({ key: 'v', code: 'newer-version', message: `link written by a newer version (v${v}); reading it as v${URL_VERSION}`, params: { version: v } });
  }
  return v;
}

/** Compared GPUs from a comma list; unknown entries go to `ignored`. */
function readCompare(v: string, ignored: string[]): string[] {
  const out: string[] = [];
  for (const part of v.split(',').slice(0, URL_LIMITS.compare)) {
    const spec = gpuSpec(part);
    if (spec === null || out.includes(spec)) ignored.push(`compare:${part.slice(0, 40)}`);
    else out.push(spec);
  }
  return out;
}

/** One `vs` column: its own query string, read with the same rules; broken ones are dropped. */
function readVs(v: string, version: number): Scenario | null {
  const errors: FieldError[] = [];
  const pairs = migrate(readPairs(v, [], errors), version);
  const record = Object.create(null) as Record<string, string>;
  for (const [k, val] of pairs) record[k] = val;
  const parsed = parseScenario(record);
  return errors.length === 0 && parsed.errors.length === 0 ? parsed.scenario : null;
}

/** Scenario, extras and problems from a query string. Never throws; never yields NaN. */
export function decodeUrl(search: string): DecodedUrl {
  const errors: FieldError[] = [];
  const warnings: FieldError[] = [];
  const ignored: string[] = [];
  const input = typeof search === 'string' ? search : '';
  const first = readPairs(input, ignored, errors);
  const version = readVersion(first, errors, warnings);
  const pairs = migrate(
    first.filter(([k]) => k !== 'v'),
    version,
  );
  const extra: UrlExtra = {};
  const record = Object.create(null) as Record<string, string>;
  for (const [k, v] of pairs) {
    if (k === 'lang' && LANG.test(v)) extra.lang = v;
    else if (k === 'embed' && (v === '1' || v === 'true')) extra.embed = true;
    else if (k === 'view' && VIEW.test(v)) extra.view = v;
    else if (k === 'unit' && /^(?:gib|gb)$/i.test(v)) {
      if (v.toLowerCase() === 'gb') extra.unit = 'GB';
    } else if (k === 'theme' && /^(?:light|dark|auto)$/i.test(v)) {
      const th = v.toLowerCase();
      if (th !== 'auto') extra.theme = th as 'light' | 'dark';
    } else if (k === 'controls') {
      const c = readControls(v, ignored);
      if (c.length > 0) extra.controls = c;
    } else if (k === 'compare') extra.compare = readCompare(v, ignored);
    else if (k === 'vs') {
      const col = (extra.vs?.length ?? 0) < URL_LIMITS.vs ? readVs(v, version) : null;
      if (col) (extra.vs ??= []).push(col);
      else ignored.push('vs');
    } else if (isViewKey(k) && VIEW_KEY.test(k) && v.length <= URL_LIMITS.viewValueLength) (extra.views ??= {})[k] = v;
    else if (k === 'lang' || k === 'embed' || k === 'view' || k === 'unit' || k === 'theme' || isViewKey(k)) ignored.push(k);
    else record[k] = v;
  }
  const parsed = parseScenario(record);
  for (const e of parsed.errors) if (e.code === 'unknown-key') ignored.push(e.key);
  return { scenario: parsed.scenario, extra, errors: [...errors, ...parsed.errors], warnings: [...warnings, ...parsed.warnings], ignored, version };
}
