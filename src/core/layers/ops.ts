/**
 * What each leaf layer does to memory: output shape (PyTorch docs formulas, docs/reference/formulas.md §7.2),
 * learnable parameters and buffers (docs/reference/formulas.md §7.1), forward FLOPs, and what autograd saves
 * for backward (docs/reference/formulas.md §7.3; pytorch/pytorch tools/autograd/derivatives.yaml).
 * Shapes are per sample (no batch dim). Throws ShapeError with a problem code (problems.ts) on misfit;
 * the walker adds the layer's path.
 */
import { pair, prod, type LayerSpec } from './spec';
import { dims, problem, problemText, type LayerProblem, type LayerProblemCode, type ProblemParams } from './problems';

/** A layer whose input shape does not fit its PyTorch shape rule. */
export class ShapeError extends Error {
  constructor(readonly problem: LayerProblem) {
    super(problemText(problem));
  }
}

/**
 * Dtype class of an op under autocast (torch/csrc/autograd autocast_mode.cpp op lists):
 * 'compute' = lower-precision list (linear, conv, matmul); 'fp32' = fp32 list (layer_norm,
 * group_norm, softmax); 'same' = runs in its input dtype; 'promote' = widest input wins (cat,
 * add with an fp32 parameter); 'param' = output in the parameter dtype (embedding lookup).
 */
export type DtypeClass = 'compute' | 'fp32' | 'same' | 'promote' | 'param';

/** A tensor autograd keeps: the op's (cast) input, its output, or a new tensor. */
export type Save = { ref: 'in' } | { ref: 'out' } | { ref: 'new'; perSample: number; fixed: number; bytes: number | 'act' | 'fp32' };

export interface OpInfo {
  out: number[];
  params: number;
  /** float buffers (BN running stats), elements */
  buffers: number;
  /** int64 buffers (BN num_batches_tracked), count */
  intBuffers: number;
  /** parameters autocast casts to 16-bit and caches (linear/conv weights and biases) */
  castParams: number;
  /** shapes of the parameter tensors (weight, bias, …), for per-tensor optimizer state */
  tensors?: number[][];
  /** forward FLOPs per sample (multiply-add = 2) */
  flops: number;
  dtype: DtypeClass;
  /** output shares the input's storage (in-place op or view) */
  alias: boolean;
  saves: Save[];
  /** per-sample elements of intermediate tensors that are transient (not saved) */
  scratch?: number;
}

function need(cond: boolean, code: LayerProblemCode, params: ProblemParams = {}): void {
  if (!cond) throw new ShapeError(problem(code, params));
}

function rank(x: number[], r: number, what: string): void {
  need(x.length === r, 'shape.rank', { rank: r, form: what, got: dims(x) });
}

/** floor((L + 2p − dil·(k−1) − 1)/s) + 1, or ceil (pooling with ceil_mode); PyTorch Conv2d/MaxPool2d docs. */
function convLen(L: number, k: number, s: number, p: number, d: number, ceil = false): number {
  const num = L + 2 * p - d * (k - 1) - 1;
  let o = (ceil ? Math.ceil(num / s) : Math.floor(num / s)) + 1;
  // ceil_mode: the last window must start inside the input or left padding (PyTorch pooling_output_shape)
  if (ceil && (o - 1) * s >= L + p) o--;
  need(o >= 1, 'shape.convOut', { size: o, input: L, kernel: k, stride: s, padding: p, dilation: d });
  return o;
}

function positive(v: number, what: string): void {
  need(Number.isInteger(v) && v >= 1, 'shape.positive', { what, got: v });
}

