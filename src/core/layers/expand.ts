/**
 * Container expansion: repeat and TransformerEncoderLayer become plain layer lists, and the
 * top level is flattened into the module list torch.utils.checkpoint.checkpoint_sequential
 * would see. Encoder layout follows torch/nn/modules/transformer.py TransformerEncoderLayer
 * (module names self_attn, dropout1, norm1, linear1, dropout, linear2, dropout2, norm2).
 */
import type { EncoderSpec, LayerSpec, RepeatSpec } from './spec';
import { problem, type LayerProblem } from './problems';

/** The layers of one TransformerEncoderLayer, as blocks with residual adds. */
export function encoderLayers(e: EncoderSpec): LayerSpec[] {
  const p = e.dropout ?? 0.1;
  const attn: LayerSpec[] = [
    { kind: 'mha', name: 'self_attn', embed: e.d, heads: e.heads },
    { kind: 'dropout', name: 'dropout1', p },
  ];
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
  return [{ kind: 'block', name: '', body: attn, merge: 'add' }, norm('norm1'), { kind: 'block', name: '', body: ff, merge: 'add' }, norm('norm2')];
}

/** Children of a container in walk order (repeat copies are named 0..n-1 like nn.Sequential). */
export function expand(spec: Extract<LayerSpec, { kind: 'sequential' | 'repeat' | 'encoder' }>): LayerSpec[] {
  if (spec.kind === 'sequential') return spec.body;
  if (spec.kind === 'encoder') return encoderLayers(spec);
  return Array.from({ length: repeatTimes(spec) }, (_, i) => repeatCopy(spec, i));
}

/** Copies a repeat makes (its `times`, whole and non-negative). */
export const repeatTimes = (spec: RepeatSpec): number => Math.max(0, Math.floor(spec.times));

/** Copy i of a repeat: the single body layer renamed, or a sequential around the body. */
export function repeatCopy(spec: RepeatSpec, i: number): LayerSpec {
  const [only] = spec.body;
  return only && spec.body.length === 1 ? { ...only, name: String(i) } : { kind: 'sequential', name: String(i), body: spec.body };
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

/**
 * Most nodes a layer list may expand to: every leaf, container, block merge row and repeat copy.
 * One limit for the page's layer table and every estimate (page and CLI), so a share link such
 * as `rep99999[rep99999[linear 1 1]]` is refused before anything is expanded.
 */
export const MAX_EXPANDED = 100_000;

/**
 * Nodes after expansion (as walked by analyze.ts and the page's table), counted without
 * expanding: a repeat costs times × its body. Stops early once past `limit`, so the work is
 * linear in the size of the written list however deep repeats nest.
 */
export function countExpanded(layers: readonly LayerSpec[], limit: number): number {
  let n = 0;
  for (const l of layers) {
    if (n > limit) break;
    n += 1;
    if (l.kind === 'block') n += 1 + countExpanded([...l.body, ...(l.shortcut ?? []), ...(l.post ?? [])], limit - n);
    else if (l.kind === 'sequential') n += countExpanded(l.body, limit - n);
    else if (l.kind === 'encoder') n += countExpanded(encoderLayers(l), limit - n);
    else if (l.kind === 'repeat') {
      const times = repeatTimes(l);
      // one copy (repeatCopy): the single body layer renamed, or a sequential around the body
      const copy = times === 0 ? 0 : (l.body.length === 1 ? 0 : 1) + countExpanded(l.body, limit - n);
      n += times * copy;
    }
  }
  return n;
}

/** The one message for a list past MAX_EXPANDED, or null when it fits. */
export function expansionError(layers: readonly LayerSpec[]): LayerProblem | null {
  return countExpanded(layers, MAX_EXPANDED) > MAX_EXPANDED ? problem('shape.tooManyExpanded', { max: MAX_EXPANDED }) : null;
}
