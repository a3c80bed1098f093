import { useCallback, useMemo } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TermId } from '../../core/types';
import { TERM_COLOR } from '../calculator/term-colors';
import { axisMax, niceAxis, type BarRow, type CapacityLine } from './chart-data';
import { legendText, TOOLTIP_CURSOR, TOOLTIP_ITEM_STYLE, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE, useLineLabels, useUnitLabel } from './chart-props';

export interface TermChartProps {
  rows: BarRow[];
  terms: TermId[];
  lines: CapacityLine[];
  termName: (id: TermId) => string;
  unit: string;
  format: (v: number) => string;
  title: string;
}

const MARGIN = { top: 16, right: 16, bottom: 4, left: 8 };

/**
 * Stacked bar of the terms, one bar per scenario, a dashed capacity line per chosen GPU. recharts
 * lives only in this lazy chunk. Every prop handed to recharts keeps its identity while its inputs
 * stand: recharts re-registers an axis or line (a store update and another synchronous render) whenever
 * a prop object or function is new.
 */
export default function TermChart(p: TermChartProps) {
  const top = axisMax(p.rows, p.lines, p.terms);
  const { domain, ticks } = useMemo(() => {
    const a = niceAxis(top);
    return { domain: [0, a.max], ticks: a.ticks };
  }, [top]);
  const yLabel = useUnitLabel(p.unit);
  const { termName, format, unit } = p;
  const tooltipFormat = useCallback((v: unknown, name: unknown) => [`${format(Number(v))} ${unit}`, termName(name as TermId)], [format, unit, termName]);
  const legendFormat = useCallback((id: string) => legendText(termName(id as TermId)), [termName]);
  const lineLabels = useLineLabels(p.lines);
  return (
    <figure className="chart-box" aria-label={p.title} role="img">
      <ResponsiveContainer width="100%" height="100%">
        {/* the figure is one labelled image: no unlabelled keyboard stop inside it */}
        <BarChart data={p.rows} margin={MARGIN} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="label" stroke="var(--muted)" />
          <YAxis domain={domain} ticks={ticks} stroke="var(--muted)" tickFormatter={format} label={yLabel} />
          <Tooltip formatter={tooltipFormat} cursor={TOOLTIP_CURSOR} contentStyle={TOOLTIP_STYLE} labelStyle={TOOLTIP_LABEL_STYLE} itemStyle={TOOLTIP_ITEM_STYLE} />
          <Legend formatter={legendFormat} />
          {p.terms.map((id) => (
            <Bar key={id} dataKey={id} stackId="mem" fill={TERM_COLOR[id]} isAnimationActive={false} name={id} />
          ))}
          {p.lines.map((l, i) => (
            <ReferenceLine key={l.label} y={l.value} stroke="var(--bad)" strokeDasharray="6 3" ifOverflow="extendDomain" label={lineLabels[i]} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
