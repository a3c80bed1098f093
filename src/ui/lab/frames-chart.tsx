import { Area, AreaChart, CartesianGrid, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FrameSeries } from '../../core/allocator/frame-series';
import { axisUnit } from './chart-axis';

export interface FramesChartProps {
  series: FrameSeries;
  /** series names and colours, in the order of series.groups */
  names: string[];
  colours: string[];
  current: number;
  step: string;
  currentName: string;
  format: (v: number) => string;
}

/** Active bytes stacked by top stack frame; the legend is the table beside it (run-views.tsx). */
export default function FramesChart(p: FramesChartProps) {
  const max = Math.max(0, ...p.series.points.map((x) => x.bytes.reduce((a, b) => a + b, 0)));
  const { unit, scale } = axisUnit(max);
  const data = p.series.points.map((x) => {
    const row: Record<string, number> = { step: x.step };
    x.bytes.forEach((b, g) => (row[`g${g}`] = b / scale));
    return row;
  });
  return (
    <ResponsiveContainer width="100%" height="100%">
      <AreaChart data={data} margin={{ top: 20, right: 36, bottom: 4, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis
          dataKey="step"
          type="number"
          domain={['dataMin', 'dataMax']}
          allowDecimals={false}
          stroke="var(--muted)"
          label={{ value: p.step, position: 'insideBottomRight', offset: -2, fill: 'var(--muted)' }}
        />
        <YAxis stroke="var(--muted)" width={64} tickFormatter={(v: number) => p.format(v)} label={{ value: unit, angle: -90, position: 'insideLeft', fill: 'var(--muted)' }} />
        <Tooltip
          formatter={(v, name) => [`${p.format(Number(v))} ${unit}`, String(name)]}
          labelFormatter={(l) => `${p.step} ${String(l as number)}`}
          contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)', color: 'var(--text)' }}
        />
        {p.names.map((name, g) => (
          <Area key={g} type="stepAfter" dataKey={`g${g}`} name={name} stackId="active" stroke={p.colours[g]} fill={p.colours[g]} fillOpacity={0.75} isAnimationActive={false} />
        ))}
        <ReferenceLine x={p.current} stroke="var(--focus)" strokeDasharray="4 3" label={{ value: p.currentName, position: 'top', fill: 'var(--text)', fontSize: 12 }} />
      </AreaChart>
    </ResponsiveContainer>
  );
}
