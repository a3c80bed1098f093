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
  let m = tallest(rows, terms);
  for (const l of lines) m = Math.max(m, l.value);
  return m > 0 ? m * 1.08 : 1;
}

/** Steps a value axis may use: 1, 2, 2.5 or 5 times a power of ten. */
const NICE_STEPS = [1, 2, 2.5, 5, 10];

/**
 * A value axis from 0 to at least `top` with round ticks (about `count` of them, never 25.9): the
 * step is the first of 1, 2, 2.5, 5 × 10^k at or above top / count, and the axis ends on a step.
 */
export function niceAxis(top: number, count = 5): { max: number; ticks: number[] } {
  if (!(top > 0) || !Number.isFinite(top)) return { max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] };
  const raw = top / count;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = NICE_STEPS.find((m) => m * pow >= raw * (1 - 1e-9))! * pow;
  const n = Math.ceil(top / step - 1e-9);
  // rounding 0.1 + 0.2 style errors away: ticks carry at most the step's decimals
  const digits = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const ticks = Array.from({ length: n + 1 }, (_, i) => Number((i * step).toFixed(digits)));
  return { max: ticks[n], ticks };
}

/** The tallest stack of the rows (display unit). */
function tallest(rows: readonly Partial<Record<TermId, number>>[], terms: TermId[]): number {
  let m = 0;
  for (const r of rows)
    m = Math.max(
      m,
      terms.reduce((a, id) => a + (r[id] ?? 0), 0),
    );
  return m;
}

/**
 * Value axis of a sweep: bounded near the chosen capacities, so a 24 GiB card is not drawn under a
 * 1,089 GiB curve. With capacity lines, the axis stops at 1.5 × the largest capacity when the curve
 * goes above that; `clipped` lists the swept values whose total runs past the top (marked on the chart).
 */
export function sweepAxis(rows: readonly SweepRow[], lines: CapacityLine[], terms: TermId[]): { max: number; ticks: number[]; clipped: number[] } {
  const full = axisMax(rows, lines, terms);
  const cap = Math.max(0, ...lines.map((l) => l.value));
  const bound = cap > 0 && tallest(rows, terms) > 1.5 * cap ? niceAxis(1.5 * cap) : niceAxis(full);
  const clipped = rows.filter((r) => terms.reduce((a, id) => a + (r[id] ?? 0), 0) > bound.max).map((r) => r.x);
  return { ...bound, clipped };
}

/** One point of a sweep: the swept value and bytes per term (display unit). */
export type SweepRow = { x: number } & Partial<Record<TermId, number>>;

/** Sweep rows from estimates along one key; points whose estimate failed are left out. */
export function sweepRowsOf(points: { x: number; est: Estimate | null }[], unitBytes: number): { rows: SweepRow[]; terms: TermId[] } {
  const { rows, terms } = barsOf(
    points.filter((p) => p.est).map((p) => ({ label: String(p.x), est: p.est })),
    unitBytes,
  );
  return { rows: rows.map(({ label, ...rest }) => ({ x: Number(label), ...rest })), terms };
}

/** Powers of two from `lo` up to `hi` (inclusive when hi is one), always including `hi`. */
export function powersOfTwo(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let v = lo; v < hi; v *= 2) out.push(v);
  out.push(hi);
  return out;
}

/** How barSummary words its parts (the page's language and number format). */
export interface SummaryWords {
  term: (id: TermId) => string;
  /** a value in the display unit, with the unit */
  value: (v: number) => string;
  /** one bar: its label, its terms already joined, its total */
  bar: (label: string, parts: string, total: string) => string;
  /** one capacity line: the GPU and its capacity */
  line: (label: string, value: string) => string;
  /** between two terms of a bar */
  listSep: string;
}

/**
 * The term chart in words, for its accessible name: the title, then per bar every term drawn with
 * its value and the bar's total, then each capacity line, joined by a dash (read as a pause in
 * either language). A bar without terms (its estimate failed) is left out, as it is drawn empty.
 */
export function barSummary(title: string, rows: BarRow[], terms: TermId[], lines: CapacityLine[], w: SummaryWords): string {
  const bars = rows.flatMap((r) => {
    const drawn = terms.filter((id) => (r[id] ?? 0) > 0);
    if (drawn.length === 0) return [];
    const total = drawn.reduce((a, id) => a + r[id]!, 0);
    return [w.bar(r.label, drawn.map((id) => `${w.term(id)} ${w.value(r[id]!)}`).join(w.listSep), w.value(total))];
  });
  return [title, ...bars, ...lines.map((l) => w.line(l.label, w.value(l.value)))].join(' — ');
}
