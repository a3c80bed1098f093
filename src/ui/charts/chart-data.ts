import type { Estimate, TermId } from '../../core/types';

/** One stacked bar: its label and bytes per term (in the display unit). */
export type BarRow = { label: string } & Partial<Record<TermId, number>>;

export interface CapacityLine {
  label: string;
  /** in the display unit */
  value: number;
}

/** Bars for the chart: one per estimate, each term's bytes divided by the unit. */
export function barsOf(cols: { label: string; est: Estimate | null }[], unitBytes: number): { rows: BarRow[]; terms: TermId[] } {
  const terms: TermId[] = [];
  const rows = cols.map(({ label, est }) => {
    const row: BarRow = { label };
    for (const term of est?.terms ?? []) {
      if (term.bytes <= 0) continue;
      if (!terms.includes(term.id)) terms.push(term.id);
      row[term.id] = (row[term.id] ?? 0) + term.bytes / unitBytes;
    }
    return row;
  });
  return { rows, terms };
}

/** Upper end of the value axis: the tallest stack (bar or sweep point) or capacity line, plus 8 % air. */
export function axisMax(rows: readonly Partial<Record<TermId, number>>[], lines: CapacityLine[], terms: TermId[]): number {
  let m = 0;
  for (const r of rows) m = Math.max(m, terms.reduce((a, id) => a + (r[id] ?? 0), 0));
  for (const l of lines) m = Math.max(m, l.value);
  return m > 0 ? m * 1.08 : 1;
}

/** One point of a sweep: the swept value and bytes per term (display unit). */
export type SweepRow = { x: number } & Partial<Record<TermId, number>>;

/** Sweep rows from estimates along one key; points whose estimate failed are left out. */
export function sweepRowsOf(points: { x: number; est: Estimate | null }[], unitBytes: number): { rows: SweepRow[]; terms: TermId[] } {
  const { rows, terms } = barsOf(points.filter((p) => p.est).map((p) => ({ label: String(p.x), est: p.est })), unitBytes);
  return { rows: rows.map(({ label, ...rest }) => ({ x: Number(label), ...rest })), terms };
}

/** Powers of two from `lo` up to `hi` (inclusive when hi is one), always including `hi`. */
export function powersOfTwo(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let v = lo; v < hi; v *= 2) out.push(v);
  out.push(hi);
  return out;
}
