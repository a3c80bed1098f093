import { lazy, memo, Suspense, useCallback, useId, useMemo, useState } from 'react';
import { isDiffusionModel } from '../../core/diffusion/presets';
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
type Axis = 'batch' | 'context' | 'resolution';

/** Image sides swept for an image-generation model (multiples of 16, what every pipeline here accepts). */
const SIDES = [256, 512, 768, 1024, 1536, 2048, 3072, 4096];

/** The key an axis moves. */
const keyOf = (s: Scenario, axis: Axis) => (axis === 'context' ? (s.mode === 'training' ? 'seq' : 'prompt') : axis);

function sweepOf(s: Scenario, axis: Axis) {
  const values = axis === 'batch' ? powersOfTwo(1, 512) : axis === 'resolution' ? SIDES : powersOfTwo(256, 131072);
  return sweep(s, keyOf(s, axis), values).map((p) => ({ x: p.x, est: p.result.ok ? p.result.value : null }));
}

/** Memory against batch size or context length, with the largest value that fits the first GPU. */
export function SweepPanel({ s, est }: { s: Scenario; est: Estimate }) {
  const id = useId();
  const { t, unit, unitBytes, gpus, lines, termName, format } = useChartKit();
  const image = isDiffusionModel(s.model);
  const axes: Axis[] = image ? ['batch', 'resolution'] : ['batch', 'context'];
  const [picked, setAxis] = useState<Axis>('batch');
  const axis = axes.includes(picked) ? picked : 'batch';
  // the swept key itself does not change the curve: recompute only when something else does
  const swept = keyOf(s, axis);
  const curveKey = JSON.stringify({ ...s, [swept]: 0 });
  const points = useMemo(
    () => sweepOf(s, axis),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- curveKey stands for s without the swept key
    [curveKey, axis],
  );
  const { rows, terms } = useMemo(() => sweepRowsOf(points, unitBytes), [points, unitBytes]);
  const yAxis = useMemo(() => sweepAxis(rows, lines, terms), [rows, lines, terms]);
  const formatX = useCallback((v: number) => formatNumber(v, t.lang, 0), [t]);
  const best = useMemo(() => {
    const first = gpus[0];
    if (!first) return null;
    const sc = onGpu(s, first.spec);
    // held to the verdict at the scenario's own value (solve.ts): the curve itself is the fast estimate
    if (axis === 'resolution') {
      // the largest swept side whose estimate fits (no search: the pipelines accept only multiples of 8 / 16)
      const fit = points.filter((p) => p.est !== null && p.est.deviceBytes <= first.gpu.capacityBytes);
      return fit.length > 0 ? (fit[fit.length - 1]?.x ?? null) : null;
    }
    const r = axis === 'batch' ? maxBatch(sc, first.gpu.capacityBytes, est) : maxContext(sc, first.gpu.capacityBytes, est);
    return r.ok && r.value > 0 ? r.value : null;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- curveKey stands for s without the swept key
  }, [curveKey, axis, gpus, est, points]);
  const bestMark = useMemo(() => (best === null ? null : { x: best, label: formatNumber(best, t.lang, 0) }), [best, t]);
  const label = (a: Axis) => t(a === 'batch' ? 'sweep.batch' : a === 'resolution' ? 'sweep.resolution' : 'sweep.context');
  const xLabel = label(axis);
  const loading = <div className="chart-fallback">{t('chart.loading')}</div>;
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('sweep.title')}</h2>
      <div className="seg" role="group" aria-label={t('sweep.axis')}>
        {axes.map((a) => (
          <button key={a} type="button" aria-pressed={axis === a} onClick={() => setAxis(a)}>
            {label(a)}
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