function conv(spec: Extract<LayerSpec, { kind: 'conv1d' | 'conv2d' | 'convtranspose2d' }>, x: number[]): OpInfo {
  const two = spec.kind !== 'conv1d';
  rank(x, two ? 3 : 2, two ? '[C, H, W]' : '[C, L]');
  const g = spec.groups ?? 1;
  positive(g, 'groups');
  need(x[0] === spec.in, 'shape.inChannels', { want: spec.in, got: String(x[0]) });
  need(spec.in % g === 0 && spec.out % g === 0, 'shape.convGroups', { in: spec.in, out: spec.out, groups: g });
  // conv1d fields are plain ints; pair() widens them and only index 0 is used
  const k = pair(spec.kernel, 1);
  const s = pair(spec.stride, 1);
  const p = pair(spec.padding, 0);
  const d = pair(spec.dilation, 1);
  const kk = two ? k[0] * k[1] : k[0];
  const bias = spec.bias ?? true;
  const [, L0 = 0, L1 = 0] = x; // rank() checked the length
  const len = [L0, L1] as const;
  let outSp: number[];
  if (spec.kind === 'convtranspose2d') {
    const op = pair(spec.outputPadding, 0);
    outSp = ([0, 1] as const).map((i) => (len[i] - 1) * s[i] - 2 * p[i] + d[i] * (k[i] - 1) + op[i] + 1);
    need(
      outSp.every((v) => v >= 1),
      'shape.transposedOut',
    );
  } else {
    outSp = (two ? ([0, 1] as const) : ([0] as const)).map((i) => convLen(len[i], k[i], s[i], p[i], d[i]));
  }
  const weights = spec.out * (spec.in / g) * kk;
  const params = weights + (bias ? spec.out : 0);
  const inSp = prod(x.slice(1));
  // transposed conv: every input pixel scatters a Cout/g × k window
  const flops = spec.kind === 'convtranspose2d' ? 2 * inSp * spec.in * (spec.out / g) * kk : 2 * prod(outSp) * weights;
  const wShape = spec.kind === 'convtranspose2d' ? [spec.in, spec.out / g, ...k.slice(0, two ? 2 : 1)] : [spec.out, spec.in / g, ...k.slice(0, two ? 2 : 1)];
  return {
    out: [spec.out, ...outSp],
    params,
    buffers: 0,
    intBuffers: 0,
    castParams: params,
    flops,
    tensors: bias ? [wShape, [spec.out]] : [wShape],
    dtype: 'compute',
    alias: false,
    saves: [{ ref: 'in' }],
  };
}

