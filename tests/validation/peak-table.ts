/**
 * How the validation tests of our own GPU runs print what they score: one table row per run
 * (measured vs ours, allocated and reserved) and one line of error statistics per check.
 */
import { errorStats, type ErrorStats } from '../../src/validation/score';

const GiB = 2 ** 30;

/** A run scored on its peaks, with the columns that name it (e.g. "model | prompt"). */
export interface PeakRow {
  id: string;
  label: string;
  measured: { allocated: number; reserved: number };
  predictedAllocated: number;
  predictedReserved: number;
  allocatedErrPct: number;
  reservedErrPct: number;
}

/** The table, headed by `columns` (the label's column names). */
export function peakTable(columns: string, rows: readonly PeakRow[]): string {
  const gib = (b: number) => (b / GiB).toFixed(2);
  return (
    `row | ${columns} | allocated measured / ours GiB | err % | reserved measured / ours GiB | err %\n` +
    rows
      .map(
        (s) =>
          `${s.id} | ${s.label} | ${gib(s.measured.allocated)} / ${gib(s.predictedAllocated)} | ${s.allocatedErrPct.toFixed(1)} | ${gib(s.measured.reserved)} / ${gib(s.predictedReserved)} | ${s.reservedErrPct.toFixed(1)}`,
      )
      .join('\n')
  );
}

/** Median and p90 of |error| over `errs`, printed as "label: n …, median … %, p90 … %". */
export function loggedStats(label: string, errs: readonly number[]): ErrorStats {
  const st = errorStats(errs);
  if (!st) throw new Error(`${label}: no rows`);
  console.log(`${label}: n ${st.n}, median ${st.medianPct.toFixed(2)} %, p90 ${st.p90Pct.toFixed(2)} %`);
  return st;
}
