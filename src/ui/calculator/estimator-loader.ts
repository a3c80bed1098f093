/**
 * Four parts of the estimator arrive in chunks of their own, fetched when first needed: the
 * image-generation one (core/diffusion/build.ts with its parameter and activation models) when an
 * image model is shown or approached, the training one (core/training/builders.ts: activations,
 * loss, optimizer states, ZeRO buffers) when a scenario is in training mode or the training tab is
 * approached, the runtime of the remote-code chat models (core/inference/remote-runtime.ts) when
 * one is estimated for inference on transformers, and the vLLM and llama.cpp estimators
 * (core/inference/engines.ts) when a scenario runs on one. Until one is in, estimate() answers its
 * scenarios with a loading error ('diffusion.loading' / 'training.loading' / 'remote.loading' /
 * 'engines.loading', shown as a loading note, never a number); when it arrives, every scenario is
 * replaced by an equal copy so that everything memoised on a scenario object (estimateOf, the replay
 * and settled caches) computes again and re-renders.
 */
import type { Result, Scenario } from '../../core/types';
import { useApp } from '../../state/store';
import { isDiffusionModel } from '../../core/diffusion/presets';
import { diffusionEstimator } from '../../core/diffusion/provider';
import { trainingBuilders } from '../../core/training/provider';
import { followsOwnFile, remoteModule } from '../../core/inference/remote-provider';
import { engineBuilders } from '../../core/inference/engine-provider';
import { findPreset } from '../../core/model/presets';
import type { MessageKey } from '../i18n/en';

interface Part {
  /** the chunk that fills core's slot */
  chunk: () => Promise<unknown>;
  /** core's slot: null until the chunk is in, by whichever path it arrived */
  ready: () => unknown;
  /** the error code estimate() answers with meanwhile, and the note shown instead */
  code: string;
  note: MessageKey;
}

/** Every part, once: its chunk, its slot, its loading answer and note. */
const PARTS = {
  diffusion: { chunk: () => import('../../core/diffusion/build'), ready: diffusionEstimator, code: 'diffusion.loading', note: 'verdict.loading' },
  training: { chunk: () => import('../../core/training/builders'), ready: trainingBuilders, code: 'training.loading', note: 'verdict.loadingTraining' },
  remote: { chunk: () => import('../../core/inference/remote-runtime'), ready: remoteModule, code: 'remote.loading', note: 'verdict.loadingRemote' },
  engines: { chunk: () => import('../../core/inference/engines'), ready: engineBuilders, code: 'engines.loading', note: 'verdict.loadingEngine' },
} satisfies Record<string, Part>;

export type EstimatorPart = keyof typeof PARTS;

const PART_NAMES = Object.keys(PARTS) as EstimatorPart[];

/** The part a loading answer waits for, or undefined for any other answer. */
const loadingOf = (r: Result<unknown>): EstimatorPart | undefined => (!r.ok && r.errors.length === 1 ? PART_NAMES.find((p) => PARTS[p].code === r.errors[0].code) : undefined);

const loading = new Map<EstimatorPart, Promise<void>>();

/** Fetch an estimator (once; a failed fetch, offline, is tried again at the next ask). */
export function loadEstimator(part: EstimatorPart): Promise<void> {
  let p = loading.get(part);
  if (!p) {
    p = PARTS[part].chunk().then(
      () => useApp.setState((st) => ({ scenarios: st.scenarios.map((s) => ({ ...s })) })),
      (e: unknown) => {
        loading.delete(part);
        throw e;
      },
    );
    loading.set(part, p);
  }
  return p;
}

/** Start fetching an estimator without waiting for it (a failure is asked again when it is needed). */
export const preloadEstimator = (part: EstimatorPart): void => void loadEstimator(part).catch(() => undefined);

/** The estimator a scenario needs beyond the entry's (inference of language models), if any. */
function partOf(s: Scenario): EstimatorPart | null {
  if (isDiffusionModel(s.model)) return 'diffusion';
  if (s.mode === 'training') return 'training';
  if (s.engine !== 'transformers') return 'engines';
  const family = s.arch?.family ?? findPreset(s.model)?.arch.family;
  return followsOwnFile(s, family) ? 'remote' : null;
}

/** Whether the estimator `s` needs is in (core's slots, filled as a chunk loads, by whichever path). */
export function estimatorReady(s: Scenario): boolean {
  const part = partOf(s);
  return part === null || PARTS[part].ready() !== null;
}

/** The estimators the open scenarios need (main.tsx waits for them before the first render). */
export function neededEstimators(): EstimatorPart[] {
  const parts = new Set(useApp.getState().scenarios.map(partOf));
  return PART_NAMES.filter((p) => parts.has(p));
}

/** A scenario's answer while its estimator is on the way: the note to show instead (not a failure), or null. */
export function estimatorLoading(r: Result<unknown>): MessageKey | null {
  const part = loadingOf(r);
  return part ? PARTS[part].note : null;
}

/** Fetch the estimator a loading answer waits for (the loader then renews the scenarios). */
export function loadFor(r: Result<unknown>): void {
  const part = loadingOf(r);
  if (part) preloadEstimator(part);
}
