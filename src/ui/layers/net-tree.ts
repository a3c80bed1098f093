/**
 * The layer table's tree: one node per LayerSpec (containers with children), each with the
 * estimate's per-layer rows attached. The core walks a network in a fixed order (leaf: one row;
 * block: body, shortcut, merge row, post; sequential/repeat/encoder: children in order —
 * src/core/layers/analyze.ts), so walking the specs in that same order pairs rows and nodes
 * exactly, with no reliance on module names (which may repeat).
 */
import type { NetworkLayerRow } from '../../core/layers/estimate';
import { expand, repeatCopy, repeatTimes } from '../../core/layers/expand';
import type { LayerSpec } from '../../core/layers/spec';
import { addrText, type Step } from './net-edits';

export interface Totals {
  params: number;
  /** bytes autograd keeps for backward (training) */
  saved: number;
  /** bytes of output tensors */
  output: number;
  flops: number;
}

export interface TreeNode {
  /** address text (net-edits.ts), unique; merge rows get `<block>.merge` */
  id: string;
  at: Step[] | null;
  /** module path as the core names it, e.g. 'layer1.0.conv1' */
  path: string;
  spec: LayerSpec | null;
  /** 'add' / 'concat' for a block's merge row */
  kind: string;
  inShape: number[] | null;
  outShape: number[] | null;
  totals: Totals;
  /** a repeat's children show one copy; the repeat itself counts all */
  copies: number;
  /** shortcut / post children are marked so the table can label them */
  branch: Step['list'];
  children?: TreeNode[];
  /** position among siblings and sibling count (for move buttons) */
  index: number;
  siblings: number;
}

const zero = (): Totals => ({ params: 0, saved: 0, output: 0, flops: 0 });
const add = (a: Totals, b: Totals) => {
  a.params += b.params;
  a.saved += b.saved;
  a.output += b.output;
  a.flops += b.flops;
};
const join = (a: string, b: string) => (a && b ? `${a}.${b}` : a || b);

class Attacher {
  i = 0;
  constructor(private rows: NetworkLayerRow[] | null) {}

  /** Attach the next core row to a leaf (or merge) node. */
  take(n: TreeNode): void {
    const r = this.rows?.[this.i++];
    if (!r) return;
    add(n.totals, { params: r.params, saved: r.savedBytes, output: r.outputBytes, flops: r.flops });
    n.inShape = r.inShape;
    n.outShape = r.outShape;
  }

  /** Nodes for one list of siblings. `at` null: inside a repeat copy > 0 (rows consumed, no nodes kept). */
  list(specs: LayerSpec[], prefix: string, at: Step[] | null, which: Step['list']): TreeNode[] {
    return specs.map((spec, i) => this.node(spec, join(prefix, spec.name ?? String(i)), at ? [...at, { list: which, i }] : null, which, i, specs.length));
  }

  node(spec: LayerSpec, path: string, at: Step[] | null, branch: Step['list'], index: number, siblings: number): TreeNode {
    const n: TreeNode = {
      id: at ? addrText(at) : path,
      at,
      path,
      spec,
      kind: spec.kind,
      inShape: null,
      outShape: null,
      totals: zero(),
      copies: 1,
      branch,
      index,
      siblings,
    };
    const sub = (children: TreeNode[]) => {
      for (const c of children) add(n.totals, c.totals);
      n.inShape ??= children[0]?.inShape ?? null;
      const last = children[children.length - 1];
      if (last?.outShape) n.outShape = last.outShape;
      return children;
    };
    if (spec.kind === 'block') {
      const kids = [...this.list(spec.body, path, at, 'body'), ...this.list(spec.shortcut ?? [], path, at, 'shortcut')];
      const merge: TreeNode = {
        id: `${n.id}.merge`,
        at: null,
        path: join(path, spec.merge),
        spec: null,
        kind: spec.merge,
        inShape: null,
        outShape: null,
        totals: zero(),
        copies: 1,
        branch: 'body',
        index: -1,
        siblings: 0,
      };
      this.take(merge);
      kids.push(merge, ...this.list(spec.post ?? [], path, at, 'post'));
      n.children = sub(kids);
    } else if (spec.kind === 'sequential') {
      n.children = sub(this.list(spec.body, path, at, 'body'));
    } else if (spec.kind === 'repeat') {
      n.copies = repeatTimes(spec);
      // copy 0 is shown with the template's addresses; later copies only add to the total
      const shown =
        n.copies === 0
          ? []
          : spec.body.length === 1
            ? [this.node(repeatCopy(spec, 0), join(path, '0'), at ? [...at, { list: 'body', i: 0 }] : null, 'body', 0, 1)]
            : this.list(spec.body, join(path, '0'), at, 'body');
      n.children = sub(shown);
      // Later copies are walked only to take their rows: with rows the list was analysed, so it is
      // within MAX_EXPANDED (src/core/layers/expand.ts); without rows they add nothing, and a
      // hostile repeat count costs nothing.
      if (this.rows) for (let i = 1; i < n.copies; i++) sub([this.node(repeatCopy(spec, i), join(path, String(i)), null, 'body', 0, 1)]);
    } else if (spec.kind === 'encoder') {
      sub(this.list(expand(spec), path, null, 'body'));
    } else {
      this.take(n);
    }
    return n;
  }
}

/** The tree for the table; `rows` null when the network did not analyse (no figures). */
export function buildTree(layers: LayerSpec[], rows: NetworkLayerRow[] | null): TreeNode[] {
  return new Attacher(rows).list(layers, '', [], 'body');
}

/** Every node in display order (depth first). */
export function flatten(nodes: TreeNode[]): TreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children ?? [])]);
}

/**
 * The node a core error path belongs to: the first node with exactly that module path, else
 * the deepest node whose path is a prefix of it (e.g. a later copy of a repeat); null for ''.
 */
export function nodeForPath(nodes: TreeNode[], path: string): TreeNode | null {
  if (path === '') return null;
  let best: TreeNode | null = null;
  for (const n of flatten(nodes)) {
    if (n.path === path) return n;
    if (path.startsWith(`${n.path}.`) && (!best || n.path.length > best.path.length)) best = n;
  }
  return best;
}

/**
 * Bars for "where the memory goes": top-level modules, with top-level sequential containers
 * opened (ResNet stages -> bottlenecks) and, one level further, long runs of blocks (ViT encoder
 * layers: ≥ 4 children), so a bar is a block a reader recognises rather than one of ~170 leaves.
 */
export function chartUnits(nodes: TreeNode[], depth = 0): TreeNode[] {
  const open = (n: TreeNode) => n.kind === 'sequential' && !!n.children && n.children.every((c) => c.path !== n.path) && (depth === 0 || (depth === 1 && n.children.length >= 4));
  return nodes.flatMap((n) => (open(n) ? chartUnits(n.children ?? [], depth + 1) : [n]));
}
