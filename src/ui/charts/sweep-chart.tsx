import { Area, AreaChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TermId } from '../../core/types';
import { TERM_COLOR } from '../calculator/term-colors';
import type { CapacityLine, SweepRow } from './chart-data';

export interface SweepChartProps {
  rows: SweepRow[];
  terms: TermId[];
  lines: CapacityLine[];
  /** largest swept value that fits the first GPU (null: none chosen or none fits) */
  best: { x: number; label: string } | null;
  xLabel: string;
  unit: string;
  termName: (id: TermId) => string;
  format: (v: number) => string;
  formatX: (v: number) => string;
  title: string;
}

/** Stacked memory against batch size or context length (log axis), capacity lines, best fit marked. */
export default function SweepChart(p: SweepChartProps) {
  const xs = p.rows.map((r) => r.x);
  const max = Math.max(1, ...p.rows.map((r) => p.terms.reduce((a, id) => a + (r[id] ?? 0), 0)), ...p.lines.map((l) => l.value)) * 1.08;
  return (
    <figure className="chart-box" aria-label={p.title} role="img">
      <ResponsiveContainer width="100%" height="100%">
        <AreaChart data={p.rows} margin={{ top: 16, right: 16, bottom: 16, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="x" type="number" scale="log" domain={[Math.min(...xs), Math.max(...xs)]} ticks={xs} tickFormatter={p.formatX} stroke="var(--muted)"
            label={{ value: p.xLabel, position: 'insideBottom', offset: -8, fill: 'var(--muted)' }} allowDataOverflow />
          <YAxis domain={[0, max]} stroke="var(--muted)" tickFormatter={p.format} label={{ value: p.unit, angle: -90, position: 'insideLeft', fill: 'var(--muted)' }} />
          <Tooltip labelFormatter={(x) => `${p.xLabel}: ${p.formatX(Number(x))}`} formatter={(v, name) => [`${p.format(Number(v))} ${p.unit}`, p.termName(name as TermId)]}
            contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }} />
          <Legend verticalAlign="top" formatter={(id: string) => p.termName(id as TermId)} />
          {p.terms.map((id) => (
            <Area key={id} dataKey={id} stackId="mem" type="linear" stroke={TERM_COLOR[id]} fill={TERM_COLOR[id]} fillOpacity={0.75} isAnimationActive={false} name={id} />
          ))}
          {p.lines.map((l) => (
            <ReferenceLine key={l.label} y={l.value} stroke="var(--bad)" strokeDasharray="6 3" ifOverflow="extendDomain" label={{ value: l.label, position: 'insideTopRight', fill: 'var(--text)', fontSize: 12 }} />
          ))}
          {p.best && (
            <ReferenceLine x={p.best.x} stroke="var(--ok)" strokeWidth={2} label={{ value: p.best.label, position: 'insideTopLeft', fill: 'var(--ok)', fontSize: 12 }} />
          )}
        </AreaChart>
      </ResponsiveContainer>
    </figure>
  );
}
