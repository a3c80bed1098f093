/**
 * What the layer editor shows per kind: the torch.nn class name, each argument under its
 * torch.nn constructor name (PyTorch docs), how to read what is typed, and a sensible new layer
 * for the shape flowing into a position. Field names are those of src/core/layers/spec.ts.
 */
import type { LayerKind, LayerSpec } from '../../core/layers/spec';
import type { FieldValue, Fields } from './net-edits';

export type FieldType = 'int' | 'int0' | 'pair' | 'pair0' | 'bool' | 'p' | 'shape' | 'act' | 'merge';

const CONV: [string, FieldType][] = [
  ['in', 'int'],
  ['out', 'int'],
  ['kernel', 'pair'],
  ['stride', 'pair'],
  ['padding', 'pair0'],
  ['dilation', 'pair'],
  ['groups', 'int'],
  ['bias', 'bool'],
];
const POOL: [string, FieldType][] = [
  ['kernel', 'pair'],
  ['stride', 'pair'],
  ['padding', 'pair0'],
  ['ceil', 'bool'],
];
const ACT: [string, FieldType][] = [['inplace', 'bool']];

/** Editable arguments of each leaf kind, in torch.nn constructor order. */
type F = [string, FieldType][];
const FIELDS_BY_KIND = {
  linear: [
    ['in', 'int'],
    ['out', 'int'],
    ['bias', 'bool'],
  ] as F,
  conv1d: CONV.map(([k, t]): [string, FieldType] => [k, t === 'pair' ? 'int' : t === 'pair0' ? 'int0' : t]),
  conv2d: CONV,
  convtranspose2d: [...CONV.slice(0, 5), ['outputPadding', 'pair0'], ...CONV.slice(5)],
  batchnorm1d: [
    ['features', 'int'],
    ['affine', 'bool'],
  ],
  batchnorm2d: [
    ['features', 'int'],
    ['affine', 'bool'],
  ],
  layernorm: [
    ['shape', 'shape'],
    ['affine', 'bool'],
    ['bias', 'bool'],
  ],
  groupnorm: [
    ['groups', 'int'],
    ['channels', 'int'],
    ['affine', 'bool'],
  ],
  embedding: [
    ['num', 'int'],
    ['dim', 'int'],
  ],
  maxpool2d: POOL,
  avgpool2d: POOL,
  adaptiveavgpool2d: [['out', 'pair']],
  relu: ACT,
  relu6: ACT,
  gelu: [],
  silu: ACT,
  sigmoid: [],
  tanh: [],
  dropout: [['p', 'p']],
  flatten: [],
  tokens: [],
  select: [],
  clstoken: [['dim', 'int']],
  posembed: [
    ['tokens', 'int'],
    ['dim', 'int'],
  ],
  mha: [
    ['embed', 'int'],
    ['heads', 'int'],
    ['bias', 'bool'],
  ],
  encoder: [
    ['d', 'int'],
    ['heads', 'int'],
    ['ffn', 'int'],
    ['activation', 'act'],
    ['dropout', 'p'],
    ['normFirst', 'bool'],
  ],
} satisfies Partial<Record<LayerKind, F>>;

export type LeafKind = keyof typeof FIELDS_BY_KIND;
export const KIND_FIELDS: Record<string, F> = FIELDS_BY_KIND;
export const LEAF_KINDS = Object.keys(FIELDS_BY_KIND) as LeafKind[];
export const isLeafKind = (k: string): k is LeafKind => Object.prototype.hasOwnProperty.call(KIND_FIELDS, k);

/** Editable settings of containers: how a residual block merges, how many copies a repeat makes. */
const CONTAINER_FIELDS: Record<string, F> = {
  block: [
    ['merge', 'merge'],
    ['inplace', 'bool'],
  ],
  repeat: [['times', 'int']],
};

/** The editable fields of any layer kind (empty for plain sequential containers). */
export const fieldsOf = (kind: string): F => (isLeafKind(kind) ? KIND_FIELDS[kind] : (CONTAINER_FIELDS[kind] ?? []));
export const isEditable = (kind: string): boolean => isLeafKind(kind) || kind in CONTAINER_FIELDS;

/** torch.nn class names (our own view ops are named for what they do). */
export const CLASS_NAME: Record<string, string> = {
  linear: 'Linear',
  conv1d: 'Conv1d',
  conv2d: 'Conv2d',
  convtranspose2d: 'ConvTranspose2d',
  batchnorm1d: 'BatchNorm1d',
  batchnorm2d: 'BatchNorm2d',
  layernorm: 'LayerNorm',
  groupnorm: 'GroupNorm',
  embedding: 'Embedding',
  maxpool2d: 'MaxPool2d',
  avgpool2d: 'AvgPool2d',
  adaptiveavgpool2d: 'AdaptiveAvgPool2d',
  relu: 'ReLU',
  relu6: 'ReLU6',
  gelu: 'GELU',
  silu: 'SiLU',
  sigmoid: 'Sigmoid',
  tanh: 'Tanh',
  dropout: 'Dropout',
  flatten: 'Flatten',
  tokens: 'tokens (C,H,W → H·W,C)',
  clstoken: 'class token',
  posembed: 'position embedding',
  select: 'x[:, 0]',
  mha: 'MultiheadAttention',
  encoder: 'TransformerEncoderLayer',
  sequential: 'Sequential',
  add: '+',
  concat: 'cat',
};

