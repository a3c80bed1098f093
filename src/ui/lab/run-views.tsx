/**
 * What a run looks like beyond the step shown (issue #13 §2): fragmentation over time, active
 * memory by top stack frame, and the events before an OOM. The series come from the simulation
 * (sim-engine.ts, in the worker for imports), drawn as plain SVG (step-chart.tsx); each chart has a
 * text alternative: a one-line summary, the legend table, the events table.
 */
import { useId } from 'react';
import type { FrameGroup, FrameSeries } from '../../core/allocator/frame-series';
import type { OomLeadUp } from '../../core/allocator/oom-lead-up';
import type { FragmentationPoint } from '../../core/allocator/run-series';
import { formatNumber } from '../i18n/format';
import { REST_COLOURS, SERIES_COLOURS } from './chart-axis';
import { useLabT, type LabKey, type LabT } from './lab-i18n';
import { StepChart } from './step-chart';

function Fragmentation({ points, current }: { points: FragmentationPoint[]; current: number }) {
  const t = useLabT();
  const id = useId();
  const worst = points.reduce<FragmentationPoint | null>((a, p) => (!a || p.cachedFree > a.cachedFree ? p : a), null);
  const summary = worst && worst.cachedFree > 0 ? t('frag.summary', { cached: t.bytes(worst.cachedFree), step: worst.step, largest: t.bytes(worst.largestFree) }) : t('frag.none');
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('frag.title')}</h3>
      <p id={`${id}-s`} data-testid="lab-frag-summary">
        {summary}
      </p>
      <figure className="lab-chart" role="img" aria-label={t('frag.title')} aria-describedby={`${id}-s`} data-testid="lab-frag-chart">
        <StepChart
          steps={points.map((x) => x.step)}
          series={[
            { name: t('frag.cached'), colour: 'var(--lab-reserved)', values: points.map((x) => x.cachedFree) },
            { name: t('frag.largest'), colour: 'var(--lab-allocated)', values: points.map((x) => x.largestFree), dashed: true },
          ]}
          current={current}
          format={(v) => formatNumber(v, t.lang, 2)}
          names={{ step: t('chart.step'), current: t('chart.current') }}
        />
      </figure>
    </section>
  );
}

const groupName = (t: LabT, g: FrameGroup): string => (g.kind === 'frame' ? g.frame : t(g.kind === 'other' ? 'frames.other' : 'frames.unknown'));

function Frames({ series, current }: { series: FrameSeries; current: number }) {
  const t = useLabT();
  const id = useId();
  const names = series.groups.map((g) => groupName(t, g));
  let rest = 0;
  const colours = series.groups.map((g, i) => (g.kind === 'frame' ? SERIES_COLOURS[i % SERIES_COLOURS.length] : REST_COLOURS[rest++ % REST_COLOURS.length]));
  const top = series.peaks.reduce((best, p, i) => (p > series.peaks[best] ? i : best), 0);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('frames.title')}</h3>
      <p className="field-help">{t('frames.help')}</p>
      <p id={`${id}-s`} className="visually-hidden">
        {t('frames.summary', { n: names.length, frame: names[top], peak: t.bytes(series.peaks[top]) })}
      </p>
      <figure className="lab-chart" role="img" aria-label={t('frames.title')} aria-describedby={`${id}-s`} data-testid="lab-frames-chart">
        <StepChart
          steps={series.points.map((x) => x.step)}
          series={names.map((name, g) => ({ name, colour: colours[g], values: series.points.map((x) => x.bytes[g]) }))}
          stacked
          legend={false}
          current={current}
          format={(v) => formatNumber(v, t.lang, 2)}
          names={{ step: t('chart.step'), current: t('chart.current') }}
        />
      </figure>
      <div className="table-wrap">
        <table className="lab-frames-table" data-testid="lab-frames-legend">
          <thead>
            <tr>
              <th scope="col">{t('frames.series')}</th>
              <th scope="col" className="num">
                {t('frames.peak')}
              </th>
            </tr>
          </thead>
          <tbody>
            {names.map((name, g) => (
              <tr key={g}>
                <th scope="row">
                  <span className="swatch" style={{ background: colours[g] }} aria-hidden="true" /> <code>{name}</code>
                </th>
                <td className="num">{t.bytes(series.peaks[g])}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function LeadUp({ lead }: { lead: OomLeadUp }) {
  const t = useLabT();
  const id = useId();
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t(lead.source === 'recorded' ? 'lead.recorded' : 'lead.simulated')}</h3>
      <p className="field-help">{t('lead.help', { n: lead.rows.length - 1 })}</p>
      <div className="table-wrap">
        <table className="lab-lead" data-testid="lab-lead-up">
          <thead>
            <tr>
              <th scope="col" className="num">
                {t('lead.line')}
              </th>
              <th scope="col">{t('lead.event')}</th>
              <th scope="col" className="num">
                {t('lead.size')}
              </th>
              <th scope="col" className="num">
                {t('lead.block')}
              </th>
              <th scope="col">{t('lead.frame')}</th>
              <th scope="col">{t('lead.outcome')}</th>
            </tr>
          </thead>
          <tbody>
            {lead.rows.map((r) => (
              <tr key={r.step} className={r.outcome === 'oom' ? 'nofit' : undefined}>
                <td className="num">{r.line}</td>
                <td>
                  <code>{r.op === 'empty_cache' ? 'empty_cache' : `${r.op} ${r.name ?? ''}`}</code>
                </td>
                <td className="num">{r.size === undefined ? '' : t.bytes(r.size)}</td>
                <td className="num">{r.block === undefined ? '' : `${r.op === 'free' ? '−' : '+'}${t.bytes(r.block)}`}</td>
                <td>{r.frame ? <code>{r.frame}</code> : ''}</td>
                <td>{t(`sim.outcome.${r.outcome}` as LabKey)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

export interface RunViewsProps {
  fragmentation: FragmentationPoint[];
  byFrame: FrameSeries | null;
  leadUp: OomLeadUp | null;
  /** the step shown (0 = before the first event) */
  current: number;
}

/** The run's fragmentation, frames and OOM lead-up, each shown when the run has it. */
export function RunViews(p: RunViewsProps) {
  return (
    <>
      {p.leadUp && <LeadUp lead={p.leadUp} />}
      <Fragmentation points={p.fragmentation} current={p.current} />
      {p.byFrame && <Frames series={p.byFrame} current={p.current} />}
    </>
  );
}
