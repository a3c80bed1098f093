/**
 * The replayed step timeline (core/timeline): allocated by category, reserved, and the peak,
 * over one training step (two with fixed lengths, 24 with varied ones) or a generate call.
 * The replay costs milliseconds, so it runs only once the panel is opened (or, with varied
 * lengths, from the settled scenario), never while a slider moves.
 */
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { CATEGORIES, stepTimeline, type StepTimeline } from '../../core/timeline';
import type { Result, Scenario } from '../../core/types';
import { useChartKit } from '../charts/use-chart-kit';
import type { TimelineRow } from '../charts/timeline-chart';
import { formatBytes } from '../i18n/format';
import { WhenNear } from '../shell/when-near';

const TimelineChart = lazy(() => import('../charts/timeline-chart'));

const cache = new WeakMap<Scenario, Result<StepTimeline>>();
function timelineOf(s: Scenario): Result<StepTimeline> {
  let r = cache.get(s);
  if (!r) {
    r = stepTimeline(s);
    cache.set(s, r);
  }
  return r;
}

export function TimelinePanel({ s }: { s: Scenario }) {
  const [open, setOpen] = useState(false);
  const { t } = useChartKit();
  // varied lengths: the replay is what the estimate rests on, so the timeline opens by itself
  const shown = open || (s.mode === 'training' && s.lengths === 'varied');
  return (
    <section className="panel" aria-labelledby="timeline-h">
      <h2 id="timeline-h">{t('timeline.title')}</h2>
      {!shown && (
        <button type="button" onClick={() => setOpen(true)}>
          {t('timeline.show')}
        </button>
      )}
      {shown && <TimelineBody s={s} />}
    </section>
  );
}

function TimelineBody({ s }: { s: Scenario }) {
  const { t, unit, unitBytes, format } = useChartKit();
  const r = timelineOf(s);
  // the reserved line is the result card's "Reserved by PyTorch"; categories and the peak have their own names
  const name = useCallback((key: string) => t(key === 'reserved' ? 'total.reserved' : (`timeline.${key}` as Parameters<typeof t>[0])), [t]);
  const data = useMemo(() => {
    if (!r.ok) return null;
    const tl = r.value;
    const used = CATEGORIES.filter((c) => tl.points.some((p) => p.byCategory[c] > 0));
    let peak = 0;
    const rows: TimelineRow[] = tl.points.map((p, i) => {
      if (p.allocated > tl.points[peak].allocated) peak = i;
      const row = { t: p.t, allocated: p.allocated / unitBytes, reserved: p.reserved / unitBytes } as TimelineRow;
      for (const c of CATEGORIES) row[c] = p.byCategory[c] / unitBytes;
      return row;
    });
    return { rows, used, peak, tl };
  }, [r, unitBytes]);
  if (!r.ok || !data || data.rows.length < 2) return <p className="field-msg">{t('timeline.none')}</p>;
  const peakPoint = data.tl.points[data.peak];
  const loading = <div className="chart-fallback">{t('chart.loading')}</div>;
  return (
    <>
      <p>
        {t('timeline.summary', {
          allocated: formatBytes(data.tl.peakAllocated, unit, t.lang),
          reserved: formatBytes(data.tl.peakReserved, unit, t.lang),
          phase: t(`timeline.phase.${peakPoint.phase}` as Parameters<typeof t>[0]),
          step: (data.tl.runSteps[peakPoint.step] ?? peakPoint.step) + 1,
        })}
      </p>
      <WhenNear fallback={loading}>
        <Suspense fallback={loading}>
          <TimelineChart rows={data.rows} categories={data.used} peak={data.peak} name={name} unit={unit} format={format} title={t('timeline.title')} />
        </Suspense>
      </WhenNear>
      {data.tl.notes.map((n) => (
        <p key={n.code} className="field-msg">
          {t(`timeline.note.${n.code.replace('timeline.', '')}` as Parameters<typeof t>[0])}
        </p>
      ))}
    </>
  );
}
