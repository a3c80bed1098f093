/**
 * Import a network from PyTorch's `print(model)` text. The repr lists modules, not the
 * forward graph, so residual adds and functional ops are inferred from torchvision module
 * names (models/resnet.py Bottleneck/BasicBlock, mobilenetv2.py InvertedResidual,
 * vision_transformer.py VisionTransformer/EncoderBlock, torch.nn TransformerEncoderLayer);
 * every assumption is reported in `notes`, every unreadable line in `unparsed`.
 */
import type { Message } from '../types';
import { ImportNotes, type ImportNoteCode } from './import-notes';
import type { ProblemParams } from './problems';
import { parseReprTree, type ReprNode, type Unparsed, type Value } from './repr-parse';
import type { LayerSpec, Network, Pair } from './spec';

export interface ReprImport {
  network: Network;
  notes: Message[];
  unparsed: Unparsed[];
}

const num = (v: Value | undefined, d: number): number => (typeof v === 'number' && Number.isFinite(v) ? v : Array.isArray(v) && typeof v[0] === 'number' ? v[0] : d);
const pr = (v: Value | undefined, d: number): Pair => {
  if (Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number') return [v[0], v[1]];
  return num(v, d);
};
const bool = (v: Value | undefined, d: boolean): boolean => (typeof v === 'boolean' ? v : d);
const pairOne = (p: Pair | undefined) => p === undefined || p === 1 || (Array.isArray(p) && p[0] === 1 && p[1] === 1);

/** Conv2d leaves of a layer list in order (through containers). */
function convs(ls: LayerSpec[]): (LayerSpec & { kind: 'conv2d' })[] {
  return ls.flatMap((l) => (l.kind === 'conv2d' ? [l] : l.kind === 'sequential' || l.kind === 'repeat' ? convs(l.body) : l.kind === 'block' ? convs([...l.body, ...(l.shortcut ?? [])]) : []));
}
const arg = (n: ReprNode, i: number, k: string): Value | undefined => n.kw[k] ?? n.pos[i];

/** Containers whose forward runs their children in order (nn.Sequential and torchvision subclasses). */
const SEQUENTIAL = ['Sequential', 'ModuleList', 'ModuleDict', 'Conv2dNormActivation', 'ConvNormActivation', 'MLPBlock', 'Encoder'];

class Importer {
  unparsed: Unparsed[] = [];
  readonly noted = new ImportNotes();
  /** a conv/pool map is flowing (a Linear will need a flatten) */
  spatial = false;
  channels = 0;
  pooledToOne = false;
  /** layers toFlat inserted for the current child */
  inserted: LayerSpec[] = [];
  constructor(private input: number[]) {}

  note(code: ImportNoteCode, params?: ProblemParams): void {
    this.noted.add(code, params);
  }

  leaf(n: ReprNode): LayerSpec[] {
    const name = n.name || undefined;
    const T = n.type;
    if (T === 'Linear' || T === 'NonDynamicallyQuantizableLinear') {
      const l: LayerSpec = { kind: 'linear', name, in: num(arg(n, 0, 'in_features'), 0), out: num(arg(n, 1, 'out_features'), 0), bias: bool(n.kw.bias, true) };
      return this.toFlat(l);
    }
    if (T === 'Conv1d' || T === 'Conv2d' || T === 'ConvTranspose2d') {
      let padding: Pair = pr(arg(n, 4, 'padding'), 0);
      const kernel = pr(arg(n, 2, 'kernel_size'), 1);
      if (typeof n.kw.padding === 'string') {
        this.note('repr.padding', { padding: n.kw.padding, as: n.kw.padding === 'same' ? '(k−1)/2' : '0' });
        padding = n.kw.padding === 'same' ? (typeof kernel === 'number' ? (kernel - 1) >> 1 : [(kernel[0] - 1) >> 1, (kernel[1] - 1) >> 1]) : 0;
      }
      const out = num(arg(n, 1, 'out_channels'), 0);
      const common = { name, in: num(arg(n, 0, 'in_channels'), 0), out, groups: num(n.kw.groups, 1), bias: bool(n.kw.bias, true) };
      this.spatial = true;
      this.channels = out;
      this.pooledToOne = false;
      if (T === 'Conv1d') {
        return [{ kind: 'conv1d', ...common, kernel: num(kernel, 1), stride: num(n.kw.stride, 1), padding: num(padding, 0), dilation: num(n.kw.dilation, 1) }];
      }
      const c = { ...common, kernel, stride: pr(n.kw.stride, 1), padding, dilation: pr(n.kw.dilation, 1) };
      return [T === 'Conv2d' ? { kind: 'conv2d', ...c } : { kind: 'convtranspose2d', ...c, outputPadding: pr(n.kw.output_padding, 0) }];
    }
    if (T === 'BatchNorm1d' || T === 'BatchNorm2d') {
      return [{ kind: T === 'BatchNorm1d' ? 'batchnorm1d' : 'batchnorm2d', name, features: num(arg(n, 0, 'num_features'), 0), affine: bool(n.kw.affine, true) }];
    }
    if (T === 'LayerNorm') {
      const s = arg(n, 0, 'normalized_shape');
      const shape = Array.isArray(s) ? s.map((x) => num(x, 0)) : [num(s, 0)];
      return [{ kind: 'layernorm', name, shape, affine: bool(n.kw.elementwise_affine, true), bias: bool(n.kw.bias, true) }];
    }
    if (T === 'GroupNorm') return [{ kind: 'groupnorm', name, groups: num(arg(n, 0, 'num_groups'), 0), channels: num(arg(n, 1, 'num_channels'), 0), affine: bool(n.kw.affine, true) }];
    if (T === 'Embedding') return [{ kind: 'embedding', name, num: num(arg(n, 0, 'num_embeddings'), 0), dim: num(arg(n, 1, 'embedding_dim'), 0) }];
    if (T === 'MaxPool2d' || T === 'AvgPool2d') {
      this.pooledToOne = false;
      return [
        {
          kind: T === 'MaxPool2d' ? 'maxpool2d' : 'avgpool2d',
          name,
          kernel: pr(arg(n, 0, 'kernel_size'), 1),
          stride: pr(arg(n, 1, 'stride') ?? arg(n, 0, 'kernel_size'), 1),
          padding: pr(arg(n, 2, 'padding'), 0),
          ceil: bool(n.kw.ceil_mode, false),
        },
      ];
    }
    if (T === 'AdaptiveAvgPool2d') {
      const out = pr(arg(n, 0, 'output_size'), 1);
      this.pooledToOne = out === 1 || (Array.isArray(out) && out[0] === 1 && out[1] === 1);
      return [{ kind: 'adaptiveavgpool2d', name, out }];
    }
    const act: Record<string, LayerSpec['kind']> = { ReLU: 'relu', ReLU6: 'relu6', GELU: 'gelu', SiLU: 'silu', Sigmoid: 'sigmoid', Tanh: 'tanh' };
    // old releases print a bare flag: ReLU(inplace)
    if (act[T]) return [{ kind: act[T], name, inplace: bool(n.kw.inplace, n.pos[0] === 'inplace') } as LayerSpec];
    if (T === 'Dropout' || T === 'Dropout1d' || T === 'Dropout2d') return [{ kind: 'dropout', name, p: num(arg(n, 0, 'p'), 0.5) }];
    if (T === 'Flatten') {
      this.spatial = false;
      return [{ kind: 'flatten', name }];
    }
    if (T === 'Identity' || T === 'Sequential' || T === 'ModuleList') return [];
    this.unparsed.push({ line: n.line, text: `${n.name ? `(${n.name}): ` : ''}${T}(…): module type not modelled, skipped` });
    return [];
  }

  /** A Linear after a conv map: insert flatten, or global pool + flatten when in == channels. */
  toFlat(l: LayerSpec & { kind: 'linear' }): LayerSpec[] {
    if (!this.spatial) return [l];
    this.spatial = false;
    if (l.in === this.channels && !this.pooledToOne) {
      this.note('repr.globalPool', { layer: l.name ?? 'linear' });
      this.inserted = [
        { kind: 'adaptiveavgpool2d', name: 'avgpool', out: 1 },
        { kind: 'flatten', name: 'flatten' },
      ];
    } else {
      this.note('repr.flatten', { layer: l.name ?? 'linear' });
      this.inserted = [{ kind: 'flatten', name: 'flatten' }];
    }
    return [...this.inserted, l];
  }

  seq(ns: ReprNode[]): LayerSpec[] {
    const out: LayerSpec[] = [];
    for (const c of ns) {
      this.inserted = [];
      const specs = this.one(c);
      // a flatten inserted for a classifier goes before the classifier's leading dropouts
      if (this.inserted.length && !c.children && out.length > 0 && !out.some((x) => x.kind !== 'dropout')) {
        out.unshift(...this.inserted);
        out.push(...specs.filter((x) => !this.inserted.includes(x)));
      } else out.push(...specs);
      this.inserted = [];
    }
    return out;
  }

  one(n: ReprNode): LayerSpec[] {
    if (!n.children) {
      const l = this.leaf(n);
      return n.times > 1 && l.length ? [{ kind: 'repeat', name: '', times: n.times, body: l }] : l;
    }
    const name = n.name || undefined;
    const by = (k: string) => n.children!.find((c) => c.name === k);
    const kids = (ks: string[]) => ks.map(by).filter((x): x is ReprNode => x !== undefined);
    let specs: LayerSpec[];
    if (n.type === 'Bottleneck' || n.type === 'BasicBlock') {
      this.note('repr.resblock', { type: n.type });
      const relu = by('relu') ? this.one(by('relu')!) : [];
      const body: LayerSpec[] = [];
      for (const [c, b] of [
        ['conv1', 'bn1'],
        ['conv2', 'bn2'],
        ['conv3', 'bn3'],
      ] as const) {
        if (!by(c)) continue;
        if (body.length) body.push(...relu);
        body.push(...this.seq(kids([c, b])));
      }
      const ds = by('downsample');
      const shortcut = ds ? this.one(ds) : [];
      specs = [{ kind: 'block', name, merge: 'add', inplace: true, body, shortcut, post: relu }];
    } else if (n.type === 'InvertedResidual') {
      const body = this.seq(n.children);
      const cs = convs(body);
      const [first] = cs;
      const last = cs.at(-1);
      const res = first !== undefined && last !== undefined && first.in === last.out && cs.every((c) => pairOne(c.stride));
      this.note('repr.invres');
      specs = res ? [{ kind: 'block', name, merge: 'add', body }] : [{ kind: 'sequential', name, body }];
    } else if (n.type === 'EncoderBlock') {
      this.note('repr.vitblock');
      specs = [
        { kind: 'block', name: '', merge: 'add', body: this.seq(kids(['ln_1', 'self_attention', 'dropout'])) },
        { kind: 'block', name: '', merge: 'add', body: this.seq(kids(['ln_2', 'mlp'])) },
      ];
      specs = [{ kind: 'sequential', name, body: specs }];
    } else if (n.type === 'MultiheadAttention') {
      const o = by('out_proj');
      const E = o ? num(arg(o, 0, 'in_features'), 0) : 0;
      const heads = Math.max(1, Math.round(E / 64));
      this.note('repr.heads', { heads });
      specs = [{ kind: 'mha', name, embed: E, heads, bias: o ? bool(o.kw.bias, true) : true }];
    } else if (n.type === 'TransformerEncoderLayer') {
      const l1 = by('linear1');
      const sa = by('self_attn');
      const E = l1 ? num(arg(l1, 0, 'in_features'), 0) : 0;
      this.note('repr.encoder');
      specs = [
        {
          kind: 'encoder',
          name,
          d: E,
          heads: Math.max(1, Math.round(E / 64)),
          ffn: l1 ? num(arg(l1, 1, 'out_features'), 0) : 0,
          activation: by('activation')?.type === 'GELU' ? 'gelu' : 'relu',
          dropout: num(by('dropout')?.kw.p, 0.1),
        },
      ];
      if (!sa) this.note('repr.encoderNoAttn');
    } else if (n.type === 'VisionTransformer') {
      specs = this.vit(n);
    } else {
      if (!SEQUENTIAL.includes(n.type)) {
        this.note('repr.order', { type: n.type });
      }
      specs = [{ kind: 'sequential', name, body: this.seq(n.children) }];
    }
    return n.times > 1 ? [{ kind: 'repeat', name: '', times: n.times, body: specs.map((x) => ({ ...x, name: undefined })) }] : specs;
  }

  /** torchvision VisionTransformer: patch tokens, class token and position embedding are parameters, not modules. */
  vit(n: ReprNode): LayerSpec[] {
    const cp = n.children!.find((c) => c.name === 'conv_proj');
    const enc = n.children!.find((c) => c.name === 'encoder');
    const heads = n.children!.find((c) => c.name === 'heads');
    if (!cp || !enc || !enc.children) return [{ kind: 'sequential', body: this.seq(n.children!) }];
    const d = num(arg(cp, 1, 'out_channels'), 0);
    const patch = num(arg(cp, 2, 'kernel_size'), 1);
    const tokens = Math.floor((this.input[1] ?? 0) / patch) * Math.floor((this.input[2] ?? 0) / patch) + 1;
    this.note('repr.vit', { d, tokens });
    const conv = this.one(cp);
    this.spatial = false;
    return [
      ...conv,
      { kind: 'tokens', name: 'tokens' },
      { kind: 'clstoken', name: 'class_token', dim: d },
      { kind: 'sequential', name: 'encoder', body: [{ kind: 'posembed', name: 'pos_embedding', tokens, dim: d }, ...this.seq(enc.children)] },
      { kind: 'select', name: 'cls' },
      ...(heads ? this.one(heads) : []),
    ];
  }
}

/**
 * Import print(model) text for an input shape (needed by the flatten / ViT token inferences).
 * Never throws; an empty network comes back with a note when nothing could be read.
 */
export function importTorchRepr(text: string, input: readonly number[]): ReprImport {
  const { root, unparsed } = parseReprTree(text.slice(0, 2_000_000));
  const imp = new Importer([...input]);
  imp.unparsed.push(...unparsed);
  const layers = root ? (root.children ? imp.one({ ...root, times: 1 }).flatMap((s) => (s.kind === 'sequential' && !s.name ? s.body : [s])) : imp.one(root)) : [];
  if (!root) imp.note('repr.empty');
  return { network: { layers, input: [...input] }, notes: imp.noted.list, unparsed: imp.unparsed.sort((a, b) => a.line - b.line) };
}
