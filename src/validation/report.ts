/**
 * The report on every published measurement (measured-rows.ts), computed once on first use. It
 * scores the training rows and the vLLM / llama.cpp ones too, so it brings those estimators with it
 * (training/builders.ts, inference/engines.ts): the Accuracy view, the
 * validation test and the CLI use it; the calculator's bands score only the kind they show
 * (error-band.ts `scoredOfKind`), so an inference page never fetches the training chunk.
 */
import '../core/training/builders';
import '../core/inference/engines';
import { MEASURED_ROWS } from './measured-rows';
import { scoreRows, type ValidationReport } from './score';

let cached: ValidationReport | null = null;

/** The report on MEASURED_ROWS against the current estimator (memoised: ~150 estimates). */
export function validationReport(): ValidationReport {
  cached ??= scoreRows(MEASURED_ROWS);
  return cached;
}
