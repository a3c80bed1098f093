/**
 * parseScenario: external key/value strings (URL query, CLI flags) -> a valid Scenario plus
 * named errors. Never throws; every bad value falls back to its default so the app always has a
 * usable scenario. Cross-key rules live in rules.ts.
 */
import type { FieldError, ModelArch, Scenario } from '../types';
import { GPUS, findGpu, parseCapacity } from '../gpus';
import { findPreset, PRESETS } from '../model/presets';
import { DIFFUSION_PRESETS, findDiffusionPreset } from '../diffusion/presets';
import { parseQuickCount } from '../model/quick';
import { ARCH_FIELDS } from './arch-fields';
import { isArchKey, parseArch } from './arch';
import { applyRules } from './rules';
import { DEFAULT_SCENARIO, SCENARIO_FIELDS, type FieldSpec } from './schema';
import { closest } from './suggest';
import { MAX_VALUE_LENGTH, echo, invalid, invalidValue, parseDecimal, parseEnum, parseInteger, parseRatios, parseTargets, type Parsed } from './values';

export interface ParsedScenario {
  scenario: Scenario;
  /** problems that changed the scenario (the value fell back to its default) */
  errors: FieldError[];
  /** things worth showing that did not change it (e.g. prompt + gen beyond the model's context) */
  warnings: FieldError[];
}

const FIELD_BY_NAME = new Map(SCENARIO_FIELDS.map((f) => [f.name, f]));
/** Every key the schema knows, in schema order. */
export const ALL_KEYS: readonly string[] = [...SCENARIO_FIELDS.map((f) => f.name), ...ARCH_FIELDS.map((f) => f.name)];

/** Largest bare parameter count accepted: 1e15 (a thousand times today's largest models). */
export const MAX_PARAMS = 1e15;

function parseModel(raw: string): Parsed<string> {
  const v = raw.trim();
  if (v === '' || v.toLowerCase() === 'custom') return { ok: true, value: v.toLowerCase() };
  const p = findPreset(v) ?? findDiffusionPreset(v);
  if (p) return { ok: true, value: p.id };
  const suggestions = closest(v, [...PRESETS.map((x) => x.id), ...DIFFUSION_PRESETS.map((x) => x.id)]);
  const hint = suggestions.length > 0 ? `; did you mean ${suggestions.join(', ')}?` : '';
  return {
    ok: false,
    error: { key: 'model', code: 'unknown-preset', message: `model: unknown preset '${echo(v)}'${hint}`, params: { value: echo(v), suggestions: suggestions.join(',') } },
  };
}

function parseCount(raw: string): Parsed<number> {
  const n = parseQuickCount(raw);
  if (n === null || !Number.isFinite(n) || n < 1 || n > MAX_PARAMS) {
    return invalid('params', raw, 'a parameter count such as 7b, 350m or 1.5e9 (at most 1e15)');
  }
  return { ok: true, value: Math.round(n) };
}

function parseGpu(raw: string): Parsed<string> {
  const v = raw.trim();
  if (v === '') return { ok: true, value: '' };
  const g = findGpu(v);
  if (g) return { ok: true, value: g.id };
  if (parseCapacity(v) !== null) return { ok: true, value: v.toLowerCase().replace(/\s+/g, '') };
  const ids = closest(
    v,
    GPUS.map((x) => x.id),
  );
  const hint = ids.length > 0 ? ` (did you mean ${ids.join(', ')}?)` : '';
  return invalid('gpu', raw, `a GPU id${hint} or a capacity like 24GiB`, { suggestions: ids.join(',') });
}

/** Parse one top-level field's raw value into the typed value. */
function parseField(f: FieldSpec, raw: string): Parsed<unknown> {
  const k = f.kind;
  switch (k.type) {
    case 'enum': {
      const r = parseEnum(f.name, raw, k.values);
      return r.ok && f.prop === 'zero' ? { ok: true, value: Number(r.value) } : r;
    }
    case 'int':
      return parseInteger(f.name, raw, k.min, k.max, k.nullToken);
    case 'float':
      return parseDecimal(f.name, raw, k.min, k.max);
    case 'targets':
      return parseTargets(f.name, raw);
    case 'ratios':
      return parseRatios(f.name, raw, k.maxCount);
    case 'count':
      return parseCount(raw);
    case 'model':
      return parseModel(raw);
    case 'gpu':
      return parseGpu(raw);
  }
}