/** Leaf-layer semantics; containers (block, repeat, sequential, encoder) are walked elsewhere. */
export function leafOp(spec: LayerSpec, x: number[]): OpInfo {
  const n = prod(x);
  const base = { buffers: 0, intBuffers: 0, castParams: 0 };
  switch (spec.kind) {
    case 'linear': {
      positive(spec.in, 'in_features');
      positive(spec.out, 'out_features');
      need(x.length >= 1 && x[x.length - 1] === spec.in, 'shape.lastDim', { want: spec.in, got: dims(x) });
      const rows = n / spec.in;
      const params = spec.in * spec.out + ((spec.bias ?? true) ? spec.out : 0);
      return {
        ...base,
        out: [...x.slice(0, -1), spec.out],
        params,
        castParams: params,
        tensors: (spec.bias ?? true) ? [[spec.out, spec.in], [spec.out]] : [[spec.out, spec.in]],
        flops: 2 * rows * spec.in * spec.out,
        dtype: 'compute',
        alias: false,
        saves: [{ ref: 'in' }],
      };
    }
    case 'conv1d':
    case 'conv2d':
    case 'convtranspose2d':
      return conv(spec, x);
    case 'batchnorm1d':
    case 'batchnorm2d': {
      if (spec.kind === 'batchnorm2d') rank(x, 3, '[C, H, W]');
      else need(x.length === 1 || x.length === 2, 'shape.batchNorm1d', { got: dims(x) });
      need(x[0] === spec.features, 'shape.channels', { want: spec.features, got: String(x[0]) });
      const C = spec.features;
      // cudnn/native batch_norm save input plus fp32 save_mean and save_invstd per channel
      return {
        out: x,
        params: (spec.affine ?? true) ? 2 * C : 0,
        buffers: 2 * C,
        intBuffers: 1,
        castParams: 0,
        tensors: (spec.affine ?? true) ? [[C], [C]] : [],
        flops: 4 * n,
        dtype: 'same',
        alias: false,
        saves: [{ ref: 'in' }, { ref: 'new', perSample: 0, fixed: 2 * C, bytes: 'fp32' }],
      };
    }
    case 'layernorm': {
      const m = spec.shape.length;
      need(m >= 1 && m <= x.length && spec.shape.every((v, i) => v === x[x.length - m + i]), 'shape.normalized', { want: dims(spec.shape), got: dims(x) });
      const norm = prod(spec.shape);
      const affine = spec.affine ?? true;
      const params = affine ? norm * ((spec.bias ?? true) ? 2 : 1) : 0;
      // native_layer_norm saves input, mean and rstd (fp32, one per row)
      return {
        ...base,
        out: x,
        params,
        flops: 5 * n,
        dtype: 'fp32',
        alias: false,
        tensors: Array.from({ length: affine ? ((spec.bias ?? true) ? 2 : 1) : 0 }, () => spec.shape),
        saves: [{ ref: 'in' }, { ref: 'new', perSample: 2 * (n / norm), fixed: 0, bytes: 'fp32' }],
      };
    }
    case 'groupnorm': {
      positive(spec.groups, 'num_groups');
      need(x[0] === spec.channels, 'shape.channels', { want: spec.channels, got: String(x[0]) });
      need(spec.channels % spec.groups === 0, 'shape.groupNorm', { channels: spec.channels, groups: spec.groups });
      return {
        ...base,
        out: x,
        params: (spec.affine ?? true) ? 2 * spec.channels : 0,
        flops: 5 * n,
        dtype: 'fp32',
        tensors: (spec.affine ?? true) ? [[spec.channels], [spec.channels]] : [],
        alias: false,
        saves: [{ ref: 'in' }, { ref: 'new', perSample: 2 * spec.groups, fixed: 0, bytes: 'fp32' }],
      };
    }
    case 'embedding':
      positive(spec.num, 'num_embeddings');
      positive(spec.dim, 'embedding_dim');
      // embedding_backward needs the int64 indices only
      return {
        ...base,
        out: [...x, spec.dim],
        params: spec.num * spec.dim,
        flops: 0,
        dtype: 'param',
        tensors: [[spec.num, spec.dim]],
        alias: false,
        saves: [{ ref: 'in' }],
      };
    case 'maxpool2d':
    case 'avgpool2d': {
      rank(x, 3, '[C, H, W]');
      const k = pair(spec.kernel, 1);
      const s = pair(spec.stride ?? spec.kernel, 1);
      const p = pair(spec.padding, 0);
      need(p[0] * 2 <= k[0] && p[1] * 2 <= k[1], 'shape.poolPadding');
      const [c = 0, h = 0, w = 0] = x; // rank() checked the length
      const out = [c, convLen(h, k[0], s[0], p[0], 1, spec.ceil), convLen(w, k[1], s[1], p[1], 1, spec.ceil)];
      const on = prod(out);
      // max_pool2d_with_indices saves input + int64 indices; avg_pool2d_backward takes self (input)
      const saves: Save[] = spec.kind === 'maxpool2d' ? [{ ref: 'in' }, { ref: 'new', perSample: on, fixed: 0, bytes: 8 }] : [{ ref: 'in' }];
      return { ...base, out, params: 0, flops: on * k[0] * k[1], dtype: 'same', alias: false, saves };
    }
    case 'adaptiveavgpool2d': {
      rank(x, 3, '[C, H, W]');
      const [h, w] = pair(spec.out, 1);
      positive(h, 'output height');
      positive(w, 'output width');
      const [c = 0] = x; // rank() checked the length
      return { ...base, out: [c, h, w], params: 0, flops: n, dtype: 'same', alias: false, saves: [{ ref: 'in' }] };
    }
    case 'relu':
    case 'relu6':
    case 'sigmoid':
    case 'tanh':
    case 'gelu':
    case 'silu': {
      const savesOut = spec.kind !== 'gelu' && spec.kind !== 'silu';
      const inplace = spec.inplace ?? false;
      // relu/hardtanh/sigmoid/tanh backward use the result; gelu/silu use self, which an
      // in-place variant must clone first (autograd codegen `original_self`)
      const saves: Save[] = savesOut ? [{ ref: 'out' }] : inplace ? [{ ref: 'new', perSample: n, fixed: 0, bytes: 'act' }] : [{ ref: 'in' }];
      return { ...base, out: x, params: 0, flops: n, dtype: 'same', alias: inplace, saves };
    }
    case 'dropout':
      need(spec.p >= 0 && spec.p < 1, 'shape.dropout', { got: spec.p });
      // ATen dropout returns its input when p == 0; otherwise native_dropout saves a bool mask
      if (spec.p === 0) return { ...base, out: x, params: 0, flops: 0, dtype: 'same', alias: true, saves: [] };
      return {
        ...base,
        out: x,
        params: 0,
        flops: n,
        dtype: 'same',
        alias: false,
        saves: [{ ref: 'new', perSample: n, fixed: 0, bytes: 1 }],
      };
    case 'flatten':
      return { ...base, out: [n], params: 0, flops: 0, dtype: 'same', alias: true, saves: [] };
    case 'tokens': {
      rank(x, 3, '[C, H, W]');
      const [c = 0, h = 0, w = 0] = x; // rank() checked the length
      return { ...base, out: [h * w, c], params: 0, flops: 0, dtype: 'same', alias: true, saves: [] };
    }
    case 'clstoken': {
      rank(x, 2, '[T, D]');
      const [t = 0, dim = 0] = x; // rank() checked the length
      need(dim === spec.dim, 'shape.dim', { want: spec.dim, got: dim });
      return { ...base, out: [t + 1, dim], params: spec.dim, tensors: [[1, 1, spec.dim]], flops: 0, dtype: 'promote', alias: false, saves: [] };
    }
    case 'posembed':
      rank(x, 2, '[T, D]');
      need(x[0] === spec.tokens && x[1] === spec.dim, 'shape.posEmbed', { tokens: spec.tokens, dim: spec.dim, got: dims(x) });
      return { ...base, out: x, params: spec.tokens * spec.dim, tensors: [[1, spec.tokens, spec.dim]], flops: n, dtype: 'promote', alias: false, saves: [] };
    case 'select':
      need(x.length >= 2, 'shape.select', { got: dims(x) });
      return { ...base, out: x.slice(1), params: 0, flops: 0, dtype: 'same', alias: true, saves: [] };
    case 'mha':
      return mha(spec.embed, spec.heads, spec.bias ?? true, x);
    default:
      throw new ShapeError(problem('shape.container', { kind: spec.kind }));
  }
}

