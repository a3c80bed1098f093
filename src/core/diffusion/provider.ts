/**
 * The image-generation estimator as a slot that build.ts fills when it is loaded. estimate() asks
 * the slot, so a page that shows language models never fetches the pipelines' parameter and
 * activation models (the page loads build.ts when an image model is chosen:
 * ui/calculator/estimator-loader.ts); the CLI imports build.ts up front, and so does the test setup.
 */
import type { Built } from '../estimate-context';
import type { Result, Scenario } from '../types';
import type { DiffusionPreset } from './presets';

/** A pipeline's terms and peak, and its parameter count (every component). */
export interface DiffusionEstimate {
  built: Built;
  params: number;
}

export type DiffusionEstimator = (s: Scenario, p: DiffusionPreset) => Result<DiffusionEstimate>;

let estimator: DiffusionEstimator | null = null;

/** Called by build.ts as it loads. */
export function provideDiffusion(e: DiffusionEstimator): void {
  estimator = e;
}

/** The estimator, or null while build.ts has not been loaded. */
export function diffusionEstimator(): DiffusionEstimator | null {
  return estimator;
}
