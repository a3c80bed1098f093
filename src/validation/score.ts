/**
 * Scoring of our estimate against published measurements: per-row signed % error, and the
 * median / p90 of the absolute error per group. The validation test prints these numbers and
 * the page's Accuracy view shows them, from this one module. Pure: no DOM, no Node APIs.
 */
import { estimate } from '../core/estimate';
import type { Estimate } from '../core/types';
import { mapRow, type Mapped, type Row, type SkipReason } from './mapping';

export interface ScoredRow {
  row: Row;
  mapped: Mapped;
  /** our figure for the measured total, bytes */
  predicted: number;
  /** signed error, 100 · (predicted − measured) / measured */
  errPct: number;
}

export interface SkippedRow {
  row: Row;
  reason: SkipReason;
}

export interface ValidationReport {
  scored: ScoredRow[];
  skipped: SkippedRow[];
}

export interface ErrorStats {
  n: number;
  /** median of |error| in % */
  medianPct: number;
  /** 90th percentile of |error| in % */
  p90Pct: number;
}

/**
 * Nearest-rank quantile (the smallest value with at least q of the sample at or below it):
 * element ⌈q·n⌉ of the sorted sample, 1-based. Median of [1,2,3,4] is 2, p90 of 1..10 is 9.
 * NaN for an empty sample.
 */
export function quantile(xs: readonly number[], q: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
  return s[i];
}

/** 100·(predicted − measured)/measured: positive when the estimate is above the measurement. */
export const signedErrPct = (predicted: number, measured: number): number => (100 * (predicted - measured)) / measured;

/** n, median and p90 of the absolute values of `errPcts`; null when empty. */
export function errorStats(errPcts: readonly number[]): ErrorStats | null {
  if (errPcts.length === 0) return null;
  const abs = errPcts.map(Math.abs);
  return { n: abs.length, medianPct: quantile(abs, 0.5), p90Pct: quantile(abs, 0.9) };
}

/**
 * Our figure for what the row measured. Multi-GPU layer splits publish the SUM of per-GPU
 * max_memory_allocated: the one-GPU peak plus one activation peak per further GPU (mapping.ts).
 * nvidia-smi rows: reserved plus the machine's stated CUDA context, else our device total.
 */
export function predictedBytes(e: Estimate, m: Mapped): number {
  if (m.total === 'allocated') {
    const act = e.terms.find((t) => t.id === 'activations')?.bytes ?? 0;
    return e.allocatedBytes + (m.sumGpus - 1) * act;
  }
  return m.contextBytes === null ? e.deviceBytes : e.reservedBytes + m.contextBytes;
}

/**
 * Maps and estimates every row; rows that cannot be mapped or estimated are kept with the reason.
 * A row whose estimator is a lazy chunk not yet loaded (estimate() answers 'training.loading' /
 * 'diffusion.loading', core/estimate.ts) throws: skipping it would quietly change every figure
 * drawn from the rows. Load it first (report.ts imports the training estimator; the page scores
 * a training kind only once its estimate is on screen).
 */
export function scoreRows(rows: readonly Row[]): ValidationReport {
  const scored: ScoredRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const row of rows) {
    const m = mapRow(row);
    if (!m.ok) {
      skipped.push({ row, reason: m.reason });
      continue;
    }
    const r = estimate(m.value.scenario);
    const loading = r.ok ? undefined : r.errors.find((e) => e.code.endsWith('.loading'));
    if (loading) throw new Error(`row ${row.id}: ${loading.message}; load that estimator before scoring`);
    if (!r.ok) {
      const text = `estimate error: ${r.errors.map((e) => e.message).join('; ')}`;
      skipped.push({ row, reason: { code: 'estimate', text, params: { errors: r.errors.map((e) => e.message).join('; ') } } });
      continue;
    }
    const predicted = predictedBytes(r.value, m.value);
    scored.push({ row, mapped: m.value, predicted, errPct: signedErrPct(predicted, m.value.measured) });
  }
  return { scored, skipped };
}

/** The report's group of a scored row: publication and the mode it measured, e.g. "torchtune / full". */
export const groupOf = (s: ScoredRow): string => `${s.mapped.source} / ${s.mapped.mode}`;

/** Error stats per key, groups in order of first appearance. */
export function statsBy(scored: readonly ScoredRow[], keyOf: (s: ScoredRow) => string): [string, ErrorStats][] {
  const groups = new Map<string, number[]>();
  for (const s of scored) {
    const k = keyOf(s);
    const g = groups.get(k);
    if (g) g.push(s.errPct);
    else groups.set(k, [s.errPct]);
  }
  return [...groups].map(([k, errs]) => [k, errorStats(errs)!]);
}

/** The signed side of a set of errors: over (+) or under (−) the measurement. */
export interface SignedStats {
  /** median signed error, % (negative: the estimate is too low) */
  biasPct: number;
  /** 10th and 90th percentile of the signed error, % */
  p10Pct: number;
  p90Pct: number;
}

/** Median, 10th and 90th percentile of the signed errors; null when empty. */
export function signedStats(errPcts: readonly number[]): SignedStats | null {
  if (errPcts.length === 0) return null;
  return { biasPct: quantile(errPcts, 0.5), p10Pct: quantile(errPcts, 0.1), p90Pct: quantile(errPcts, 0.9) };
}

/** Signed stats per key, keys in order of first appearance. */
export function signedBy(scored: readonly ScoredRow[], keyOf: (s: ScoredRow) => string): Map<string, SignedStats> {
  const groups = new Map<string, number[]>();
  for (const s of scored) groups.set(keyOf(s), [...(groups.get(keyOf(s)) ?? []), s.errPct]);
  return new Map([...groups].map(([k, errs]) => [k, signedStats(errs)!]));
}

/** The error table as markdown: one line per source / mode group, then ALL. */
export function errorTable(report: ValidationReport): string {
  const lines = ['group | n | median |err| % | p90 |err| %', '--- | --- | --- | ---'];
  const line = (g: string, st: ErrorStats) => `${g} | ${st.n} | ${st.medianPct.toFixed(1)} | ${st.p90Pct.toFixed(1)}`;
  for (const [g, st] of statsBy(report.scored, groupOf)) lines.push(line(g, st));
  const all = errorStats(report.scored.map((s) => s.errPct));
  if (all) lines.push(line('ALL', all));
  return lines.join('\n');
}

/** One line per skipped row: "  id: reason". */
export function skippedList(report: ValidationReport): string {
  return report.skipped.map((s) => `  ${s.row.id}: ${s.reason.text}`).join('\n');
}
