/**
 * Import a torchinfo `summary(model, input_size)` table (TylerYep/torchinfo, default columns
 * "Layer (type:depth-idx) | Output Shape | Param #"). Rows are in call order with output shapes,
 * so constructor arguments are solved from shapes and counts with the formulas of
 * docs/reference/formulas.md §7.1/§7.2 (square kernels, dilation 1). Functional ops are not rows: a shape
 * change between rows is filled with a pool or flatten, and F.relu / residual adds are added
 * only inside torchvision blocks. Every guess is in `notes`, every unread line in `unparsed`.
 */
import type { Message } from '../types';
import { ImportNotes, type ImportNoteCode } from './import-notes';
import type { ProblemParams } from './problems';
import type { Unparsed } from './repr-parse';
import { prod, type LayerSpec, type Network } from './spec';

export interface TorchinfoImport {
  network: Network;
  notes: Message[];
  unparsed: Unparsed[];
  statedTotal: number | null;
}

interface Row {
  type: string;
  depth: number;
  out: number[] | null;
  params: number;
  children: Row[];
  line: number;
}

// No two neighbouring quantifiers can match the same characters (the tree prefix takes all leading
// blanks, the optional Param # column brings its own leading blanks), so a failing line costs
// linear time: an earlier `[│|\s]*` + `\s*` pair took 35 s on a 200 KB line of spaces.
const ROW = /^[│|\s]*(?:[├└][─-]+\s*)?([A-Za-z_][\w.]*)(?::\s*(\d+)-\d+)?\s+(\[[\d,\s]*\]|--)(?:\s+([\d,]+|--|\(recursive\)))?\s*$/;
const ACT: Record<string, LayerSpec['kind']> = { ReLU: 'relu', ReLU6: 'relu6', GELU: 'gelu', SiLU: 'silu', Sigmoid: 'sigmoid', Tanh: 'tanh' };
const KEEP_SHAPE = new Set(['BatchNorm1d', 'BatchNorm2d', 'LayerNorm', 'GroupNorm', 'Dropout', ...Object.keys(ACT)]);

