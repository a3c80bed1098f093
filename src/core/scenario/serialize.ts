/**
 * serializeScenario: a Scenario -> external key/value strings holding only what differs from
 * DEFAULT_SCENARIO (and, for architecture keys, from the preset or the custom defaults), in
 * schema order, each in the canonical spelling parseScenario reads back unchanged.
 */
import type { ModelArch, Scenario } from '../types';
import { findPreset } from '../model/presets';
import { ARCH_FIELDS, REQUIRED_CUSTOM, moeDefaults, type ArchFieldSpec } from './arch-fields';
import { customDefaults } from './arch';
import { DEFAULT_SCENARIO, SCENARIO_FIELDS, type FieldSpec } from './schema';
import { formatRatios, formatTargets } from './values';

/** Canonical writing of a bare parameter count: '7b', '350m', else plain digits. */
export function formatCount(n: number): string {
  const v = Math.round(n);
  if (v >= 1e9 && v % 1e9 === 0) return `${v / 1e9}b`;
  if (v >= 1e6 && v % 1e6 === 0) return `${v / 1e6}m`;
  return String(v);
}

function formatValue(prop: keyof Scenario, v: unknown, nullToken?: string): string {
  if (v === null) return nullToken ?? '';
  if (prop === 'loraTargets') return formatTargets(v as Scenario['loraTargets']);
  if (prop === 'tensorSplit') return formatRatios(v as number[]);
  if (prop === 'params') return formatCount(v as number);
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- every other key holds a string, number or boolean
  return String(v);
}

function same(prop: keyof Scenario, a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) ? formatValue(prop, a) === formatValue(prop, b) : a === b;
}

/** An architecture field's value; every field in ARCH_FIELDS holds a number, string or boolean. */
function archValue(a: Partial<ModelArch> | undefined, f: ArchFieldSpec): string | number | boolean | undefined {
  if (!a) return undefined;
  const v = f.prop.startsWith('moe.') ? (a.moe as Record<string, unknown> | undefined)?.[f.prop.slice(4)] : a[f.prop as keyof ModelArch];
  return v as string | number | boolean | undefined;
}

/** Architecture keys that differ from what the model alone would give. */
function serializeArch(s: Scenario, out: Record<string, string>): void {
  if (!s.arch || s.model === '') return;
  const custom = s.model === 'custom';
  const base: Partial<ModelArch> | undefined = custom ? customDefaults(s.arch) : findPreset(s.model)?.arch;
  const moe = s.arch.moe;
  const moeBase = base?.moe ?? (moe ? moeDefaults(moe.experts, moe.expertsPerToken, s.arch.ffn ?? base?.ffn ?? 1) : undefined);
  for (const f of ARCH_FIELDS) {
    const v = archValue(s.arch, f);
    if (v === undefined) continue;
    const required = custom && REQUIRED_CUSTOM.includes(f.name);
    const newMoe = !base?.moe && (f.name === 'experts' || f.name === 'experts-per-tok');
    const was = f.prop.startsWith('moe.') ? archValue({ moe: moeBase }, f) : archValue(base, f);
    if (required || newMoe || v !== was) out[f.name] = String(v);
  }
}

/** A scenario key's value in its canonical external spelling ('auto' / 'all' for null where the key has one). */
export function fieldText(s: Scenario, f: FieldSpec): string {
  return formatValue(f.prop, s[f.prop], f.kind.type === 'int' ? f.kind.nullToken : f.kind.type === 'ratios' ? 'auto' : undefined);
}

/** The external key/value strings for `s`, only non-default values. Pure; never throws. */
export function serializeScenario(s: Scenario): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of SCENARIO_FIELDS) {
    const v = s[f.prop];
    if (f.prop === 'model') {
      if (s.model !== '' && s.model !== DEFAULT_SCENARIO.model) out.model = s.model;
      continue;
    }
    if (f.prop === 'params') {
      if (s.model === '' && s.params !== null) out.params = formatValue('params', s.params);
      continue;
    }
    // a link naming tp / pp without gpus gets gpus = tp·pp (rules.ts), so a GPU count that clashes with them is written out
    const clashingGpus = f.prop === 'gpus' && s.tp * s.pp > 1 && s.gpus !== s.tp * s.pp;
    if (same(f.prop, v, DEFAULT_SCENARIO[f.prop]) && !clashingGpus) continue;
    out[f.name] = fieldText(s, f);
  }
  serializeArch(s, out);
  return out;
}
