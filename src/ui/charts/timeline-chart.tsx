import { useCallback, useMemo } from 'react';
import { Area, CartesianGrid, ComposedChart, Line, ReferenceDot, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Category } from '../../core/timeline';
import { ChartLegend } from './chart-legend';
import { TOOLTIP_ITEM_STYLE, TOOLTIP_LABEL_STYLE, TOOLTIP_STYLE, useUnitLabel } from './chart-props';

/** One sample in display units: bytes by category, allocated and reserved. */
export type TimelineRow = { t: number; allocated: number; reserved: number } & Record<Category, number>;

export interface TimelineChartProps {
  rows: TimelineRow[];
  categories: readonly Category[];
  /** index in `rows` of the allocated peak */
  peak: number;
  name: (key: string) => string;
  unit: string;
  format: (v: number) => string;
  title: string;
}

const MARGIN = { top: 16, right: 16, bottom: 4, left: 8 };
const COLOR: Record<Category, string> = {
  weights: '#4e79a7',
  gradients: '#e15759',
  optimizer: '#f28e2b',
  activations: '#59a14f',
  loss: '#edc948',
  temporary: '#b07aa1',
  buffers: '#9c755f',
  kv: '#76b7b2',
};

/** Stacked area of the bytes by category over the replayed step, the reserved line and the allocated peak (lazy chunk). */
export default function TimelineChart(p: TimelineChartProps) {
  const yLabel = useUnitLabel(p.unit);
  const { name, format, unit } = p;
  const tooltipFormat = useCallback((v: unknown, key: unknown) => [`${format(Number(v))} ${unit}`, name(String(key))], [format, unit, name]);
  const legend = useMemo(
    () => [...p.categories.map((c) => ({ key: c, name: name(c), color: COLOR[c] })), { key: 'reserved', name: name('reserved'), color: 'var(--text)', line: true }],
    [p.categories, name],
  );
  const peak = p.rows[p.peak];
  const peakLabel = useMemo(() => ({ value: name('peak'), position: 'top' as const, fill: 'var(--text)', fontSize: 12 }), [name]);
  return (
    <figure className="chart-box chart-with-legend" aria-label={p.title} role="img">
      <div className="chart-plot">
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={p.rows} margin={MARGIN}>
            <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
            <XAxis dataKey="t" stroke="var(--muted)" />
            <YAxis stroke="var(--muted)" tickFormatter={format} label={yLabel} />
            <Tooltip formatter={tooltipFormat} contentStyle={TOOLTIP_STYLE} labelStyle={TOOLTIP_LABEL_STYLE} itemStyle={TOOLTIP_ITEM_STYLE} />
            {p.categories.map((c) => (
              <Area key={c} type="stepAfter" dataKey={c} stackId="mem" stroke={COLOR[c]} fill={COLOR[c]} isAnimationActive={false} name={c} />
            ))}
            <Line type="stepAfter" dataKey="reserved" stroke="var(--text)" strokeDasharray="6 3" dot={false} isAnimationActive={false} name="reserved" />
            {peak && <ReferenceDot x={peak.t} y={peak.allocated} r={5} fill="var(--bad)" stroke="none" label={peakLabel} />}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
      <ChartLegend items={legend} />
    </figure>
  );
}