function parseRows(text: string): { root: Row | null; unparsed: Unparsed[]; total: number | null } {
  const unparsed: Unparsed[] = [];
  let root: Row | null = null;
  const stack: Row[] = [];
  let total: number | null = null;
  text.split(/\r?\n/).forEach((raw, i) => {
    const s = raw.trimEnd();
    const t = /^Total params:\s*([\d,]+)/.exec(s.trim());
    if (t) {
      const [, digits = ''] = t;
      total = Number(digits.replace(/,/g, ''));
      return;
    }
    if (!s.trim() || /^[=─-]+$/.test(s.trim()) || /^Layer \(type/.test(s.trim()) || /^(?:Trainable|Non-trainable|Total|Input size|Forward|Params size|Estimated)/.test(s.trim())) return;
    const m = ROW.exec(s);
    if (!m) {
      unparsed.push({ line: i + 1, text: raw });
      return;
    }
    // groups 1 (type) and 3 (shape) are not optional; 2 (depth) and 4 (params) may be absent
    const [, type = '', depthText, shapeText = '', paramText = ''] = m;
    const depth = depthText === undefined ? 0 : Number(depthText);
    if (depth > 64) {
      unparsed.push({ line: i + 1, text: raw });
      return;
    }
    const out =
      shapeText === '--'
        ? null
        : shapeText
            .slice(1, -1)
            .split(',')
            .map((x) => Number(x.trim()))
            .filter((x) => Number.isSafeInteger(x) && x > 0 && x <= 2 ** 31)
            .slice(1);
    const row: Row = { type, depth, out, params: /^[\d,]+$/.test(paramText) ? Number(paramText.replace(/,/g, '')) : 0, children: [], line: i + 1 };
    let parent = stack.at(-1);
    while (parent && parent.depth >= depth) {
      stack.pop();
      parent = stack.at(-1);
    }
    if (parent) parent.children.push(row);
    else if (!root) root = row;
    else {
      unparsed.push({ line: i + 1, text: raw });
      return;
    }
    stack.push(row);
  });
  return { root, unparsed, total };
}

class Solver {
  unparsed: Unparsed[] = [];
  readonly noted = new ImportNotes();
  constructor(public shape: number[]) {}

  note(code: ImportNoteCode, params?: ProblemParams): void {
    this.noted.add(code, params);
  }

  /** Fill a functional gap so `this.shape` becomes what `r` receives. */
  gap(r: Row): LayerSpec[] {
    const want = r.out;
    const x = this.shape;
    if (!want || !KEEP_SHAPE.has(r.type) || want.join() === x.join()) return [];
    const x3 = dims3(x);
    const w3 = dims3(want);
    if (x3 && w3 && w3[0] === x3[0] && w3[1] < x3[1] && x3[1] % w3[1] === 0) {
      const k = x3[1] / w3[1];
      this.note('torchinfo.pool', { k });
      this.shape = want;
      return [{ kind: 'maxpool2d', kernel: k }];
    }
    if (want.length === 1 && prod(x) === want[0]) {
      this.note('torchinfo.flatten');
      this.shape = want;
      return [{ kind: 'flatten' }];
    }
    return [];
  }

  leaf(r: Row): LayerSpec[] {
    const pre = this.gap(r);
    const x = this.shape;
    const out = r.out ?? x;
    const P = r.params;
    const x3 = dims3(x);
    const out3 = dims3(out);
    const [x0] = x;
    const xLast = x.at(-1);
    const outLast = out.at(-1);
    const act = ACT[r.type];
    let l: LayerSpec | null = null;
    if (r.type === 'Linear') {
      let fl: LayerSpec[] = [];
      if (x.length > 1 && out.length === 1) {
        fl = [{ kind: 'flatten' }];
        this.note('torchinfo.flatten');
      }
      const inF = fl.length ? prod(x) : xLast;
      if (inF !== undefined && outLast !== undefined) {
        pre.push(...fl);
        l = { kind: 'linear', in: inF, out: outLast, bias: P !== inF * outLast };
      }
    } else if (r.type === 'Conv2d' && x3 && out3) l = this.conv(x3, out3, P);
    else if ((r.type === 'BatchNorm2d' || r.type === 'BatchNorm1d') && x0 !== undefined) l = { kind: r.type === 'BatchNorm2d' ? 'batchnorm2d' : 'batchnorm1d', features: x0 };
    else if (r.type === 'LayerNorm' && xLast !== undefined) l = { kind: 'layernorm', shape: [xLast], bias: P !== xLast };
    else if (r.type === 'GroupNorm' && x0 !== undefined) {
      l = { kind: 'groupnorm', groups: gcd(32, x0), channels: x0 };
      this.note('torchinfo.gn');
    } else if (act) l = { kind: act } as LayerSpec;
    else if (r.type === 'Dropout') {
      l = { kind: 'dropout', p: 0.5 };
      this.note('torchinfo.dropout');
    } else if (r.type === 'Flatten') l = { kind: 'flatten' };
    else if ((r.type === 'MaxPool2d' || r.type === 'AvgPool2d') && x3 && out3) {
      // kernel = stride gives the same output map and the same saved bytes as k3/s2/p1
      const s = Math.max(1, Math.round(x3[1] / out3[1]));
      if (Math.floor((x3[1] - s) / s) + 1 === out3[1]) {
        this.note('torchinfo.poolArgs');
        l = { kind: r.type === 'MaxPool2d' ? 'maxpool2d' : 'avgpool2d', kernel: s };
      }
    } else if (r.type === 'AdaptiveAvgPool2d' && out3) l = { kind: 'adaptiveavgpool2d', out: [out3[1], out3[2]] };
    else if (r.type === 'Embedding' && outLast !== undefined) l = { kind: 'embedding', num: Math.round(P / outLast), dim: outLast };
    else if (r.type === 'MultiheadAttention' && outLast !== undefined) {
      const E = outLast;
      this.note('torchinfo.heads');
      l = { kind: 'mha', embed: E, heads: Math.max(1, Math.round(E / 64)), bias: P !== 4 * E * E };
    } else if (r.type === 'Sequential' && x3 && out3) {
      // a collapsed downsample (depth limit): 1×1 conv + BatchNorm
      const c = this.conv(x3, out3, P - 2 * out3[0]);
      if (c) {
        this.note('torchinfo.downsample');
        this.shape = out;
        return [...pre, { kind: 'sequential', body: [c, { kind: 'batchnorm2d', features: out3[0] }] }];
      }
    }
    if (!l) {
      this.unparsed.push({ line: r.line, text: `${r.type}: cannot solve its arguments from [${x.join(', ')}] → [${out.join(', ')}], skipped` });
      return pre;
    }
    this.shape = out;
    return [...pre, l];
  }

  /** Conv2d: k² from the count (groups 1 or depthwise, bias or not), stride from the size ratio, smallest padding that fits. */
  conv(x: Dims3, out: Dims3, P: number): LayerSpec | null {
    const [cin, h] = x;
    const [cout, ho] = out;
    if (!(cin >= 1 && h >= 1 && cout >= 1 && ho >= 1)) return null;
    for (const g of cout % cin === 0 && cin > 1 ? [1, cin] : [1]) {
      for (const bias of [false, true]) {
        const kk = (P - (bias ? cout : 0)) / (cout * (cin / g));
        const k = Math.round(Math.sqrt(kk));
        // bounded: a zero or overflowing count must not make the padding loop below endless
        if (!(Number.isSafeInteger(k) && k >= 1 && k <= 1024 && k * k === kk)) continue;
        const s = Math.max(1, Math.round(h / ho));
        for (let p = 0; p <= k; p++) {
          if (Math.floor((h + 2 * p - k) / s) + 1 === ho) return { kind: 'conv2d', in: cin, out: cout, kernel: k, stride: s, padding: p, groups: g, bias };
        }
      }
    }
    return null;
  }

  list(rows: Row[]): LayerSpec[] {
    return rows.flatMap((r) => this.one(r));
  }

  one(r: Row): LayerSpec[] {
    const kids = r.children;
    const last = kids.at(-1);
    if (!last) return this.leaf(r);
    const x = this.shape;
    if (r.type === 'Bottleneck' || r.type === 'BasicBlock') {
      this.note('torchinfo.res', { type: r.type });
      const ds = kids.find((k) => k.type === 'Sequential' || k.children.length > 0);
      const body = this.list(kids.filter((k) => k !== ds && k !== last));
      const after = this.shape;
      this.shape = x;
      const shortcut = ds ? this.list([ds]) : [];
      this.shape = after;
      return [{ kind: 'block', merge: 'add', inplace: true, body, shortcut, post: this.list([last]) }];
    }
    if (r.type === 'InvertedResidual' && r.out && r.out.join() === x.join()) {
      this.note('torchinfo.resInverted');
      return [{ kind: 'block', merge: 'add', body: this.list(kids) }];
    }
    if (r.type === 'EncoderBlock') {
      const i = kids.findIndex((k, j) => j > 0 && k.type === 'LayerNorm');
      this.note('torchinfo.resEncoder');
      return [
        { kind: 'block', merge: 'add', body: this.list(kids.slice(0, i)) },
        { kind: 'block', merge: 'add', body: this.list(kids.slice(i)) },
      ];
    }
    const own = r.params - kids.reduce((s, k) => s + total(k), 0);
    const patch = kids[0];
    if (r.type === 'VisionTransformer' && patch?.type === 'Conv2d') {
      const conv = this.list([patch]);
      const map = dims3(this.shape);
      // a patch conv that could not be solved leaves no [d, h, w] map: read the rest as a plain list
      if (!map) return [...conv, ...this.list(kids.slice(1))];
      const [d, hh, ww] = map;
      this.shape = [hh * ww + 1, d];
      this.note('torchinfo.vit');
      const rest = kids.slice(1);
      const heads = rest.length > 1 ? rest.at(-1) : undefined;
      const enc = this.list(heads ? rest.slice(0, -1) : rest);
      const dim = this.shape.at(-1);
      this.shape = dim === undefined ? [] : [dim];
      return [...conv, { kind: 'tokens' }, { kind: 'clstoken', dim: d }, ...enc, { kind: 'select' }, ...(heads ? this.list([heads]) : [])];
    }
    const [tokens, dim] = this.shape;
    if (r.type === 'Encoder' && own > 0 && this.shape.length === 2 && tokens !== undefined && dim !== undefined && own === tokens * dim) {
      return [{ kind: 'posembed', tokens, dim }, ...this.list(kids)];
    }
    return this.list(kids);
  }
}

type Dims3 = readonly [number, number, number];
/** A [channels, height, width] shape, or null when the shape has another rank. */
function dims3(shape: readonly number[] | null): Dims3 | null {
  if (!shape || shape.length !== 3) return null;
  const [c = 0, h = 0, w = 0] = shape;
  return [c, h, w];
}

const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
/** A row's parameters including its children's (torchinfo prints each module's own count). */
function total(r: Row): number {
  return r.children.length
    ? Math.max(
        r.params,
        r.children.reduce((s, k) => s + total(k), 0),
      )
    : r.params;
}

/** True when text looks like a torchinfo summary table. */
export function isTorchinfo(text: string): boolean {
  return /Layer \(type(?::depth-idx)?\)/.test(text) && /Param #/.test(text);
}

/** Import a torchinfo summary for a per-sample input shape. Never throws. */
export function importTorchinfo(text: string, input: readonly number[]): TorchinfoImport {
  const { root, unparsed, total: statedTotal } = parseRows(text.slice(0, 2_000_000));
  const s = new Solver([...input]);
  s.unparsed.push(...unparsed);
  const layers = root ? s.one(root) : [];
  if (!root) s.note('torchinfo.empty');
  else s.note('torchinfo.functional');
  return { network: { layers, input: [...input] }, notes: s.noted.list, unparsed: s.unparsed.sort((a, b) => a.line - b.line), statedTotal };
}
