import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { FragmentationPoint } from '../../core/allocator/run-series';
import { axisUnit } from './chart-axis';

export interface FragmentationChartProps {
  points: FragmentationPoint[];
  /** the step shown (0 = before the first event) */
  current: number;
  names: { cached: string; largest: string; step: string; current: string };
  /** a number in the axis unit */
  format: (v: number) => string;
}

/** Reserved − allocated and the largest free block per step. recharts lives only in lazy chunks. */
export default function FragmentationChart(p: FragmentationChartProps) {
  const max = Math.max(0, ...p.points.map((x) => x.cachedFree));
  const { unit, scale } = axisUnit(max);
  const data = p.points.map((x) => ({ step: x.step, cached: x.cachedFree / scale, largest: x.largestFree / scale }));
  return (
    <ResponsiveContainer width="100%" height="100%">
      <LineChart data={data} margin={{ top: 20, right: 36, bottom: 4, left: 8 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
        <XAxis
          dataKey="step"
          type="number"
          domain={['dataMin', 'dataMax']}
          allowDecimals={false}
          stroke="var(--muted)"
          label={{ value: p.names.step, position: 'insideBottomRight', offset: -2, fill: 'var(--muted)' }}
        />
        <YAxis stroke="var(--muted)" width={64} tickFormatter={(v: number) => p.format(v)} label={{ value: unit, angle: -90, position: 'insideLeft', fill: 'var(--muted)' }} />
        <Tooltip
          formatter={(v, name) => [`${p.format(Number(v))} ${unit}`, String(name)]}
          labelFormatter={(l) => `${p.names.step} ${String(l as number)}`}
          contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)', color: 'var(--text)' }}
        />
        <Legend formatter={(v: string) => <span className="chart-legend-text">{v}</span>} />
        <Line type="stepAfter" dataKey="cached" name={p.names.cached} stroke="var(--lab-reserved)" strokeWidth={2} dot={false} isAnimationActive={false} />
        <Line type="stepAfter" dataKey="largest" name={p.names.largest} stroke="var(--lab-allocated)" strokeWidth={2} strokeDasharray="5 3" dot={false} isAnimationActive={false} />
        <ReferenceLine x={p.current} stroke="var(--focus)" strokeDasharray="4 3" label={{ value: p.names.current, position: 'top', fill: 'var(--text)', fontSize: 12 }} />
      </LineChart>
    </ResponsiveContainer>
  );
}
