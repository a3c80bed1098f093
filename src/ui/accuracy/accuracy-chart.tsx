/**
 * Estimate against measurement, one dot per row on log–log axes, one colour per publication,
 * with the y = x diagonal. Default export: its own chunk, so recharts loads only with the chart.
 */
import { CartesianGrid, ReferenceLine, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis } from 'recharts';
import { useApp } from '../../state/store';
import { ChartLegend } from '../charts/chart-legend';
import { formatNumber, signedPct } from '../i18n/format';
import { UNIT_BYTES } from '../../core/units';
import type { AccuracyRow } from './accuracy-data';
import { useAT } from './accuracy-i18n';

/** Distinct hues readable on the light and the dark panel. */
const PALETTE = ['#3b82f6', '#e8772e', '#22a06b', '#b455d6', '#d1453b', '#8a8f2a'];

/** 1-2-5 steps from 0.01 to 10^5 inside [lo, hi]: readable ticks for a log axis. */
function logTicks(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = -2; e <= 5; e++)
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** e;
      if (v >= lo && v <= hi) out.push(v);
    }
  return out;
}

export default function AccuracyChart({ rows, sources }: { rows: AccuracyRow[]; sources: string[] }) {
  const t = useAT();
  const unit = useApp((s) => s.unit);
  const u = UNIT_BYTES[unit];
  const pts = rows.map((r) => ({ x: r.measured / u, y: r.predicted / u, id: r.id, model: r.model, err: r.errPct, source: r.source }));
  const vals = pts.flatMap((p) => [p.x, p.y]);
  const lo = vals.length ? Math.min(...vals) / 1.3 : 0.1;
  const hi = vals.length ? Math.max(...vals) * 1.3 : 100;
  const fmt = (v: number) => formatNumber(v, t.lang, v < 1 ? 2 : v < 10 ? 1 : 0);
  const ticks = logTicks(lo, hi);
  return (
    <figure className="chart-box acc-chart" aria-label={t('chart.title')} role="img">
      <figcaption className="field-help">{t('chart.help')}</figcaption>
      <ResponsiveContainer width="100%" height={380}>
        <ScatterChart margin={{ top: 12, right: 20, bottom: 24, left: 12 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
          <XAxis
            dataKey="x"
            type="number"
            scale="log"
            domain={[lo, hi]}
            ticks={ticks}
            tickFormatter={fmt}
            stroke="var(--muted)"
            allowDataOverflow
            label={{ value: `${t('chart.x')} (${unit})`, position: 'insideBottom', offset: -12, fill: 'var(--muted)' }}
          />
          <YAxis
            dataKey="y"
            type="number"
            scale="log"
            domain={[lo, hi]}
            ticks={ticks}
            tickFormatter={fmt}
            stroke="var(--muted)"
            allowDataOverflow
            label={{ value: `${t('chart.y')} (${unit})`, angle: -90, position: 'insideLeft', fill: 'var(--muted)' }}
          />
          <ReferenceLine
            segment={[
              { x: lo, y: lo },
              { x: hi, y: hi },
            ]}
            stroke="var(--muted)"
            strokeDasharray="6 3"
            ifOverflow="hidden"
            label={{ value: t('chart.diag'), position: 'insideTopLeft', fill: 'var(--muted)', fontSize: 12 }}
          />
          <Tooltip
            cursor={{ strokeDasharray: '3 3' }}
            contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)', color: 'var(--text)' }}
            content={({ active, payload }) => {
              const p = active && (payload?.[0]?.payload as (typeof pts)[number] | undefined);
              if (!p) return null;
              return (
                <div className="acc-tip">
                  <strong>{p.id}</strong> {p.model}
                  <br />
                  {t('chart.x')}: {fmt(p.x)} {unit} · {t('chart.y')}: {fmt(p.y)} {unit} · {signedPct(p.err, t.lang)}
                </div>
              );
            }}
          />
          {sources.map((s, i) => (
            <Scatter key={s} name={s} data={pts.filter((p) => p.source === s)} fill={PALETTE[i % PALETTE.length]} isAnimationActive={false} />
          ))}
        </ScatterChart>
      </ResponsiveContainer>
      <ChartLegend items={sources.map((s, i) => ({ key: s, name: s, color: PALETTE[i % PALETTE.length] }))} />
    </figure>
  );
}
