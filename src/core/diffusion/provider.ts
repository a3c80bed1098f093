/**
 * The image-generation estimator as a slot that build.ts fills when it is loaded. estimate() asks
 * the slot, so a page that shows language models never fetches the pipelines' parameter and
 * activation models (the page loads build.ts when an image model is chosen:
 * ui/calculator/estimator-loader.ts); the CLI imports build.ts up front, and so does the test setup.
 */
import type { Built } from '../estimate-context';
import { lazySlot } from '../lazy-slot';
import type { Result, Scenario } from '../types';
import type { DiffusionPreset } from './presets';

/** A pipeline's terms and peak, and its parameter count (every component). */
export interface DiffusionEstimate {
  built: Built;
  params: number;
}

export type DiffusionEstimator = (s: Scenario, p: DiffusionPreset) => Result<DiffusionEstimate>;

const slot = lazySlot<DiffusionEstimator>();

/** Called by build.ts as it loads. */
export const provideDiffusion = slot.provide;

/** The estimator, or null while build.ts has not been loaded. */
export const diffusionEstimator = slot.get;
