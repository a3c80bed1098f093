/**
 * Validation of a JSON layer list (untrusted: a file, a URL, a paste) into LayerSpec[].
 * Field names are those of spec.ts (torch.nn constructor arguments). Never throws; every
 * problem comes back with its JSON path, e.g. `layers[4].body[0].kernel`.
 */
import { layerError, problem, type LayerFieldError, type LayerResult } from './problems';
import type { LayerKind, LayerSpec, Network } from './spec';

type F = 'int' | 'int0' | 'pair' | 'pair0' | 'bool' | 'p' | 'shape' | 'layers' | 'act' | 'merge' | 'name';

const NAME = { name: 'name' } as const;
const CONV = { in: 'int', out: 'int', kernel: 'pair', stride: 'pair', padding: 'pair0', dilation: 'pair', groups: 'int', bias: 'bool' } as const;
const ACT = { inplace: 'bool' } as const;

/** Allowed fields per kind; those in REQUIRED must be present. */
const FIELDS: Record<LayerKind, Record<string, F>> = {
  linear: { in: 'int', out: 'int', bias: 'bool' },
  conv1d: { in: 'int', out: 'int', kernel: 'int', stride: 'int', padding: 'int0', dilation: 'int', groups: 'int', bias: 'bool' },
  conv2d: CONV,
  convtranspose2d: { ...CONV, outputPadding: 'pair0' },
  batchnorm1d: { features: 'int', affine: 'bool' },
  batchnorm2d: { features: 'int', affine: 'bool' },
  layernorm: { shape: 'shape', affine: 'bool', bias: 'bool' },
  groupnorm: { groups: 'int', channels: 'int', affine: 'bool' },
  embedding: { num: 'int', dim: 'int' },
  maxpool2d: { kernel: 'pair', stride: 'pair', padding: 'pair0', ceil: 'bool' },
  avgpool2d: { kernel: 'pair', stride: 'pair', padding: 'pair0', ceil: 'bool' },
  adaptiveavgpool2d: { out: 'pair' },
  relu: ACT,
  relu6: ACT,
  gelu: ACT,
  silu: ACT,
  sigmoid: ACT,
  tanh: ACT,
  dropout: { p: 'p' },
  flatten: {},
  tokens: {},
  select: {},
  clstoken: { dim: 'int' },
  posembed: { tokens: 'int', dim: 'int' },
  mha: { embed: 'int', heads: 'int', bias: 'bool' },
  encoder: { d: 'int', heads: 'int', ffn: 'int', activation: 'act', dropout: 'p', normFirst: 'bool' },
  block: { body: 'layers', shortcut: 'layers', merge: 'merge', inplace: 'bool', post: 'layers' },
  repeat: { times: 'int', body: 'layers' },
  sequential: { body: 'layers' },
};

/** Every layer kind a list may use. */
export const LAYER_KINDS: readonly string[] = Object.keys(FIELDS);

const REQUIRED: Partial<Record<LayerKind, string[]>> = {
  linear: ['in', 'out'],
  conv1d: ['in', 'out', 'kernel'],
  conv2d: ['in', 'out', 'kernel'],
  convtranspose2d: ['in', 'out', 'kernel'],
  batchnorm1d: ['features'],
  batchnorm2d: ['features'],
  layernorm: ['shape'],
  groupnorm: ['groups', 'channels'],
  embedding: ['num', 'dim'],
  maxpool2d: ['kernel'],
  avgpool2d: ['kernel'],
  adaptiveavgpool2d: ['out'],
  dropout: ['p'],
  clstoken: ['dim'],
  posembed: ['tokens', 'dim'],
  mha: ['embed', 'heads'],
  encoder: ['d', 'heads', 'ffn'],
  block: ['body', 'merge'],
  repeat: ['times', 'body'],
  sequential: ['body'],
};

/** Largest size accepted for any integer field (2^31, PyTorch's int32 indexing range). */
export const MAX_DIM = 2 ** 31;
const MAX_DEPTH = 32;

