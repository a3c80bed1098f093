/**
 * Architecture keys -> Partial<ModelArch>: overrides on a preset, or a custom model whose unset
 * fields default llama-style (MHA, head_dim = hidden / heads, SwiGLU, RMSNorm; docs/reference/formulas.md §1).
 */
import { LLAMA_STYLE } from '../model/llama-style';
import type { FieldError, ModelArch } from '../types';
import { ARCH_FIELDS, REQUIRED_CUSTOM, moeDefaults, type ArchFieldSpec } from './arch-fields';
import { parseBool, parseEnum, parseInteger, parseLabel, type Parsed } from './values';

type Moe = NonNullable<ModelArch['moe']>;
const BY_NAME = new Map(ARCH_FIELDS.map((f) => [f.name, f]));

/** Whether `name` is an architecture key (arch-fields.ts). */
export function isArchKey(name: string): boolean {
  return BY_NAME.has(name);
}

function parseArchValue(f: ArchFieldSpec, raw: string): Parsed<number | boolean | string | null> {
  switch (f.kind.type) {
    case 'int':
      return parseInteger(f.name, raw, f.kind.min, f.kind.max);
    case 'bool':
      return parseBool(f.name, raw);
    case 'enum':
      return parseEnum(f.name, raw, f.kind.values);
    case 'text':
      return parseLabel(f.name, raw);
  }
}

/** Defaults a custom architecture takes for keys the user did not give. */
export function customDefaults(a: Partial<ModelArch>): Partial<ModelArch> {
  const heads = a.heads ?? 1;
  return {
    family: 'custom',
    kvHeads: heads,
    headDim: Math.max(1, Math.floor((a.hidden ?? heads) / heads)),
    ...LLAMA_STYLE,
  };
}

const missing = (key: string, why: string): FieldError => ({ key, code: 'missing-key', message: `${key} is required ${why}`, params: { key } });

/**
 * Parse the architecture keys in `raw` (external names) against `base` (the preset's arch, or
 * null for a custom model). Returns the overrides (custom: the full arch), or null when none given.
 */
export function parseArch(raw: Record<string, string>, base: ModelArch | null, errors: FieldError[]): Partial<ModelArch> | null {
  const top: Record<string, unknown> = {};
  const moe: Partial<Record<keyof Moe, number>> = {};
  for (const [name, value] of Object.entries(raw)) {
    const f = BY_NAME.get(name);
    if (!f) continue;
    const r = parseArchValue(f, value);
    if (!r.ok) {
      errors.push(r.error);
      continue;
    }
    if (f.prop.startsWith('moe.')) moe[f.prop.slice(4) as keyof Moe] = r.value as number;
    else top[f.prop] = r.value;
  }
  const out = top as Partial<ModelArch>;
  if (base === null) {
    const lacking = REQUIRED_CUSTOM.filter((k) => !(k in raw) || out[BY_NAME.get(k)!.prop as keyof ModelArch] === undefined);
    if (lacking.length > 0) {
      for (const k of lacking) errors.push(missing(k, "for model 'custom'"));
      return null;
    }
    Object.assign(out, { ...customDefaults(out), ...top });
  }
  if (Object.keys(moe).length > 0) {
    const baseMoe = base?.moe;
    if (!baseMoe && (moe.experts === undefined || moe.expertsPerToken === undefined)) {
      errors.push(missing(moe.experts === undefined ? 'experts' : 'experts-per-tok', 'to make the model MoE'));
    } else {
      const from = baseMoe ?? moeDefaults(moe.experts!, moe.expertsPerToken!, out.ffn ?? base?.ffn ?? 1);
      out.moe = { ...from, ...moe } as Moe;
    }
  }
  checkArch(base, out, errors);
  if (base) dropUnchanged(out, base);
  return Object.keys(out).length > 0 ? out : null;
}

/** Overrides equal to the preset's own values are no overrides (keeps one canonical form). */
function dropUnchanged(out: Partial<ModelArch>, base: ModelArch): void {
  const o = out as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'moe' && o[k] === (base as unknown as Record<string, unknown>)[k]) delete o[k];
  const m = out.moe;
  const bm = base.moe;
  if (m && bm && (Object.keys(m) as (keyof Moe)[]).every((k) => m[k] === bm[k])) delete out.moe;
}

/** Shape rules: g divides a (GQA groups), k ≤ E, dense layers < L. Offending overrides fall back. */
function checkArch(base: ModelArch | null, out: Partial<ModelArch>, errors: FieldError[]): void {
  const bad = (key: string, other: string, message: string) => errors.push({ key, code: 'incompatible', message, params: { with: other } });
  const heads = out.heads ?? base?.heads;
  const kvHeads = out.kvHeads ?? base?.kvHeads;
  if (heads && kvHeads && heads % kvHeads !== 0) {
    bad('kv-heads', 'heads', `kv-heads (${kvHeads}) must divide heads (${heads})`);
    out.kvHeads = heads; // fall back to plain multi-head attention, always a valid shape
  }
  const moe = out.moe ?? base?.moe;
  if (moe && moe.expertsPerToken > moe.experts) {
    bad('experts-per-tok', 'experts', `experts-per-tok (${moe.expertsPerToken}) exceeds experts (${moe.experts})`);
    delete out.moe;
  }
  const denseConflict = () => {
    const m = out.moe ?? base?.moe;
    const layers = out.layers ?? base?.layers;
    return m !== undefined && layers !== undefined && m.denseLayers >= layers ? [m.denseLayers, layers] : null;
  };
  const conflict = denseConflict();
  if (conflict) {
    bad('dense-layers', 'layers', `dense-layers (${conflict[0]}) must be below layers (${conflict[1]})`);
    if (base && out.layers !== undefined) delete out.layers; // the preset's own layer count fits its MoE block
    if (denseConflict()) delete out.moe;
  }
}
