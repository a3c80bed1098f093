/**
 * Everything the view shows, derived from the NetState: the edited layer list, its check, the
 * estimate (src/core/layers/estimate.ts), the table tree and the largest batch per chosen GPU.
 */
import { useMemo } from 'react';
import type { LayerFieldError, LayerProblem } from '../../core/layers/problems';
import { estimatePrepared, maxBatch, prepareNetwork, type NetworkEstimate, type Prepared } from '../../core/layers/estimate';
import { findNetworkPreset } from '../../core/layers/presets';
import type { LayerSpec } from '../../core/layers/spec';
import { validateNetwork } from '../../core/layers/validate';
import type { Gpu } from '../../core/gpu-types';
import { resolveGpu } from '../../core/gpus';
import { applyEdits, addrText, type Step } from './net-edits';
import { baseOf, type NetState } from './net-url';
import { buildTree, nodeForPath, type TreeNode } from './net-tree';

export interface GpuFit {
  spec: string;
  gpu: Gpu;
  /** largest batch that fits (0 when not even batch 1); null when the network has no estimate */
  maxBatch: number | null;
  fits: boolean | null;
}

export interface NetResult {
  layers: LayerSpec[];
  /** edits whose layer no longer exists */
  skipped: string[];
  estimate: NetworkEstimate | null;
  /** the first problem: a layer's arguments or a shape that does not fit */
  error: { message: string; problem: LayerProblem; nodeId: string | null } | null;
  tree: TreeNode[];
  fits: GpuFit[];
  /** published parameter count of the preset (unedited presets only) */
  published: number | null;
}

/** `layers[4].body[1].shortcut[0].kernel` -> address text `4.1.s0` (the layer the field is in). */
function addrOfJsonPath(key: string): string | null {
  const steps: Step[] = [];
  for (const m of key.matchAll(/(layers|body|shortcut|post)\[(\d+)\]/g)) {
    steps.push({ list: m[1] === 'shortcut' ? 'shortcut' : m[1] === 'post' ? 'post' : 'body', i: Number(m[2]) });
  }
  return steps.length > 0 ? addrText(steps) : null;
}

/** The batch-independent part: edited layers, their check, the analysis (slow; reused across batches). */
interface Base {
  layers: LayerSpec[];
  skipped: string[];
  published: number | null;
  prepared: Prepared | null;
  error: NetResult['error'];
}

function prepareBase(s: NetState): Base {
  const base = baseOf(s);
  const { layers, skipped } = applyEdits(base.layers, s.edits);
  const preset = s.preset === 'custom' ? undefined : findNetworkPreset(s.preset);
  const published = preset && s.edits.length === 0 ? preset.params : null;
  const checked = validateNetwork({ input: s.input, layers });
  if (!checked.ok) {
    const e: LayerFieldError = checked.errors[0];
    return { layers, skipped, published, prepared: null, error: { message: e.message, problem: e.problem, nodeId: addrOfJsonPath(e.key) } };
  }
  const prepared = prepareNetwork(checked.value, s.precision);
  if (!prepared.ok) {
    const e = prepared.errors[0];
    const node = nodeForPath(buildTree(layers, null), String(e.params?.path ?? ''));
    return { layers, skipped, published, prepared: null, error: { message: e.message, problem: e.problem, nodeId: node?.id ?? null } };
  }
  return { layers, skipped, published, prepared: prepared.value, error: null };
}

const optionsOf = (s: NetState) => ({ mode: s.mode, precision: s.precision, optimizer: s.optimizer, gradCkpt: s.ckpt ? 'full' : 'none' }) as const;

/** Largest batch per chosen GPU (independent of the batch being looked at). */
function fitsOf(b: Base, s: NetState): Omit<GpuFit, 'fits'>[] {
  return s.gpus.flatMap((spec) => {
    const gpu = resolveGpu(spec);
    if (!gpu) return [];
    return [{ spec, gpu, maxBatch: b.prepared ? maxBatch(b.prepared, optionsOf(s), gpu.capacityBytes) : null }];
  });
}

function resultOf(b: Base, s: NetState, fits: Omit<GpuFit, 'fits'>[]): NetResult {
  const estimate = b.prepared ? estimatePrepared(b.prepared, { ...optionsOf(s), batch: s.batch }) : null;
  return {
    layers: b.layers,
    skipped: b.skipped,
    estimate,
    error: b.error,
    published: b.published,
    tree: buildTree(b.layers, estimate?.layers ?? null),
    // device bytes grow with the batch (the premise of maxBatch), so it fits iff batch ≤ the largest batch
    fits: fits.map((f) => ({ ...f, fits: f.maxBatch === null ? null : s.batch <= f.maxBatch })),
  };
}

/** Derive the view's figures; never throws. */
export function computeNet(s: NetState): NetResult {
  const b = prepareBase(s);
  return resultOf(b, s, fitsOf(b, s));
}

/** computeNet, memoised in three stages so moving the batch slider redoes only the cheap last one. */
export function useNetwork(s: NetState): NetResult {
  /* eslint-disable react-hooks/exhaustive-deps -- each stage lists the fields of s it reads, so a change elsewhere in s does not redo it */
  const b = useMemo(() => prepareBase(s), [s.preset, s.custom, s.edits, s.input, s.precision]);
  const fits = useMemo(() => fitsOf(b, s), [b, s.mode, s.optimizer, s.ckpt, s.gpus]);
  return useMemo(() => resultOf(b, s, fits), [b, fits, s.batch, s.mode, s.optimizer, s.ckpt]);
  /* eslint-enable react-hooks/exhaustive-deps */
}
