/**
 * Layer-list description of a network (the classic per-layer memory method, docs/reference/formulas.md §7).
 * Field names follow the torch.nn constructor arguments (PyTorch docs). Shapes are per sample:
 * the batch dimension is never written, e.g. [3, 224, 224] for an RGB image.
 */

/** An int or a (h, w) pair, as torch.nn accepts for kernel_size/stride/padding/dilation. */
export type Pair = number | [number, number];

export type ActivationKind = 'relu' | 'relu6' | 'gelu' | 'silu' | 'sigmoid' | 'tanh';

interface Named {
  /** module name as in print(model), e.g. 'conv1'; rows are labelled with the dotted path; undefined = unnamed */
  name?: string | undefined;
}

export interface LinearSpec extends Named {
  kind: 'linear';
  in: number;
  out: number;
  bias?: boolean;
}
export interface Conv1dSpec extends Named {
  kind: 'conv1d';
  in: number;
  out: number;
  kernel: number;
  stride?: number;
  padding?: number;
  dilation?: number;
  groups?: number;
  bias?: boolean;
}
export interface Conv2dSpec extends Named {
  kind: 'conv2d';
  in: number;
  out: number;
  kernel: Pair;
  stride?: Pair;
  padding?: Pair;
  dilation?: Pair;
  groups?: number;
  bias?: boolean;
}
export interface ConvTranspose2dSpec extends Named {
  kind: 'convtranspose2d';
  in: number;
  out: number;
  kernel: Pair;
  stride?: Pair;
  padding?: Pair;
  outputPadding?: Pair;
  dilation?: Pair;
  groups?: number;
  bias?: boolean;
}
export interface BatchNormSpec extends Named {
  kind: 'batchnorm1d' | 'batchnorm2d';
  features: number;
  affine?: boolean;
}
export interface LayerNormSpec extends Named {
  kind: 'layernorm';
  shape: number[];
  affine?: boolean;
  bias?: boolean;
}
export interface GroupNormSpec extends Named {
  kind: 'groupnorm';
  groups: number;
  channels: number;
  affine?: boolean;
}
export interface EmbeddingSpec extends Named {
  kind: 'embedding';
  num: number;
  dim: number;
}
export interface PoolSpec extends Named {
  kind: 'maxpool2d' | 'avgpool2d';
  kernel: Pair;
  stride?: Pair;
  padding?: Pair;
  ceil?: boolean;
}
export interface AdaptivePoolSpec extends Named {
  kind: 'adaptiveavgpool2d';
  out: Pair;
}
export interface ActivationSpec extends Named {
  kind: ActivationKind;
  inplace?: boolean;
}
export interface DropoutSpec extends Named {
  kind: 'dropout';
  p: number;
}
/** torch.flatten(x, 1): every per-sample dim into one. */
export interface FlattenSpec extends Named {
  kind: 'flatten';
}
/** [C, H, W] -> [H·W, C] view (ViT patch tokens: reshape + permute, torchvision vision_transformer.py). */
export interface TokensSpec extends Named {
  kind: 'tokens';
}
/** Prepend a learnable class token: [T, D] -> [T+1, D] (torch.cat, torchvision ViT). */
export interface ClsTokenSpec extends Named {
  kind: 'clstoken';
  dim: number;
}
/** Add a learnable position embedding of shape [tokens, dim]. */
export interface PosEmbedSpec extends Named {
  kind: 'posembed';
  tokens: number;
  dim: number;
}
/** x[:, 0]: keep the first token, [T, D] -> [D]. */
export interface SelectSpec extends Named {
  kind: 'select';
}
/** torch.nn.MultiheadAttention(embed, heads, bias), self-attention on [T, E]. */
export interface MhaSpec extends Named {
  kind: 'mha';
  embed: number;
  heads: number;
  bias?: boolean;
}
/** torch.nn.TransformerEncoderLayer(d_model, nhead, dim_feedforward, dropout, activation, norm_first). */
export interface EncoderSpec extends Named {
  kind: 'encoder';
  d: number;
  heads: number;
  ffn: number;
  activation?: 'relu' | 'gelu';
  dropout?: number;
  normFirst?: boolean;
}
/**
 * Residual block or branch: out = merge(body(x), shortcut(x)); an empty or absent shortcut is
 * the identity. 'add' with inplace=true is torchvision's `out += identity`.
 */
export interface BlockSpec extends Named {
  kind: 'block';
  body: LayerSpec[];
  shortcut?: LayerSpec[];
  merge: 'add' | 'concat';
  inplace?: boolean;
  /** layers applied after the merge inside the same module (torchvision Bottleneck's final ReLU) */
  post?: LayerSpec[];
}
/** `times` copies of body in sequence (names get the copy index, like nn.Sequential). */
export interface RepeatSpec extends Named {
  kind: 'repeat';
  times: number;
  body: LayerSpec[];
}
/** nn.Sequential with a name: groups rows under a prefix. */
export interface SequentialSpec extends Named {
  kind: 'sequential';
  body: LayerSpec[];
}

export type LayerSpec =
  | LinearSpec
  | Conv1dSpec
  | Conv2dSpec
  | ConvTranspose2dSpec
  | BatchNormSpec
  | LayerNormSpec
  | GroupNormSpec
  | EmbeddingSpec
  | PoolSpec
  | AdaptivePoolSpec
  | ActivationSpec
  | DropoutSpec
  | FlattenSpec
  | TokensSpec
  | ClsTokenSpec
  | PosEmbedSpec
  | SelectSpec
  | MhaSpec
  | EncoderSpec
  | BlockSpec
  | RepeatSpec
  | SequentialSpec;

export type LayerKind = LayerSpec['kind'];

/** A network: its layers and the per-sample input shape (no batch dim). */
export interface Network {
  layers: LayerSpec[];
  input: number[];
}

/** Number of elements of a tensor shape (1 for a scalar's []). */
export function prod(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** (h, w) of a Pair. */
export function pair(p: Pair | undefined, dflt: number): [number, number] {
  if (p === undefined) return [dflt, dflt];
  return typeof p === 'number' ? [p, p] : [p[0], p[1]];
}
