/**
 * Walks a layer list: shape inference, per-layer rows, the set of tensors autograd keeps
 * (deduplicated by storage, so in-place ReLU and a Conv saving the ReLU output it follows are
 * counted once, docs/reference/formulas.md §7.3), and the live-tensor peak of a no_grad forward
 * (docs/reference/formulas.md §7 "Inference peak for feed-forward CNNs"). Everything is per sample except
 * `fixed` bytes (per-channel BatchNorm statistics), which do not scale with the batch.
 */
import { leafOp, ShapeError, type OpInfo } from './ops';
import { dims, problem, problemText, type LayerProblem } from './problems';
import { prod, type LayerSpec, type Network } from './spec';
import { expand, expansionError, MAX_EXPANDED, topUnits } from './expand';

/** Element sizes for one precision recipe (autocast: torch.amp autocast_mode.cpp op lists). */
export interface Dtypes {
  /** lower-precision-list ops (linear, conv, matmul) output */
  compute: number;
  /** fp32-list ops (layer_norm, group_norm, softmax) output */
  fp32: number;
  /** parameter dtype */
  param: number;
  /** network input element size (int64 ids for an embedding network) */
  input: number;
}

export interface LayerRow {
  /** dotted module path, e.g. 'layer1.0.conv1' */
  path: string;
  kind: string;
  depth: number;
  inShape: number[];
  outShape: number[];
  params: number;
  /** float buffer elements (BatchNorm running mean/var) */
  buffers: number;
  /** bytes of the output tensor per sample (0 for views and in-place ops) */
  outputBytes: number;
  /** bytes autograd newly keeps here, per sample (tensors first saved by this layer) */
  savedBytes: number;
  /** same, batch-independent part */
  savedFixedBytes: number;
  /** forward FLOPs per sample */
  flops: number;
  /** input + output bytes per sample: the gradient pair live during this layer's backward */
  gradPair: number;
  /** parameter tensor shapes */
  tensors: number[][];
}

/** A unit for gradient checkpointing: one flattened top-level module. */
export interface Unit {
  inputId: number;
  /** ids of every tensor autograd keeps inside the unit */
  saved: Set<number>;
}

export interface Analysis {
  rows: LayerRow[];
  out: number[];
  params: number;
  buffers: number;
  intBuffers: number;
  /** params that autocast casts to 16-bit and caches */
  castParams: number;
  flops: number;
  /** storage size of every tensor by id: per-sample bytes and fixed bytes */
  sizes: Map<number, { ps: number; fixed: number }>;
  /** every tensor autograd keeps (plain training, no checkpointing) */
  saved: Set<number>;
  units: Unit[];
  /** max over layers of live tensors in a no_grad forward, per sample bytes */
  inferPeak: number;
  /** per-sample bytes of each tensor live at that peak (allocator segment rounding) */
  inferPeakTensors: number[];
  /** max over layers of input + output bytes (the gradient pair live in backward), per sample */
  gradPair: number;
}

export type AnalyzeResult = { ok: true; value: Analysis } | { ok: false; error: string; problem: LayerProblem; path: string };

/** Bytes of a set of tensors (by id) at batch b: per-sample part × b plus the fixed part. */
export function sumBytes(a: Analysis, ids: Iterable<number>, b: number): number {
  let s = 0;
  for (const id of ids) {
    const z = a.sizes.get(id);
    if (z) s += z.ps * b + z.fixed;
  }
  return s;
}

/** Largest tensor (elements) a layer may output. */
const MAX_ELEMENTS = 2 ** 48;

interface T {
  id: number;
  shape: number[];
  el: number;
}

class Walker {
  a: Analysis;
  held: T[] = [];
  next = 0;
  unit: Unit | null = null;
  leaves = 0;
  paths = new Set<string>();
  /** next #n suffix to try per repeated path */
  suffix = new Map<string, number>();
  constructor(private d: Dtypes) {
    this.a = {
      rows: [],
      out: [],
      params: 0,
      buffers: 0,
      intBuffers: 0,
      castParams: 0,
      flops: 0,
      sizes: new Map(),
      saved: new Set(),
      units: [],
      inferPeak: 0,
      inferPeakTensors: [],
      gradPair: 0,
    };
  }

  tensor(shape: number[], el: number, fixed = 0): T {
    const t = { id: this.next++, shape, el };
    this.a.sizes.set(t.id, { ps: prod(shape) * el, fixed });
    return t;
  }

