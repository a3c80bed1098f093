/**
 * The Accuracy view's rows: the validation report (src/validation, the same code the test
 * suite runs) flattened for the table, chart and filters. Pure: no React, no DOM.
 */
import { kindKeys } from '../../validation/error-band';
import { sourceLabel } from '../../validation/mapping';
import { errorStats, groupOf, signedBy, signedStats, statsBy, type ErrorStats, type SignedStats, type ValidationReport } from '../../validation/score';
import type { Message, Mode } from '../../core/types';

export interface AccuracyRow {
  id: string;
  source: string;
  /** the full citation of the publication */
  citation: string;
  /** how the figure was taken, as the fixture notes it */
  note: string;
  model: string;
  /** scenario mode the row maps to */
  mode: Mode;
  /** the mode as the publication names it */
  setting: string;
  precision: string;
  batch: number | null;
  seqIn: number | null;
  seqOut: number | null;
  gpus: number;
  what: 'allocated' | 'device';
  measured: number;
  predicted: number;
  errPct: number;
  /** e.g. "inference/transformers/float" */
  kind: string;
}

export interface SkippedView {
  id: string;
  source: string;
  citation: string;
  model: string;
  setting: string;
  precision: string;
  reason: Message;
}

export interface Filters {
  source: string;
  mode: string;
  model: string;
}

/** Value of a filter that lets every row through. */
export const ALL = '';

export interface AccuracyData {
  rows: AccuracyRow[];
  skipped: SkippedView[];
  /** stats per scenario kind, then per publication / setting, then over all rows */
  byKind: [string, ErrorStats][];
  byGroup: [string, ErrorStats][];
  all: ErrorStats | null;
  /** the signed side (over / under) of the same sets, by kind key, by group and over all rows */
  signedByKind: Map<string, SignedStats>;
  signedByGroup: Map<string, SignedStats>;
  signedAll: SignedStats | null;
  /** distinct values for the filters, in first-seen order */
  sources: string[];
  models: string[];
  /** distinct publications (citations without their section), in first-seen order */
  citations: string[];
}

const distinct = (xs: string[]) => [...new Set(xs)];

/** Flattens a validation report for the view. */
export function accuracyData(report: ValidationReport): AccuracyData {
  const rows: AccuracyRow[] = report.scored.map((s) => {
    const r = s.row;
    return {
      id: r.id,
      source: s.mapped.source,
      citation: r.source,
      note: r.notes ?? '',
      model: r.model,
      mode: s.mapped.scenario.mode,
      setting: r.mode,
      precision: r.precision,
      batch: r.batch,
      seqIn: r.seq_in,
      seqOut: r.seq_out,
      gpus: s.mapped.sumGpus,
      what: s.mapped.total,
      measured: s.mapped.measured,
      predicted: s.predicted,
      errPct: s.errPct,
      kind: kindKeys(s.mapped.scenario)[1],
    };
  });
  const skipped: SkippedView[] = report.skipped.map(({ row: r, reason }) => ({
    id: r.id,
    source: sourceLabel(r),
    citation: r.source,
    model: r.model,
    setting: r.mode,
    precision: r.precision,
    reason,
  }));
  return {
    rows,
    skipped,
    byKind: statsBy(report.scored, (s) => kindKeys(s.mapped.scenario)[1]),
    byGroup: statsBy(report.scored, groupOf),
    all: errorStats(report.scored.map((s) => s.errPct)),
    signedByKind: signedBy(report.scored, (s) => kindKeys(s.mapped.scenario)[1]),
    signedByGroup: signedBy(report.scored, groupOf),
    signedAll: signedStats(report.scored.map((s) => s.errPct)),
    sources: distinct([...rows, ...skipped].map((r) => r.source)),
    models: distinct(rows.map((r) => r.model)),
    citations: distinct([...report.scored, ...report.skipped].map((s) => s.row.source.replace(/, sections? ".*$/, ''))),
  };
}

/** Rows passing every chosen filter (ALL passes everything). */
export function filterRows(rows: readonly AccuracyRow[], f: Filters): AccuracyRow[] {
  return rows.filter((r) => (f.source === ALL || r.source === f.source) && (f.mode === ALL || r.mode === f.mode) && (f.model === ALL || r.model === f.model));
}
