/**
 * The Layer builder's state and its compact form in the link, under `net.*` keys. The page's one
 * codec (src/state/url-codec.ts) reads, migrates and escapes them; this file says what each means:
 *   net.p   preset id, or `custom` with the base list in net.l (terse text, core/layers/text.ts)
 *   net.e   edits on top of the base (net-edits.ts text form)
 *   net.in  input shape `3x224x224` when not the base's own
 *   net.b   batch · net.m mode · net.pr precision · net.o optimizer · net.ck=1 checkpointing
 *   net.g   compared GPUs: catalogue ids or capacities (`24gib`)
 * Defaults are left out, so a ResNet-50 link is the preset id plus what was changed.
 */
import type { Mode, Optimizer, Precision } from '../../core/types';
import { NETWORK_PRESETS, findNetworkPreset } from '../../core/layers/presets';
import type { LayerSpec } from '../../core/layers/spec';
import { layerText, parseLayerText } from '../../core/layers/text';
import { MAX_BATCH } from '../../core/layers/estimate';
import { OPTIMIZERS, PRECISIONS } from '../../core/scenario/schema';
import { resolveGpu } from '../../core/gpus';
import type { Pairs } from '../../state/url-query';
import { editsText, parseEdits, type EditOp } from './net-edits';

export interface NetState {
  /** preset id, or 'custom' (base = `custom`) */
  preset: string;
  /** the base list when preset is 'custom' (imported or pasted) */
  custom: { layers: LayerSpec[]; input: number[] } | null;
  edits: EditOp[];
  input: number[];
  batch: number;
  mode: Mode;
  precision: Precision;
  optimizer: Optimizer;
  ckpt: boolean;
  gpus: string[];
}

export const DEFAULT_PRESET = 'resnet-50';
const DEFAULT_GPUS = ['rtx-4090', 'a100-80gb-sxm4'];
/** Longest layer list (text characters) a link carries; the url-codec drops values over 8192. */
const MAX_LIST_CHARS = 6000;
/** Most GPUs compared at once (the url-codec reads at most 8 `compare` entries too). */
export const MAX_GPUS = 8;

/** The starting state for a preset (its own input shape). */
export function presetState(id = DEFAULT_PRESET): NetState {
  const p = findNetworkPreset(id) ?? NETWORK_PRESETS[0];
  return {
    preset: p.id,
    custom: null,
    edits: [],
    input: p.build().input,
    batch: 32,
    mode: 'training',
    precision: 'fp32',
    optimizer: 'adamw',
    ckpt: false,
    gpus: [...DEFAULT_GPUS],
  };
}

/** Base layers and input of a state (preset or custom). */
export function baseOf(s: NetState): { layers: LayerSpec[]; input: number[] } {
  if (s.preset === 'custom' && s.custom) return s.custom;
  return (findNetworkPreset(s.preset) ?? NETWORK_PRESETS[0]).build();
}

export const shapeText = (shape: number[]) => shape.join('x');

/** `3x224x224` (also `3×224×224`, `3,224,224`) to a shape; null when not 1–8 positive integers. */
export function parseShape(text: string): number[] | null {
  const parts = text
    .trim()
    .replace(/^\[|\]$/g, '')
    .split(/\s*[x×,]\s*/);
  if (parts.length < 1 || parts.length > 8 || !parts.every((p) => /^\d{1,10}$/.test(p))) return null;
  const n = parts.map(Number);
  return n.every((v) => v >= 1 && v <= 2 ** 31) ? n : null;
}