/**
 * nn.MultiheadAttention self-attention with need_weights=False, which runs
 * scaled_dot_product_attention (torch/nn/functional.py multi_head_attention_forward).
 * Saved: in_proj input, packed q/k/v, attention output (also out_proj's input), fp32 logsumexp.
 */
function mha(E: number, h: number, bias: boolean, x: number[]): OpInfo {
  rank(x, 2, '[T, E]');
  positive(h, 'num_heads');
  need(x[1] === E, 'shape.embedDim', { want: E, got: String(x[1]) });
  need(E % h === 0, 'shape.heads', { embed: E, heads: h });
  const [T = 0] = x; // rank() checked the length
  const params = 4 * E * E + (bias ? 4 * E : 0);
  return {
    out: x,
    params,
    buffers: 0,
    intBuffers: 0,
    castParams: params,
    tensors: bias
      ? [[3 * E, E], [3 * E], [E, E], [E]]
      : [
          [3 * E, E],
          [E, E],
        ],
    flops: 2 * T * E * 3 * E + 4 * T * T * E + 2 * T * E * E,
    dtype: 'compute',
    alias: false,
    saves: [
      { ref: 'in' },
      { ref: 'new', perSample: 3 * T * E, fixed: 0, bytes: 'act' },
      { ref: 'new', perSample: T * E, fixed: 0, bytes: 'act' },
      { ref: 'new', perSample: h * T, fixed: 0, bytes: 'fp32' },
    ],
  };
}
