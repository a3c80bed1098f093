/**
 * The training estimator as a slot that builders.ts fills when it is loaded. estimate() asks the
 * slot, so a page that shows inference scenarios never fetches the training terms (activations,
 * loss, optimizer states, ZeRO buffers...): the page loads builders.ts when a scenario is in
 * training mode or the training tab is approached (ui/calculator/estimator-loader.ts); the CLI
 * imports it up front, and so does the test setup.
 */
import type { Built, Ctx } from '../estimate-context';
import { lazySlot } from '../lazy-slot';

/** The builders of a training scenario: one GPU (or ZeRO / tensor parallel), and layers split across GPUs. */
export interface TrainingBuilders {
  build: (ctx: Ctx) => Built;
  split: (ctx: Ctx) => Built;
}

const slot = lazySlot<TrainingBuilders>();

/** Called by builders.ts as it loads. */
export const provideTraining = slot.provide;

/** The builders, or null while builders.ts has not been loaded. */
export const trainingBuilders = slot.get;
