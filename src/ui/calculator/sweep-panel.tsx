import { lazy, memo, Suspense, useCallback, useId, useMemo, useState } from 'react';
import { maxBatch, maxContext, sweep } from '../../core/solve';
import type { Estimate, Scenario } from '../../core/types';
import { replayDecidesReserved } from '../../core/timeline/applies';
import { powersOfTwo, sweepAxis, sweepRowsOf } from '../charts/chart-data';
import { useChartKit } from '../charts/use-chart-kit';
import { formatNumber } from '../i18n/format';
import { WhenNear } from '../shell/when-near';
import { onGpu } from './fits';
import { gpuName } from './gpu-list';

const SweepChart = memo(lazy(() => import('../charts/sweep-chart')));
type Axis = 'batch' | 'context';

function sweepOf(s: Scenario, axis: Axis) {
  const key = axis === 'batch' ? 'batch' : s.mode === 'training' ? 'seq' : 'prompt';
  const values = axis === 'batch' ? powersOfTwo(1, 512) : powersOfTwo(256, 131072);
  return sweep(s, key, values).map((p) => ({ x: p.x, est: p.result.ok ? p.result.value : null }));
}

/** Memory against batch size or context length, with the largest value that fits the first GPU. */
export function SweepPanel({ s, est }: { s: Scenario; est: Estimate }) {
  const id = useId();
  const { t, unit, unitBytes, gpus, lines, termName, format } = useChartKit();
  const [axis, setAxis] = useState<Axis>('batch');
  // the swept key itself does not change the curve: recompute only when something else does
  const swept = axis === 'batch' ? 'batch' : s.mode === 'training' ? 'seq' : 'prompt';
  const curveKey = JSON.stringify({ ...s, [swept]: 0 });
  const { rows, terms } = useMemo(
    () => sweepRowsOf(sweepOf(s, axis), unitBytes),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- curveKey stands for s without the swept key
    [curveKey, axis, unitBytes],
  );
  const yAxis = useMemo(() => sweepAxis(rows, lines, terms), [rows, lines, terms]);
  const formatX = useCallback((v: number) => formatNumber(v, t.lang, 0), [t]);
  const best = useMemo(() => {
    const first = gpus[0];
    if (!first) return null;
    const sc = onGpu(s, first.spec);
    // held to the verdict at the scenario's own value (solve.ts): the curve itself is the fast estimate
    const r = axis === 'batch' ? maxBatch(sc, first.gpu.capacityBytes, est) : maxContext(sc, first.gpu.capacityBytes, est);
    return r.ok && r.value > 0 ? r.value : null;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- curveKey stands for s without the swept key
  }, [curveKey, axis, gpus, est]);
  const bestMark = useMemo(() => (best === null ? null : { x: best, label: formatNumber(best, t.lang, 0) }), [best, t]);
  const xLabel = axis === 'batch' ? t('sweep.batch') : t('sweep.context');
  const loading = <div className="chart-fallback">{t('chart.loading')}</div>;
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('sweep.title')}</h2>
      <div className="seg" role="group" aria-label={t('sweep.axis')}>
        {(['batch', 'context'] as Axis[]).map((a) => (
          <button key={a} type="button" aria-pressed={axis === a} onClick={() => setAxis(a)}>
            {a === 'batch' ? t('sweep.batch') : t('sweep.context')}
          </button>
        ))}
      </div>
      <p className="small" aria-live="polite">
        {gpus.length === 0
          ? t('fit.pickGpu')
          : best === null
            ? t('sweep.none', { gpu: gpuName(gpus[0]) })
            : t('sweep.best', { axis: xLabel, value: formatNumber(best, t.lang, 0), gpu: gpuName(gpus[0]) })}
      </p>
      {gpus.length > 0 && replayDecidesReserved(s) && <p className="small muted">{t('solve.fast')}</p>}
      {yAxis.clipped.length > 0 && (
        <p className="small muted" data-testid="sweep-clipped">
          {t('sweep.clipped', { top: `${format(yAxis.max)} ${unit}`, from: formatX(yAxis.clipped[0]) })}
        </p>
      )}
      <WhenNear fallback={loading}>
        <Suspense fallback={loading}>
          <SweepChart rows={rows} terms={terms} lines={lines} axis={yAxis} best={bestMark} xLabel={xLabel} unit={unit} title={t('sweep.title')} termName={termName} format={format} formatX={formatX} />
        </Suspense>
      </WhenNear>
    </section>
  );
}
