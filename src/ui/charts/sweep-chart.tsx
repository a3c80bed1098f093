import { useCallback, useMemo } from 'react';
import { Area, AreaChart, CartesianGrid, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TermId } from '../../core/types';
import { TERM_COLOR } from '../calculator/term-colors';
import type { CapacityLine, SweepRow } from './chart-data';
import { ChartLegend, useTermLegend } from './chart-legend';
import { TOOLTIP_ITEM_STYLE, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE, useLineLabels, useUnitLabel } from './chart-props';

export interface SweepChartProps {
  rows: SweepRow[];
  terms: TermId[];
  lines: CapacityLine[];
  /** the value axis (sweepAxis): its top, round ticks, and the swept values whose total runs past the top */
  axis: { max: number; ticks: number[]; clipped: number[] };
  /** largest swept value that fits the first GPU (null: none chosen or none fits) */
  best: { x: number; label: string } | null;
  xLabel: string;
  unit: string;
  termName: (id: TermId) => string;
  format: (v: number) => string;
  formatX: (v: number) => string;
  title: string;
}

const MARGIN = { top: 16, right: 16, bottom: 16, left: 8 };

/**
 * Stacked memory against batch size or context length (log axis), capacity lines, best fit marked.
 * The value axis stops near the chosen capacities; a red dot on the top edge marks each point above it.
 * Props handed to recharts keep their identity while their inputs stand (see chart-props.tsx).
 */
export default function SweepChart(p: SweepChartProps) {
  const { rows, terms, lines, axis, best, xLabel, unit, termName, format, formatX } = p;
  const { xs, xDomain } = useMemo(() => {
    const x = rows.map((r) => r.x);
    return { xs: x, xDomain: [Math.min(...x), Math.max(...x)] };
  }, [rows]);
  const yDomain = useMemo(() => [0, axis.max], [axis.max]);
  const xAxisLabel = useMemo(() => ({ value: xLabel, position: 'insideBottom' as const, offset: -8, fill: 'var(--muted)' }), [xLabel]);
  const yLabel = useUnitLabel(unit);
  const tooltipLabel = useCallback((x: unknown) => `${xLabel}: ${formatX(Number(x))}`, [xLabel, formatX]);
  const tooltipFormat = useCallback((v: unknown, name: unknown) => [`${format(Number(v))} ${unit}`, termName(name as TermId)], [format, unit, termName]);
  const legend = useTermLegend(terms, termName);
  const lineLabels = useLineLabels(lines);
  const bestLabel = useMemo(() => best && { value: best.label, position: 'insideTopLeft' as const, fill: 'var(--ok)', fontSize: 12 }, [best]);
  return (
    <figure className="chart-box chart-with-legend" aria-label={p.title} role="img">
      <div className="chart-plot">
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={rows} margin={MARGIN} accessibilityLayer={false}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="x" type="number" scale="log" domain={xDomain} ticks={xs} tickFormatter={formatX} stroke="var(--muted)" label={xAxisLabel} allowDataOverflow />
            <YAxis domain={yDomain} ticks={axis.ticks} stroke="var(--muted)" tickFormatter={format} label={yLabel} allowDataOverflow />
            <Tooltip labelFormatter={tooltipLabel} formatter={tooltipFormat} contentStyle={TOOLTIP_STYLE} labelStyle={TOOLTIP_LABEL_STYLE} itemStyle={TOOLTIP_ITEM_STYLE} />
            {terms.map((id) => (
              <Area key={id} dataKey={id} stackId="mem" type="linear" stroke={TERM_COLOR[id]} fill={TERM_COLOR[id]} fillOpacity={0.75} isAnimationActive={false} name={id} />
            ))}
            {lines.map((l, i) => (
              <ReferenceLine key={l.label} y={l.value} stroke="var(--bad)" strokeDasharray="6 3" ifOverflow="extendDomain" label={lineLabels[i]} />
            ))}
            {axis.clipped.map((x) => (
              <ReferenceDot key={x} x={x} y={axis.max} r={5} fill="var(--bad)" stroke="var(--panel)" ifOverflow="visible" className="clipped-mark" />
            ))}
            {best && bestLabel && <ReferenceLine x={best.x} stroke="var(--ok)" strokeWidth={2} label={bestLabel} />}
          </AreaChart>
        </ResponsiveContainer>
      </div>
      <ChartLegend items={legend} />
    </figure>
  );
}
