import { useMemo } from 'react';
import type { TermId } from '../../core/types';
import { TERM_COLOR } from '../calculator/term-colors';

/** One entry of a chart's legend: the series' colour and its name. `line`: drawn as a dashed line, not an area. */
export interface LegendItem {
  key: string;
  name: string;
  color: string;
  line?: boolean;
}

/**
 * The legend under a chart, shared by the term, sweep and timeline charts: the series' colour on
 * the swatch only, the name in the page's text colour (≥ 4.5:1 on either theme). It is laid out by
 * the page, so on a phone it wraps onto more lines and pushes the plot up; recharts' own legend was
 * measured once and drew over the top of the plot at 390 px. Hidden from screen readers: the
 * figure's label names the chart.
 */
export function ChartLegend({ items }: { items: readonly LegendItem[] }) {
  return (
    <ul className="chart-legend" aria-hidden="true">
      {items.map((it) => (
        <li key={it.key}>
          <span className={it.line ? 'swatch swatch-line' : 'swatch'} style={it.line ? { borderColor: it.color } : { background: it.color }} />
          {it.name}
        </li>
      ))}
    </ul>
  );
}

/** The legend items of the memory terms, in their stacking order and colours (term and sweep charts). */
export function useTermLegend(terms: readonly TermId[], termName: (id: TermId) => string): LegendItem[] {
  return useMemo(() => terms.map((id) => ({ key: id, name: termName(id), color: TERM_COLOR[id] })), [terms, termName]);
}
