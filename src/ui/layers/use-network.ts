/**
 * Everything the view shows, derived from the NetState: the edited layer list, its check, the
 * estimate (src/core/layers/estimate.ts), the table tree and the largest batch per chosen GPU.
 */
import { useMemo } from 'react';
import type { FieldError } from '../../core/types';
import { estimatePrepared, maxBatch, prepareNetwork, type NetworkEstimate } from '../../core/layers/estimate';
import { findNetworkPreset } from '../../core/layers/presets';
import type { LayerSpec } from '../../core/layers/spec';
import { validateNetwork } from '../../core/layers/validate';
import { resolveGpu, type Gpu } from '../../core/gpus';
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
  error: { message: string; nodeId: string | null } | null;
  tree: TreeNode[];
  fits: GpuFit[];
  /** published parameter count of the preset (unedited presets only) */
  published: number | null;
}

/** `layers[4].body[1].shortcut[0].kernel` -> address text `4.1.s0` (the layer the field is in). */
export function addrOfJsonPath(key: string): string | null {
  const steps: Step[] = [];
  for (const m of key.matchAll(/(layers|body|shortcut|post)\[(\d+)\]/g)) {
    steps.push({ list: m[1] === 'shortcut' ? 'shortcut' : m[1] === 'post' ? 'post' : 'body', i: Number(m[2]) });
  }
  return steps.length > 0 ? addrText(steps) : null;
}

/** Derive the view's figures; never throws. */
export function computeNet(s: NetState): NetResult {
  const base = baseOf(s);
  const { layers, skipped } = applyEdits(base.layers, s.edits);
  const preset = s.preset === 'custom' ? undefined : findNetworkPreset(s.preset);
  const published = preset && s.edits.length === 0 ? preset.params : null;
  const gpus = s.gpus.flatMap((spec) => {
    const gpu = resolveGpu(spec);
    return gpu ? [{ spec, gpu }] : [];
  });
  const empty = { layers, skipped, estimate: null, fits: gpus.map((g) => ({ ...g, maxBatch: null, fits: null })), published };
  const checked = validateNetwork({ input: s.input, layers });
  if (!checked.ok) {
    const e: FieldError = checked.errors[0];
    return { ...empty, tree: buildTree(layers, null), error: { message: e.message, nodeId: addrOfJsonPath(e.key) } };
  }
  const prepared = prepareNetwork(checked.value, s.precision);
  if (!prepared.ok) {
    const e = prepared.errors[0];
    const tree = buildTree(layers, null);
    const node = nodeForPath(tree, String(e.params?.path ?? ''));
    return { ...empty, tree, error: { message: e.message, nodeId: node?.id ?? null } };
  }
  const opts = { mode: s.mode, precision: s.precision, optimizer: s.optimizer, gradCkpt: s.ckpt ? 'full' : 'none' } as const;
  const estimate = estimatePrepared(prepared.value, { ...opts, batch: s.batch });
  const fits: GpuFit[] = gpus.map(({ spec, gpu }) => ({
    spec, gpu, maxBatch: maxBatch(prepared.value, opts, gpu.capacityBytes), fits: estimate.deviceBytes <= gpu.capacityBytes,
  }));
  return { layers, skipped, estimate, error: null, tree: buildTree(layers, estimate.layers), fits, published };
}

/** computeNet, memoised on the state's parts. */
export function useNetwork(s: NetState): NetResult {
  return useMemo(
    () => computeNet(s),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [s.preset, s.custom, s.edits, s.input, s.batch, s.mode, s.precision, s.optimizer, s.ckpt, s.gpus],
  );
}
