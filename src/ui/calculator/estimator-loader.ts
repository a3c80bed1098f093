/**
 * The image-generation estimator (core/diffusion/build.ts with its parameter and activation
 * models) arrives in a chunk of its own, fetched when an image model is first shown or chosen: a
 * page of language models never downloads it. Until it is in, estimate() answers an image model
 * with the 'diffusion.loading' error (shown as a loading note, never a number); when it arrives,
 * every scenario is replaced by an equal copy so that everything memoised on a scenario object
 * (estimateOf, the replay and settled caches) computes again and re-renders.
 */
import type { Result } from '../../core/types';
import { useApp } from '../../state/store';
import { isDiffusionModel } from '../../core/diffusion/presets';

let loading: Promise<void> | null = null;

/** Fetch the estimator (once; a failed fetch, offline, is tried again at the next ask). */
export function loadDiffusion(): Promise<void> {
  loading ??= import('../../core/diffusion/build').then(
    () => useApp.setState((st) => ({ scenarios: st.scenarios.map((s) => ({ ...s })) })),
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/** Whether any open scenario is an image model (main.tsx then waits for the estimator before the first render). */
export const anyDiffusion = (): boolean => useApp.getState().scenarios.some((s) => isDiffusionModel(s.model));

/** An image model's answer while its estimator is on the way (shown as loading, not as a failure). */
export const estimatorLoading = (r: Result<unknown>): boolean => !r.ok && r.errors.length === 1 && r.errors[0].code === 'diffusion.loading';
