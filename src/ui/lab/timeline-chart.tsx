import { CartesianGrid, Legend, Line, LineChart, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { MemoryPoint } from '../../core/allocator/run-series';
import { axisUnit } from './chart-axis';

export interface TimelineChartProps {
  points: MemoryPoint[];
  /** the step shown (0 = before the first event) */
  current: number;
  /** card capacity, drawn when the run comes near it */
  capacity: number | null;
  names: { allocated: string; reserved: string; capacity: string; step: string; current: string; title: string };
  /** a number in `unit` for axis and tooltip */
  format: (v: number) => string;
}

/** Allocated vs reserved bytes per step. recharts lives only in this lazy chunk. */
export default function TimelineChart(p: TimelineChartProps) {
  const max = Math.max(p.capacity ?? 0, ...p.points.map((x) => x.reserved));
  const { unit, scale } = axisUnit(max);
  const data = p.points.map((x) => ({ step: x.step, allocated: x.allocated / scale, reserved: x.reserved / scale }));
  const fmt = (v: number) => `${p.format(v)} ${unit}`;
  return (
    <figure className="lab-chart" role="img" aria-label={p.names.title}>
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
            formatter={(v, name) => [fmt(Number(v)), String(name)]}
            labelFormatter={(l) => `${p.names.step} ${String(l as number)}`}
            contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)', color: 'var(--text)' }}
          />
          <Legend />
          <Line type="stepAfter" dataKey="reserved" name={p.names.reserved} stroke="var(--lab-reserved)" strokeWidth={2} dot={false} isAnimationActive={false} />
          <Line type="stepAfter" dataKey="allocated" name={p.names.allocated} stroke="var(--lab-allocated)" strokeWidth={2} dot={false} isAnimationActive={false} />
          <ReferenceLine x={p.current} stroke="var(--focus)" strokeDasharray="4 3" label={{ value: p.names.current, position: 'top', fill: 'var(--text)', fontSize: 12 }} />
          {p.capacity !== null && (
            <ReferenceLine
              y={p.capacity / scale}
              stroke="var(--bad)"
              strokeDasharray="6 3"
              ifOverflow="extendDomain"
              label={{ value: p.names.capacity, position: 'insideTopLeft', fill: 'var(--bad)', fontSize: 12 }}
            />
          )}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
