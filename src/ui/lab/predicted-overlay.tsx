/**
 * The calculator's predicted step timeline over an imported snapshot (issue #13 §4): a toggle that
 * replays the calculator's current scenario (core/timeline/versus-recorded.ts predictionFor, in a
 * Web Worker: use-overlay.ts), a pending line while it runs, the
 * imported run's allocated / reserved and the predicted ones on one chart by fraction of the run
 * (predicted dashed, Okabe–Ito colours apart from the recorded pair), and the two peaks with signed
 * errors as a table, which is also the chart's text alternative.
 */
import { useId, useMemo, useState } from 'react';
import type { RecordedRun } from '../../core/allocator/history-import';
import type { PeakRow } from '../../core/timeline/versus-recorded';
import type { Scenario } from '../../core/types';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatNumber, signedPct } from '../i18n/format';
import { optionLabel } from '../i18n/scenario-labels';
import { SERIES_COLOURS } from './chart-axis';
import { useLabT, type LabT } from './lab-i18n';
import type { RunSummary } from './sim-engine';
import { StepChart } from './step-chart';
import { useOverlay } from './use-overlay';

/** Predicted allocated / reserved: bluish green and reddish purple, apart from the recorded blue and orange. */
const PREDICTED_ALLOCATED = SERIES_COLOURS[2];
const PREDICTED_RESERVED = SERIES_COLOURS[3];

/** The scenario in words: model, mode, method or engine, batch × tokens. */
function scenarioWords(t: LabT, s: Scenario, bare: string): string {
  const { layers, hidden } = s.arch ?? {};
  const model = s.model === 'custom' && layers !== undefined && hidden !== undefined ? t('overlay.custom', { layers, hidden }) : s.model || bare;
  const mode = optionLabel(t.lang, 'mode', s.mode);
  if (s.mode === 'training') {
    return t('overlay.training', { model, mode, method: optionLabel(t.lang, 'method', s.method), batch: s.batch, seq: s.seq, lengths: t(`overlay.lengths.${s.lengths}`) });
  }
  return t('overlay.inference', { model, mode, engine: optionLabel(t.lang, 'engine', s.engine), batch: s.batch, prompt: s.prompt, gen: s.gen });
}

/** A peak's signed error, "+1.9 %" / "-3.1 %", or why there is none. */
function signed(t: LabT, row: PeakRow): string {
  return row.error === null ? t('overlay.noError') : signedPct(row.error * 100, t.lang);
}

export function PredictedOverlay({ run, recorded }: { run: RunSummary; recorded: RecordedRun }) {
  const t = useLabT();
  const pageT = useT();
  const id = useId();
  const [on, setOn] = useState(false);
  const scenario = useApp((s) => s.scenarios[s.active]);
  const series = useMemo(() => ({ points: run.timeline, allocatedPeak: run.peakAllocated, reservedPeak: recorded.reservedPeak }), [run, recorded]);
  const overlay = useOverlay(on, scenario, series);
  const result = overlay.status === 'done' ? overlay.result : null;
  const cmp = result?.ok ? result.cmp : null;
  const peaks: [string, PeakRow][] = cmp
    ? [
        ['allocated', cmp.allocated],
        ['reserved', cmp.reserved],
      ]
    : [];
  return (
    <section className="panel lab-overlay" aria-labelledby={`${id}-h`} aria-busy={overlay.status === 'pending'}>
      <h3 id={`${id}-h`}>{t('overlay.title')}</h3>
      <p id={`${id}-scenario`}>{t('overlay.scenario', { scenario: scenarioWords(t, scenario, pageT('model.bare')) })}</p>
      <label className="lab-overlay-toggle">
        <input type="checkbox" checked={on} aria-describedby={`${id}-scenario`} onChange={(e) => setOn(e.target.checked)} /> {t('overlay.toggle')}
      </label>
      {overlay.status === 'pending' && (
        <p role="status" className="small" data-testid="lab-overlay-pending">
          {t('overlay.pending')}
        </p>
      )}
      {overlay.status === 'failed' && (
        <p className="field-msg" role="alert" data-testid="lab-overlay-error">
          {t('overlay.failed')}
        </p>
      )}
      {result && !result.ok && (
        <div className="field-msg" role="alert" data-testid="lab-overlay-error">
          <p>{t('overlay.cannot')}</p>
          <ul>
            {result.errors.map((e, i) => (
              <li key={i}>{pageT.core(e)}</li>
            ))}
          </ul>
        </div>
      )}
      {cmp && result?.ok && (
        <>
          <p id={`${id}-s`} role="status">
            {t('overlay.summary', {
              predicted: t.bytes(cmp.reserved.predicted),
              recorded: t.bytes(cmp.reserved.recorded),
              error: signed(t, cmp.reserved),
              pAlloc: t.bytes(cmp.allocated.predicted),
              rAlloc: t.bytes(cmp.allocated.recorded),
              aError: signed(t, cmp.allocated),
            })}
          </p>
          <figure className="lab-chart" role="img" aria-label={t('overlay.title')} aria-describedby={`${id}-s`} data-testid="lab-overlay-chart">
            <StepChart
              steps={cmp.x.map((_, j) => j)}
              series={[
                { name: t('overlay.recordedReserved'), colour: 'var(--lab-reserved)', values: cmp.recorded.reserved },
                { name: t('overlay.recordedAllocated'), colour: 'var(--lab-allocated)', values: cmp.recorded.allocated },
                { name: t('overlay.predictedReserved'), colour: PREDICTED_RESERVED, values: cmp.predicted.reserved, dashed: true },
                { name: t('overlay.predictedAllocated'), colour: PREDICTED_ALLOCATED, values: cmp.predicted.allocated, dashed: true },
              ]}
              xEnds={[t('overlay.start'), t('overlay.end')]}
              format={(v) => formatNumber(v, t.lang, 2)}
              names={{ step: t('chart.step'), current: t('chart.current') }}
            />
          </figure>
          {/* one small table per peak, side by side where there is room and stacked on a phone: each fits 390 px without a sideways scroll */}
          <div className="lab-overlay-peaks" data-testid="lab-overlay-peaks">
            {peaks.map(([col, row]) => (
              <table key={col} className="lab-overlay-table">
                <caption>{t(col === 'allocated' ? 'overlay.peakAllocated' : 'overlay.peakReserved')}</caption>
                <tbody>
                  {(['predicted', 'recorded'] as const).map((k) => (
                    <tr key={k} data-row={k}>
                      <th scope="row">{t(`overlay.${k}`)}</th>
                      <td className="num" data-col={col}>
                        {t.bytes(row[k])}
                        <br />
                        <span className="muted small">{t.exact(row[k])}</span>
                      </td>
                    </tr>
                  ))}
                  <tr data-row="error">
                    <th scope="row">{t('overlay.error')}</th>
                    <td className="num" data-col={col}>
                      {signed(t, row)}
                    </td>
                  </tr>
                </tbody>
              </table>
            ))}
          </div>
          <p className="field-help">{t('overlay.align')}</p>
          <p className="field-help">{t('overlay.recordedHelp')}</p>
          {result.notes.map((m) => (
            <p key={m.code} className="muted small">
              {pageT.core(m)}
            </p>
          ))}
        </>
      )}
    </section>
  );
}