/** The `net.*` pairs for a state, defaults left out. */
export function netPairs(s: NetState): Pairs {
  const d = presetState(s.preset === 'custom' ? DEFAULT_PRESET : s.preset);
  const out: Pairs = [['net.p', s.preset]];
  const list = customText(s);
  if (list !== null) out.push(['net.l', list]);
  if (s.edits.length > 0) out.push(['net.e', editsText(s.edits)]);
  // a custom list is read back for the input in the link, so the input always travels with it
  if (s.preset === 'custom' || shapeText(s.input) !== shapeText(baseOf(s).input)) out.push(['net.in', shapeText(s.input)]);
  if (s.batch !== d.batch) out.push(['net.b', String(s.batch)]);
  if (s.mode !== d.mode) out.push(['net.m', s.mode]);
  if (s.precision !== d.precision) out.push(['net.pr', s.precision]);
  if (s.optimizer !== d.optimizer) out.push(['net.o', s.optimizer]);
  if (s.ckpt) out.push(['net.ck', '1']);
  if (s.gpus.join() !== d.gpus.join()) out.push(['net.g', s.gpus.join(',')]);
  return out;
}

/** The custom list in text form (with module names when short enough), null when none or too long for a link. */
function customText(s: NetState): string | null {
  if (s.preset !== 'custom' || !s.custom) return null;
  const named = layerText(s.custom.layers);
  if (named.length <= MAX_LIST_CHARS) return named;
  const bare = layerText(s.custom.layers, false);
  return bare.length <= MAX_LIST_CHARS ? bare : null;
}

/** Whether the custom list of a state is too long to travel in a link. */
export function listTooLong(s: NetState): boolean {
  return s.preset === 'custom' && !!s.custom && customText(s) === null;
}

/**
 * State from decoded `net.*` values (as url-codec's `extra.views`). Never throws; every value
 * that could not be used is named in `ignored` and its default kept.
 */
export function readNet(views: Record<string, string>): { state: NetState; ignored: string[] } {
  const ignored: string[] = [];
  const v = (k: string) => views[`net.${k}`];
  let s = presetState();
  const p = v('p');
  const input = v('in');
  const shape = input === undefined ? null : parseShape(input);
  if (input !== undefined && !shape) ignored.push(`net.in=${input.slice(0, 30)}`);
  if (p === 'custom') {
    const r = parseLayerText(v('l') ?? '', shape ?? s.input);
    if (r.ok) s = { ...s, preset: 'custom', custom: r.value, input: r.value.input };
    else ignored.push('net.l');
  } else if (p !== undefined) {
    if (findNetworkPreset(p)) s = presetState(p);
    else ignored.push(`net.p=${p.slice(0, 30)}`);
  }
  const e = v('e');
  if (e !== undefined) {
    const { ops, bad } = parseEdits(e);
    s.edits = ops;
    ignored.push(...bad.map((b) => `net.e:${b}`));
  }
  const pick = <T extends string>(k: string, all: readonly T[], set: (x: T) => void) => {
    const x = v(k);
    if (x === undefined) return;
    if ((all as readonly string[]).includes(x)) set(x as T);
    else ignored.push(`net.${k}=${x.slice(0, 30)}`);
  };
  if (shape) s.input = shape;
  const b = v('b');
  if (b !== undefined) {
    const n = Number(b);
    if (/^\d{1,8}$/.test(b) && n >= 1 && n <= MAX_BATCH) s.batch = n;
    else ignored.push(`net.b=${b.slice(0, 30)}`);
  }
  pick<Mode>('m', ['inference', 'training'], (x) => (s.mode = x));
  pick<Precision>('pr', PRECISIONS, (x) => (s.precision = x));
  pick<Optimizer>('o', OPTIMIZERS, (x) => (s.optimizer = x));
  pick<string>('ck', ['0', '1'], (x) => (s.ckpt = x === '1'));
  const g = v('g');
  if (g !== undefined) {
    const gpus = g === '' ? [] : g.split(',').slice(0, MAX_GPUS);
    s.gpus = gpus.filter((x) => resolveGpu(x) !== undefined);
    ignored.push(...gpus.filter((x) => resolveGpu(x) === undefined).map((x) => `net.g:${x.slice(0, 30)}`));
  }
  return { state: s, ignored };
}