const TORCH_ARG: Record<string, string> = {
  kernel: 'kernel_size',
  padding: 'padding',
  outputPadding: 'output_padding',
  features: 'num_features',
  shape: 'normalized_shape',
  num: 'num_embeddings',
  dim: 'embedding_dim',
  ceil: 'ceil_mode',
  embed: 'embed_dim',
  heads: 'num_heads',
  d: 'd_model',
  ffn: 'dim_feedforward',
  normFirst: 'norm_first',
  channels: 'num_channels',
};

/** The torch.nn argument name of a field for a kind. */
export function torchArg(kind: string, field: string): string {
  const conv = kind.startsWith('conv');
  if (field === 'in') return conv ? 'in_channels' : 'in_features';
  if (field === 'out') return kind === 'adaptiveavgpool2d' ? 'output_size' : conv ? 'out_channels' : 'out_features';
  if (field === 'groups' && kind === 'groupnorm') return 'num_groups';
  if (field === 'affine' && kind === 'layernorm') return 'elementwise_affine';
  if (field === 'heads' && kind === 'encoder') return 'nhead';
  if (field === 'dim' && kind !== 'embedding') return 'dim';
  return TORCH_ARG[field] ?? field;
}

/** Text shown in an argument's box. */
export function fieldText(v: unknown): string {
  if (Array.isArray(v)) return v.join(', ');
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- an argument is a list (above) or a number, string or boolean
  return v === undefined ? '' : String(v);
}

/** Read what was typed for a field; null when it is not a valid value of that type. */
export function readField(type: FieldType, text: string): FieldValue | null {
  const t = text.trim();
  const ints = t.replace(/^[[(]|[\])]$/g, '').split(/\s*[,x×]\s*/);
  const allInts = (min: number) => ints.every((p) => /^\d{1,10}$/.test(p) && Number(p) >= min && Number(p) <= 2 ** 31);
  switch (type) {
    case 'int':
    case 'int0':
      return /^\d{1,10}$/.test(t) && Number(t) >= (type === 'int' ? 1 : 0) && Number(t) <= 2 ** 31 ? Number(t) : null;
    case 'pair':
    case 'pair0':
      if (ints.length > 2 || !allInts(type === 'pair' ? 1 : 0)) return null;
      return ints.length === 1 ? Number(ints[0]) : ints.map(Number);
    case 'shape':
      return ints.length <= 8 && allInts(1) ? ints.map(Number) : null;
    case 'p': {
      const n = Number(t);
      return t !== '' && Number.isFinite(n) && n >= 0 && n < 1 ? n : null;
    }
    case 'act':
      return t === 'relu' || t === 'gelu' ? t : null;
    case 'merge':
      return t === 'add' || t === 'concat' ? t : null;
    case 'bool':
      return t === 'true' ? true : t === 'false' ? false : null;
  }
}

/** Default value of an unset field as torch.nn uses it, for display. */
export function defaultOf(kind: string, field: string): FieldValue | undefined {
  if (field === 'bias' || field === 'affine') return true;
  if (field === 'inplace' || field === 'ceil' || field === 'normFirst') return false;
  if (field === 'stride') return kind.includes('pool') ? undefined : 1;
  if (field === 'padding' || field === 'outputPadding') return 0;
  if (field === 'dilation' || field === 'groups') return 1;
  if (field === 'activation') return 'relu';
  if (field === 'dropout') return 0.1;
  return undefined;
}

/** A new layer of a kind that fits the per-sample shape `x` flowing in (keeps the shape where it can). */
export function newLayer(kind: LeafKind, x: number[]): Fields {
  const c = x[0] ?? 1;
  const last = x[x.length - 1] ?? 1;
  const heads = last % 8 === 0 ? 8 : 1;
  switch (kind) {
    case 'linear':
      return { kind, in: last, out: last };
    case 'conv1d':
    case 'conv2d':
      return { kind, in: c, out: c, kernel: 3, padding: 1 };
    case 'convtranspose2d':
      return { kind, in: c, out: c, kernel: 2, stride: 2 };
    case 'batchnorm1d':
    case 'batchnorm2d':
      return { kind, features: c };
    case 'layernorm':
      return { kind, shape: [last] };
    case 'groupnorm':
      return { kind, groups: 1, channels: c };
    case 'embedding':
      return { kind, num: 1000, dim: 64 };
    case 'maxpool2d':
    case 'avgpool2d':
      return { kind, kernel: 2, stride: 2 };
    case 'adaptiveavgpool2d':
      return { kind, out: 1 };
    case 'dropout':
      return { kind, p: 0.1 };
    case 'clstoken':
      return { kind, dim: last };
    case 'posembed':
      return { kind, tokens: c, dim: last };
    case 'mha':
      return { kind, embed: last, heads };
    case 'encoder':
      return { kind, d: last, heads, ffn: 4 * last };
    default:
      return { kind };
  }
}

/** A spec's argument value (typed access for the editor). */
export const argOf = (spec: LayerSpec, field: string): unknown => (spec as unknown as Record<string, unknown>)[field];