function unknownKey(key: string): FieldError {
  const near = closest(key, ALL_KEYS, 1);
  const hint = near.length > 0 ? `; did you mean '${near[0]}'?` : '';
  return { key: echo(key), code: 'unknown-key', message: `unknown key '${echo(key)}'${hint}`, params: { suggestions: near.join(',') } };
}

export interface ParseOptions {
  /**
   * The architecture of `model=custom` when it comes whole from a config.json (CLI `--model
   * file.json`, page upload): architecture keys then override it and none is required.
   */
  customArch?: ModelArch;
}

/**
 * Validate external key/value strings into a Scenario. Unknown keys give 'unknown-key'; bad
 * values 'invalid-value' / 'out-of-range' (with the allowed values or range); unknown models
 * 'unknown-preset' with the closest preset ids; impossible combinations 'incompatible' naming
 * both keys. Every rejected value falls back to DEFAULT_SCENARIO's.
 */
export function parseScenario(record: Record<string, string>, options: ParseOptions = {}): ParsedScenario {
  const s: Scenario = { ...DEFAULT_SCENARIO, loraTargets: [...DEFAULT_SCENARIO.loraTargets] };
  const errors: FieldError[] = [];
  const warnings: FieldError[] = [];
  const given = new Set<string>();
  const archRaw: Record<string, string> = {};
  for (const key of Object.keys(record)) {
    const raw: unknown = record[key];
    const f = FIELD_BY_NAME.get(key);
    if (!f && !isArchKey(key)) {
      errors.push(unknownKey(key));
      continue;
    }
    if (typeof raw !== 'string' || raw.length > MAX_VALUE_LENGTH) {
      errors.push(invalidValue(key, typeof raw === 'string' ? raw : '', `a value of at most ${MAX_VALUE_LENGTH} characters`));
      continue;
    }
    if (!f) {
      archRaw[key] = raw;
      continue;
    }
    const r = parseField(f, raw);
    if (!r.ok) {
      errors.push(r.error);
      continue;
    }
    (s as unknown as Record<string, unknown>)[f.prop] = r.value;
    given.add(key);
  }
  resolveModel(s, given, archRaw, errors, warnings, options.customArch ?? null);
  applyRules(s, given, errors, warnings);
  return { scenario: s, errors, warnings };
}

/** Decide between preset, custom and quick (bare count) models, then apply architecture keys. */
function resolveModel(s: Scenario, given: Set<string>, archRaw: Record<string, string>, errors: FieldError[], warnings: FieldError[], customArch: ModelArch | null): void {
  if (given.has('params') && !given.has('model')) s.model = '';
  if (s.model !== '' && given.has('params')) {
    errors.push({ key: 'params', code: 'incompatible', message: `params gives a bare count; it cannot be combined with model=${s.model}`, params: { with: 'model' } });
  }
  if (s.model !== '') s.params = null;
  if (s.model === '' && s.params === null) {
    errors.push({ key: 'params', code: 'missing-key', message: 'params is required when no model is chosen', params: { key: 'params' } });
    s.model = DEFAULT_SCENARIO.model;
  }
  const archKeys = Object.keys(archRaw);
  if (s.model === '') {
    for (const k of archKeys) {
      warnings.push({ key: k, code: 'unused-key', message: `${k} is ignored for a bare parameter count`, params: { with: 'params' } });
    }
    return;
  }
  if (s.model === 'custom' && customArch) {
    s.arch = { ...customArch, ...parseArch(archRaw, customArch, errors) };
    return;
  }
  if (findDiffusionPreset(s.model)) {
    for (const k of archKeys) warnings.push({ key: k, code: 'unused-key', message: `${k} is a language-model key; ${s.model} is an image-generation pipeline`, params: { with: 'model' } });
    return;
  }
  const base: ModelArch | null = s.model === 'custom' ? null : (findPreset(s.model)?.arch ?? null);
  if (s.model !== 'custom' && base === null) return;
  s.arch = archKeys.length > 0 || s.model === 'custom' ? parseArch(archRaw, base, errors) : null;
  if (s.model === 'custom' && s.arch === null) s.model = DEFAULT_SCENARIO.model;
}
