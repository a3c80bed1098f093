/**
 * Container expansion: repeat and TransformerEncoderLayer become plain layer lists, and the
 * top level is flattened into the module list torch.utils.checkpoint.checkpoint_sequential
 * would see. Encoder layout follows torch/nn/modules/transformer.py TransformerEncoderLayer
 * (module names self_attn, dropout1, norm1, linear1, dropout, linear2, dropout2, norm2).
 */
import type { EncoderSpec, LayerSpec } from './spec';

/** The layers of one TransformerEncoderLayer, as blocks with residual adds. */
export function encoderLayers(e: EncoderSpec): LayerSpec[] {
  const p = e.dropout ?? 0.1;
  const attn: LayerSpec[] = [{ kind: 'mha', name: 'self_attn', embed: e.d, heads: e.heads }, { kind: 'dropout', name: 'dropout1', p }];
  const ff: LayerSpec[] = [
    { kind: 'linear', name: 'linear1', in: e.d, out: e.ffn },
    { kind: e.activation ?? 'relu', name: 'activation' },
    { kind: 'dropout', name: 'dropout', p },
    { kind: 'linear', name: 'linear2', in: e.ffn, out: e.d },
    { kind: 'dropout', name: 'dropout2', p },
  ];
  const norm = (name: string): LayerSpec => ({ kind: 'layernorm', name, shape: [e.d] });
  if (e.normFirst) {
    return [
      { kind: 'block', name: '', body: [norm('norm1'), ...attn], merge: 'add' },
      { kind: 'block', name: '', body: [norm('norm2'), ...ff], merge: 'add' },
    ];
  }
  return [
    { kind: 'block', name: '', body: attn, merge: 'add' }, norm('norm1'),
    { kind: 'block', name: '', body: ff, merge: 'add' }, norm('norm2'),
  ];
}

/** Children of a container in walk order (repeat copies are named 0..n-1 like nn.Sequential). */
export function expand(spec: Extract<LayerSpec, { kind: 'sequential' | 'repeat' | 'encoder' }>): LayerSpec[] {
  if (spec.kind === 'sequential') return spec.body;
  if (spec.kind === 'encoder') return encoderLayers(spec);
  const out: LayerSpec[] = [];
  const n = Math.max(0, Math.floor(spec.times));
  for (let i = 0; i < n; i++) {
    out.push(spec.body.length === 1
      ? { ...spec.body[0], name: String(i) }
      : { kind: 'sequential', name: String(i), body: spec.body });
  }
  return out;
}

/** Top-level modules with nested sequential/repeat containers flattened, each with its path. */
export function topUnits(layers: LayerSpec[], prefix = ''): { spec: LayerSpec; path: string }[] {
  const out: { spec: LayerSpec; path: string }[] = [];
  layers.forEach((l, i) => {
    const name = l.name ?? String(i);
    const path = prefix && name ? `${prefix}.${name}` : prefix || name;
    if (l.kind === 'sequential' || l.kind === 'repeat') out.push(...topUnits(expand(l), path));
    else out.push({ spec: l, path });
  });
  return out;
}

/** Leaf count after expansion, stopping early past `limit` (guards nested repeats). */
export function countLeaves(layers: LayerSpec[], limit: number): number {
  let n = 0;
  for (const l of layers) {
    if (n > limit) break;
    if (l.kind === 'block') n += countLeaves([...l.body, ...(l.shortcut ?? []), ...(l.post ?? [])], limit) + 1;
    else if (l.kind === 'sequential') n += countLeaves(l.body, limit);
    else if (l.kind === 'repeat') n += Math.max(0, Math.floor(l.times)) * countLeaves(l.body, limit);
    else if (l.kind === 'encoder') n += 12;
    else n += 1;
  }
  return n;
}
