/**
 * The published measurements shipped with the project (fixtures/measured-dev.json: the one copy,
 * read by the validation test and by the page) and their report, computed once on first use.
 */
import fixture from './fixtures/measured-dev.json';
import type { Row } from './mapping';
import { scoreRows, type ValidationReport } from './score';

/** Every published measurement, in fixture order. */
export const MEASURED_ROWS: readonly Row[] = fixture;

let cached: ValidationReport | null = null;

/** The report on MEASURED_ROWS against the current estimator (memoised: ~150 estimates). */
export function validationReport(): ValidationReport {
  cached ??= scoreRows(MEASURED_ROWS);
  return cached;
}