  bytes(t: T): number {
    return this.a.sizes.get(t.id)?.ps ?? 0;
  }

  /** Live bytes: held tensors plus the given ones, each storage once. */
  live(ts: T[], scratch: number): void {
    const seen = new Set<number>();
    const each: number[] = scratch > 0 ? [scratch] : [];
    for (const t of [...this.held, ...ts])
      if (!seen.has(t.id)) {
        seen.add(t.id);
        each.push(this.bytes(t));
      }
    const sum = each.reduce((x, y) => x + y, 0);
    if (sum > this.a.inferPeak) {
      this.a.inferPeak = sum;
      this.a.inferPeakTensors = each;
    }
  }

  keep(id: number, row: LayerRow): void {
    this.unit?.saved.add(id);
    if (this.a.saved.has(id)) return;
    this.a.saved.add(id);
    const s = this.a.sizes.get(id);
    if (s) {
      row.savedBytes += s.ps;
      row.savedFixedBytes += s.fixed;
    }
  }

  row(p: string, kind: string, depth: number, x: T, out: number[], op: Partial<OpInfo>): LayerRow {
    // unnamed blocks (encoder halves) can repeat a merge path: number the repeats
    let path = p;
    if (this.paths.has(p)) {
      // resume from the last suffix given to p, so n same-named layers cost O(n), not O(n²)
      let i = this.suffix.get(p) ?? 2;
      while (this.paths.has(`${p}#${i}`)) i++;
      this.suffix.set(p, i + 1);
      path = `${p}#${i}`;
    }
    this.paths.add(path);
    const r: LayerRow = {
      path,
      kind,
      depth,
      inShape: x.shape,
      outShape: out,
      params: op.params ?? 0,
      buffers: op.buffers ?? 0,
      outputBytes: 0,
      savedBytes: 0,
      savedFixedBytes: 0,
      flops: op.flops ?? 0,
      gradPair: 0,
      tensors: op.tensors ?? [],
    };
    this.a.rows.push(r);
    return r;
  }

  leaf(spec: LayerSpec, x: T, path: string, depth: number): T {
    if (++this.leaves > MAX_EXPANDED) throw new ShapeError(problem('shape.tooMany', { max: MAX_EXPANDED }));
    const op = leafOp(spec, x.shape);
    if (!(prod(op.out) <= MAX_ELEMENTS)) throw new ShapeError(problem('shape.tooLarge', { shape: dims(op.out) }));
    const d = this.d;
    const want = op.dtype === 'compute' ? d.compute : op.dtype === 'fp32' ? d.fp32 : x.el;
    // autocast casts a floating input to the op's dtype: a new tensor (int64 ids are never cast)
    const inT = want !== x.el && x.el !== 8 && spec.kind !== 'embedding' ? this.tensor(x.shape, want) : x;
    const el = op.dtype === 'compute' ? d.compute : op.dtype === 'fp32' ? d.fp32 : op.dtype === 'param' ? d.param : op.dtype === 'promote' ? Math.max(inT.el, d.param) : inT.el;
    const out: T = op.alias ? { id: inT.id, shape: op.out, el: inT.el } : this.tensor(op.out, el);
    const r = this.row(path, spec.kind, depth, x, op.out, op);
    if (!op.alias) r.outputBytes = this.bytes(out);
    const a = this.a;
    a.params += op.params;
    a.buffers += op.buffers;
    a.intBuffers += op.intBuffers;
    a.castParams += op.castParams;
    a.flops += op.flops;
    for (const s of op.saves) {
      if (s.ref === 'in') this.keep(inT.id, r);
      else if (s.ref === 'out') this.keep(out.id, r);
      else {
        const b = s.bytes === 'act' ? el : s.bytes === 'fp32' ? 4 : s.bytes;
        const t = this.tensor([s.perSample], b, s.fixed * b);
        this.keep(t.id, r);
      }
    }
    // no_grad forward in eval mode: attention keeps packed q/k/v and its output alive inside
    // the op (3·T·E + T·E); CUDA max_pool2d runs max_pool2d_with_indices and drops the int64
    // indices after (ATen Pooling.cpp); dropout is the identity (F.dropout, training=False)
    const scratch = spec.kind === 'mha' ? 4 * prod(op.out) * el : spec.kind === 'maxpool2d' ? 8 * prod(op.out) : 0;
    this.live(spec.kind === 'dropout' ? [x] : [x, inT, out], scratch);
    r.gradPair = prod(x.shape) * x.el + prod(op.out) * el;
    if (r.gradPair > a.gradPair) a.gradPair = r.gradPair;
    return out;
  }

