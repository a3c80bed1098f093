/**
 * The view's two charts, in their own lazy chunk with recharts: activation bytes per block
 * ("where the memory goes") and the stacked total against the chosen GPUs' capacities.
 */
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TermId } from '../../core/types';
import { useApp } from '../../state/store';
import { TermChart } from '../charts/term-chart';
import { barsOf } from '../charts/chart-data';
import { gpuName } from '../calculator/gpu-list';
import { translate } from '../i18n';
import { formatNumber } from '../i18n/format';
import { UNIT_BYTES } from '../../core/units';
import { useLT } from './layers-i18n';
import { chartUnits } from './net-tree';
import { nodeName } from './net-format';
import { TERM_COLOR } from '../calculator/term-colors';
import type { NetResult } from './use-network';

const BAR_PX = 18;
/** Width of one character of the 11 px axis labels, for sizing the label column. */
const CHAR_PX = 6.6;

export default function LayerCharts({ r, training, batch }: { r: NetResult; training: boolean; batch: number }) {
  const t = useLT();
  const unit = useApp((s) => s.unit);
  const e = r.estimate;
  if (!e) return null;
  const ub = UNIT_BYTES[unit];
  const fmt = (v: number) => formatNumber(v, t.lang, v < 10 ? 2 : 1);
  const units = chartUnits(r.tree).map((n) => ({
    label: n.path || nodeName(n, t),
    value: (training ? n.totals.saved : n.totals.output) / ub,
  }));
  const labelWidth = Math.min(300, Math.max(60, Math.max(...units.map((u) => u.label.length)) * CHAR_PX + 12));
  const { rows, terms } = barsOf([{ label: t('chart.bar', { b: formatNumber(batch, t.lang) }), est: e }], ub);
  const lines = r.fits.map((f) => ({ label: gpuName(f), value: f.gpu.capacityBytes / ub }));
  return (
    <div className="net-charts">
      <section className="panel">
        <h2>{t('chart.layers')}</h2>
        <p className="field-help">{t('chart.layersHelp')}</p>
        <figure className="net-unit-chart" style={{ height: `${Math.max(160, units.length * BAR_PX + 50)}px` }} role="img" aria-label={t('chart.layers')}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={units} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 8 }}>
              <CartesianGrid strokeDasharray="3 3" stroke="var(--border)" />
              <XAxis type="number" stroke="var(--muted)" tickFormatter={fmt} unit={` ${unit}`} />
              <YAxis type="category" dataKey="label" width={labelWidth} stroke="var(--muted)" interval={0} tick={{ fontSize: 11 }} />
              <Tooltip
                formatter={(v) => [`${fmt(Number(v))} ${unit}`, t(training ? 'table.saved' : 'table.output')]}
                contentStyle={{ background: 'var(--panel)', border: '1px solid var(--border)' }}
              />
              <Bar dataKey="value" fill={TERM_COLOR.activations} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      </section>
      <section className="panel">
        <h2>{t('chart.total')}</h2>
        <TermChart rows={rows} terms={terms} lines={lines} unit={unit} format={fmt} title={t('chart.total')} termName={(id: TermId) => translate(t.lang, `term.${id}`)} />
      </section>
    </div>
  );
}