const isInt = (v: unknown, min: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= MAX_DIM;
const isPair = (v: unknown, min: number) => isInt(v, min) || (Array.isArray(v) && v.length === 2 && isInt(v[0], min) && isInt(v[1], min));

function fieldOk(t: F, v: unknown): boolean {
  switch (t) {
    case 'int':
      return isInt(v, 1);
    case 'int0':
      return isInt(v, 0);
    case 'pair':
      return isPair(v, 1);
    case 'pair0':
      return isPair(v, 0);
    case 'bool':
      return typeof v === 'boolean';
    case 'p':
      return typeof v === 'number' && v >= 0 && v < 1;
    case 'shape':
      return Array.isArray(v) && v.length >= 1 && v.length <= 8 && v.every((x) => isInt(x, 1));
    case 'act':
      return v === 'relu' || v === 'gelu';
    case 'merge':
      return v === 'add' || v === 'concat';
    // the characters the terse layer text (text.ts) can write after '@', so every valid network round-trips
    case 'name':
      return typeof v === 'string' && /^[\w#-]{0,200}$/.test(v);
    case 'layers':
      return Array.isArray(v);
  }
}

function layer(v: unknown, path: string, depth: number, errs: LayerFieldError[]): LayerSpec | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    errs.push(layerError(path, problem('layer.notObject', { path })));
    return null;
  }
  const o = v as Record<string, unknown>;
  const kind = o.kind;
  if (typeof kind !== 'string' || !Object.prototype.hasOwnProperty.call(FIELDS, kind)) {
    errs.push(layerError(`${path}.kind`, problem('layer.kind', { path, kind: String(JSON.stringify(kind)).slice(0, 40) })));
    return null;
  }
  const fields: Record<string, F> = { ...FIELDS[kind as LayerKind], ...NAME };
  const before = errs.length;
  for (const req of REQUIRED[kind as LayerKind] ?? []) {
    if (o[req] === undefined) errs.push(layerError(`${path}.${req}`, problem('layer.missing', { path: `${path}.${req}`, kind })));
  }
  const out: Record<string, unknown> = { kind };
  for (const [k, val] of Object.entries(o)) {
    if (k === 'kind' || val === undefined) continue;
    const t = Object.prototype.hasOwnProperty.call(fields, k) ? fields[k] : undefined;
    if (!t) {
      errs.push(layerError(`${path}.${k}`, problem('layer.field', { path: `${path}.${k}`, kind })));
      continue;
    }
    if (!fieldOk(t, val)) {
      errs.push(layerError(`${path}.${k}`, problem(`layer.value.${t}`, { path: `${path}.${k}` })));
      continue;
    }
    out[k] = t === 'layers' ? layers(val as unknown[], `${path}.${k}`, depth + 1, errs) : val;
  }
  return errs.length === before ? (out as unknown as LayerSpec) : null;
}

function layers(v: unknown[], path: string, depth: number, errs: LayerFieldError[]): LayerSpec[] {
  if (depth > MAX_DEPTH) {
    errs.push(layerError(path, problem('layer.depth', { path, max: MAX_DEPTH })));
    return [];
  }
  return v.map((x, i) => layer(x, `${path}[${i}]`, depth, errs)).filter((x): x is LayerSpec => x !== null);
}

/**
 * Validate parsed JSON: either `{ "input": [3, 224, 224], "layers": [...] }` or a bare layer
 * array (then `input` must be given). Returns every problem found, not just the first.
 */
export function validateNetwork(value: unknown, input?: readonly number[]): LayerResult<Network> {
  const errs: LayerFieldError[] = [];
  const obj = Array.isArray(value) ? { layers: value } : value;
  if (typeof obj !== 'object' || obj === null) {
    return { ok: false, errors: [layerError('network', problem('network.notObject'))] };
  }
  const o = obj as Record<string, unknown>;
  const shape = o.input ?? input;
  if (!(Array.isArray(shape) && shape.length >= 1 && shape.length <= 8 && shape.every((x) => isInt(x, 1)))) {
    errs.push(layerError('input', problem('network.input')));
  }
  if (!Array.isArray(o.layers) || o.layers.length === 0) {
    errs.push(layerError('layers', problem('network.layers')));
    return { ok: false, errors: errs };
  }
  const ls = layers(o.layers, 'layers', 0, errs);
  return errs.length ? { ok: false, errors: errs } : { ok: true, value: { layers: ls, input: [...(shape as number[])] } };
}

/** Parse JSON text and validate it; a syntax error comes back as one FieldError. */
export function parseNetworkJson(text: string, input?: readonly number[]): LayerResult<Network> {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { ok: false, errors: [layerError('network', problem('network.json', { detail: (e as Error).message }))] };
  }
  return validateNetwork(v, input);
}