  block(spec: Extract<LayerSpec, { kind: 'block' }>, x: T, path: string, depth: number): T {
    this.held.push(x);
    const b = this.seq(spec.body, x, path, depth);
    this.held.pop();
    this.held.push(b);
    const s = spec.shortcut && spec.shortcut.length > 0 ? this.seq(spec.shortcut, x, path, depth) : x;
    this.held.pop();
    const mpath = `${path}${path ? '.' : ''}${spec.merge}`;
    let shape: number[];
    if (spec.merge === 'add') {
      if (b.shape.join() !== s.shape.join()) {
        throw new ShapeError(problem('shape.add', { body: dims(b.shape), shortcut: dims(s.shape) }));
      }
      shape = b.shape;
    } else {
      if (b.shape.length !== s.shape.length || b.shape.slice(1).join() !== s.shape.slice(1).join()) {
        throw new ShapeError(problem('shape.concat', { body: dims(b.shape), shortcut: dims(s.shape) }));
      }
      const [b0, ...rest] = b.shape;
      const [s0] = s.shape;
      if (b0 === undefined || s0 === undefined) throw new ShapeError(problem('shape.concat0d'));
      shape = [b0 + s0, ...rest];
    }
    const inplace = spec.merge === 'add' && (spec.inplace ?? false);
    const out: T = inplace ? { ...b } : this.tensor(shape, Math.max(b.el, s.el));
    const r = this.row(mpath, spec.merge, depth + 1, b, shape, { flops: spec.merge === 'add' ? prod(shape) : 0 });
    if (!inplace) r.outputBytes = this.bytes(out);
    r.gradPair = 2 * prod(shape) * out.el;
    this.a.flops += r.flops;
    this.live([b, s, out], 0);
    return spec.post ? this.seq(spec.post, out, path, depth) : out;
  }

  one(spec: LayerSpec, x: T, path: string, depth: number): T {
    try {
      switch (spec.kind) {
        case 'block':
          return this.block(spec, x, path, depth);
        case 'sequential':
        case 'repeat':
        case 'encoder':
          return this.seq(expand(spec), x, path, depth);
        default:
          return this.leaf(spec, x, path, depth);
      }
    } catch (e) {
      if (e instanceof ShapeError && !(e instanceof PathError)) throw new PathError(path, spec.kind, e.problem);
      throw e;
    }
  }

  seq(items: LayerSpec[], x: T, prefix: string, depth: number): T {
    let t = x;
    items.forEach((it, i) => {
      t = this.one(it, t, join(prefix, it.name ?? String(i)), depth + 1);
    });
    return t;
  }
}

class PathError extends ShapeError {
  constructor(
    readonly path: string,
    kind: string,
    inner: LayerProblem,
  ) {
    super(problem('shape.at', { path, kind }, inner));
  }
}

const join = (a: string, b: string) => (a && b ? `${a}.${b}` : a || b);

const failed = (p: LayerProblem, path: string): AnalyzeResult => ({ ok: false, error: problemText(p), problem: p, path });

/**
 * Analyse a network for one dtype recipe. Never throws: a misfit comes back as the first
 * layer (dotted path) whose input shape does not fit, with PyTorch's rule in words.
 */
export function analyze(net: Network, dtypes: Dtypes): AnalyzeResult {
  const w = new Walker(dtypes);
  try {
    if (net.input.length === 0 || !net.input.every((v) => Number.isInteger(v) && v >= 1 && v <= 2 ** 31)) {
      return failed(problem('shape.input', { got: dims(net.input) }), '');
    }
    const tooBig = expansionError(net.layers);
    if (tooBig) return failed(tooBig, '');
    let x = w.tensor(net.input, dtypes.input);
    for (const { spec, path } of topUnits(net.layers)) {
      const unit: Unit = { inputId: x.id, saved: new Set() };
      w.unit = unit;
      x = w.one(spec, x, path, 0);
      w.a.units.push(unit);
    }
    w.a.out = x.shape;
    return { ok: true, value: w.a };
  } catch (e) {
    if (e instanceof PathError) return failed(e.problem, e.path);
    if (e instanceof ShapeError) return failed(e.problem, '');
    throw e;
  }
}
