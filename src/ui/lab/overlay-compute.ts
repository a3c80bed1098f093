/**
 * What the lab's predicted-against-recorded overlay shows, as plain data: the calculator's step
 * timeline for its scenario (core/timeline/versus-recorded.ts predictionFor) set against the
 * imported run (predictedVsRecorded). It runs in overlay.worker.ts — an 8B LoRA with varied lengths
 * takes about half a second, far past the 50 ms the page's thread may be held — and on the page where
 * workers are missing.
 */
import { predictedVsRecorded, predictionFor, type PredictedVsRecorded, type RecordedSeries } from '../../core/timeline/versus-recorded';
import type { FieldError, Message, Scenario } from '../../core/types';

export interface OverlayRequest {
  scenario: Scenario;
  recorded: RecordedSeries;
}

/** The comparison and the prediction's notes, or why the calculator has no prediction for the scenario. */
export type OverlayResult = { ok: true; cmp: PredictedVsRecorded; notes: Message[] } | { ok: false; errors: FieldError[] };

export function computeOverlay({ scenario, recorded }: OverlayRequest): OverlayResult {
  const prediction = predictionFor(scenario);
  if (!prediction.ok) return { ok: false, errors: prediction.errors };
  return { ok: true, cmp: predictedVsRecorded(prediction.value, recorded), notes: prediction.value.notes };
}
