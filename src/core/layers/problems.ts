/**
 * Every problem the layer core reports about a network, as a code with named parameters and its
 * English wording. The page translates the code (src/ui/layers/layer-core-zh.ts is typed on
 * `LayerProblemCode`, so a code without a translation does not compile); the CLI prints the English.
 * The shape rules behind the `shape.*` codes are PyTorch's (ops.ts cites each one).
 */

/** English wording of each problem; `{name}` is a parameter. */
export const LAYER_PROBLEMS = {
  // a leaf layer's input does not fit its shape rule (ops.ts)
  'shape.rank': 'expects a {rank}-d input {form}, got [{got}]',
  'shape.convOut': 'output size {size} < 1 (input {input}, kernel {kernel}, stride {stride}, padding {padding}, dilation {dilation})',
  'shape.transposedOut': 'output size < 1',
  'shape.positive': '{what} must be a positive integer, got {got}',
  'shape.inChannels': 'expects {want} input channels, got {got}',
  'shape.convGroups': 'channels {in}→{out} not divisible by groups {groups}',
  'shape.lastDim': 'expects last dim {want}, got [{got}]',
  'shape.batchNorm1d': 'expects [C] or [C, L], got [{got}]',
  'shape.channels': 'expects {want} channels, got {got}',
  'shape.normalized': 'normalized shape [{want}] does not match input [{got}]',
  'shape.groupNorm': 'channels {channels} not divisible by groups {groups}',
  'shape.poolPadding': 'padding must be at most half the kernel',
  'shape.dropout': 'p must be in [0, 1), got {got}',
  'shape.dim': 'expects dim {want}, got {got}',
  'shape.posEmbed': 'expects [{tokens}, {dim}], got [{got}]',
  'shape.select': 'expects [T, ...], got [{got}]',
  'shape.embedDim': 'expects embed dim {want}, got {got}',
  'shape.heads': 'embed dim {embed} not divisible by {heads} heads',
  'shape.container': "'{kind}' is a container, not a leaf",
  // merges and limits (analyze.ts, expand.ts)
  'shape.add': 'add: body gives [{body}], shortcut gives [{shortcut}]',
  'shape.concat': 'concat: [{body}] and [{shortcut}] differ beyond dim 0',
  'shape.concat0d': 'concat: the body and the shortcut give 0-d tensors, which have no dim 0 to join along',
  'shape.tooMany': 'more than {max} layers',
  'shape.tooManyExpanded': 'more than {max} layers after expanding repeats',
  'shape.tooLarge': 'output [{shape}] is too large',
  'shape.input': 'input shape must be positive integers, got [{got}]',
  /** a shape problem placed at the layer it happened in */
  'shape.at': "layer '{path}' ({kind}): {detail}",
  // the JSON layer list (validate.ts); {path} is the JSON path, e.g. layers[4].kernel
  'layer.notObject': '{path}: expected a layer object',
  'layer.kind': '{path}.kind: unknown layer kind {kind}',
  'layer.missing': '{path}: required for {kind}',
  'layer.field': '{path}: not a field of {kind}',
  'layer.depth': '{path}: nested more than {max} levels',
  'layer.value.int': '{path}: expected a positive integer',
  'layer.value.int0': '{path}: expected a non-negative integer',
  'layer.value.pair': '{path}: expected a positive integer or [h, w]',
  'layer.value.pair0': '{path}: expected a non-negative integer or [h, w]',
  'layer.value.bool': '{path}: expected true or false',
  'layer.value.p': '{path}: expected a number in [0, 1)',
  'layer.value.shape': '{path}: expected a list of positive integers',
  'layer.value.act': "{path}: expected 'relu' or 'gelu'",
  'layer.value.merge': "{path}: expected 'add' or 'concat'",
  'layer.value.name': '{path}: expected a name of letters, digits, _ - # (at most 200)',
  'layer.value.layers': '{path}: expected a list of layers',
  'network.notObject': 'expected a layer list or {"input": [...], "layers": [...]}',
  'network.input': 'input: expected a per-sample shape such as [3, 224, 224]',
  'network.layers': 'layers: expected a non-empty list of layers',
  'network.json': 'not valid JSON: {detail}',
  // options (estimate.ts)
  'batch.range': 'batch must be an integer from 1 to {max}',
} as const;

export type LayerProblemCode = keyof typeof LAYER_PROBLEMS;

import type { FieldError } from '../types';
import { fillTemplate } from '../template';

export type ProblemParams = Record<string, string | number>;

/** A problem: its code, its parameters, and (for `shape.at`) the problem inside the layer. */
export interface LayerProblem {
  code: LayerProblemCode;
  params: ProblemParams;
  /** the shape problem a `shape.at` problem places at a layer */
  inner?: LayerProblem;
}

/** A problem in words, through `wording` (English by default); `shape.at` fills `{detail}` with its inner problem. */
export function problemText(p: LayerProblem, wording: (code: LayerProblemCode) => string = (c) => LAYER_PROBLEMS[c]): string {
  const params = p.inner ? { ...p.params, detail: problemText(p.inner, wording) } : p.params;
  return fillTemplate(wording(p.code), params);
}

/** A problem and its English text, e.g. for FieldError's `message`. */
export const problem = (code: LayerProblemCode, params: ProblemParams = {}, inner?: LayerProblem): LayerProblem => (inner ? { code, params, inner } : { code, params });

/** A shape `[3, 224, 224]` written as its parameters write it: `3, 224, 224`. */
export const dims = (x: readonly number[]): string => x.join(', ');

/** A field error that keeps its problem, so the page can word it in the reader's language. */
export interface LayerFieldError extends FieldError {
  problem: LayerProblem;
}

/** Validation result whose errors keep their problems; assignable to `Result<T>`. */
export type LayerResult<T> = { ok: true; value: T } | { ok: false; errors: LayerFieldError[] };

/** The field error for a problem at `key`; `code` defaults to the problem's own. */
export const layerError = (key: string, p: LayerProblem, code: string = p.code, params: ProblemParams = p.params): LayerFieldError => ({ key, code, message: problemText(p), params, problem: p });
