import { Bar, BarChart, CartesianGrid, Legend, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TermId } from '../../core/types';
import { TERM_COLOR } from '../calculator/term-colors';
import { axisMax, type BarRow, type CapacityLine } from './chart-data';

export interface TermChartProps {
  rows: BarRow[];
  terms: TermId[];
  lines: CapacityLine[];
  termName: (id: TermId) => string;
  unit: string;
  format: (v: number) => string;
  title: string;
}

/** Stacked bar of the terms, one bar per scenario, a dashed capacity line per chosen GPU. recharts lives only in this lazy chunk. */
export default function TermChart(p: TermChartProps) {
  const max = axisMax(p.rows, p.lines, p.terms);
  return (
    <figure className="chart-box" aria-label={p.title} role="img">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={p.rows} margin={{ top: 16, right: 16, bottom: 4, left: 8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis dataKey="label" stroke="var(--muted)" />
          <YAxis domain={[0, max]} stroke="var(--muted)" tickFormatter={(v: number) => p.format(v)} label={{ value: p.unit, angle: -90, position: 'insideLeft', fill: 'var(--muted)' }} />
          <Tooltip formatter={(v, name) => [`${p.format(Number(v))} ${p.unit}`, p.termName(name as TermId)]} contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }} />
          <Legend formatter={(id: string) => p.termName(id as TermId)} />
          {p.terms.map((id) => (
            <Bar key={id} dataKey={id} stackId="mem" fill={TERM_COLOR[id]} isAnimationActive={false} name={id} />
          ))}
          {p.lines.map((l) => (
            <ReferenceLine key={l.label} y={l.value} stroke="var(--bad)" strokeDasharray="6 3" ifOverflow="extendDomain" label={{ value: l.label, position: 'insideTopRight', fill: 'var(--text)', fontSize: 12 }} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </figure>
  );
}
