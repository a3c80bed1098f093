import { lazy, Suspense, useDeferredValue, useId, useMemo } from 'react';
import { parseTrace, traceToText, type Trace, type TraceParse } from '../../core/allocator/trace';
import { simulateTrace, stepAt, viewAt } from '../../core/allocator/run';
import { parseByteSize } from '../../core/allocator/size-text';
import { formatNumber } from '../i18n/format';
import { useLabT } from './lab-i18n';
import { TraceEditor } from './trace-editor';
import { ImportTrace } from './import-trace';
import { Stepper } from './stepper';
import { SegmentsView } from './segments-view';
import { StatsTable } from './stats-table';
import { CompareRuns, DEFAULT_COMPARE } from './compare-runs';
import { timelinePoints } from './timeline-data';

const TimelineChart = lazy(() => import('./timeline-chart'));

export interface SimState {
  text: string;
  preset: string | null;
  cap: string;
  conf: string;
  /** null = the end of the trace */
  step: number | null;
  /** an imported history too long for the editor: simulated as it is */
  imported: Trace | null;
}

/** Imported histories with more events than this run without being put in the editor (a textarea of 10^5 lines is slow). */
const EDITABLE_EVENTS = 5000;

export interface SimPanelProps {
  sim: SimState;
  onText: (text: string) => void;
  onImported: (trace: Trace) => void;
  onPreset: (id: string) => void;
  onCap: (cap: string) => void;
  onConf: (conf: string) => void;
  onStep: (step: number | null) => void;
  /** open an OOM message in the decoder */
  onDecode: (message: string) => void;
}

/** Trace editor, settings, stepper, segment bars, timeline, memory_stats() and side-by-side settings. */
export function SimPanel(p: SimPanelProps) {
  const t = useLabT();
  const id = useId();
  const text = useDeferredValue(p.sim.text);
  const imported = p.sim.imported;
  const parsed: TraceParse = useMemo(() => (imported ? { ok: true, trace: imported } : parseTrace(text)), [text, imported]);
  const capParse = p.sim.cap.trim() ? parseByteSize(p.sim.cap) : null;
  const capacity = capParse?.ok && capParse.bytes > 0 ? capParse.bytes : undefined;
  const capError = !capParse ? null : !capParse.ok ? t('sim.capacityBad', { detail: capParse.message }) : capParse.bytes <= 0 ? t('sim.capacityZero') : null;
  const conf = p.sim.conf.trim() || undefined;
  const run = useMemo(() => (parsed.ok ? simulateTrace(parsed.trace, { capacity, conf }) : null), [parsed, capacity, conf]);
  const sim = run?.ok ? run.value : null;
  const n = sim?.events.length ?? 0;
  const step = p.sim.step === null ? n - 1 : Math.max(-1, Math.min(n - 1, p.sim.step));
  const view = useMemo(() => (sim ? viewAt(sim, step) : null), [sim, step]);
  const points = useMemo(() => (sim ? timelinePoints(sim.timeline) : []), [sim]);
  const rec = useMemo(() => (sim && step >= 0 ? stepAt(sim, step) : null), [sim, step]);
  const firstOom = sim?.oomSteps.length ? sim.events[sim.oomSteps[0]] : null;
  const showCapacity = sim && sim.peakReserved >= 0.1 * sim.settings.capacity ? sim.settings.capacity : null;

  return (
    <section className="panel lab-sim" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('sim.title')}</h2>
      <div className="lab-sim-top">
        <div>
          {imported ? (
            <div className="lab-notice" role="status">
              <p>{t('sim.importedBig', { n: t.num(imported.events.length) })}</p>
              <div className="lab-examples">
                <button type="button" onClick={() => p.onText(traceToText(imported))}>
                  {t('sim.editText')}
                </button>
                <button type="button" onClick={() => p.onPreset('classic')}>
                  {t('sim.discard')}
                </button>
              </div>
            </div>
          ) : (
            <TraceEditor
              text={p.sim.text}
              preset={p.sim.preset}
              errors={parsed.ok ? [] : parsed.errors}
              currentLine={text === p.sim.text ? (rec?.line ?? null) : null}
              onText={p.onText}
              onPreset={p.onPreset}
            />
          )}
          <ImportTrace onTrace={(tr) => (tr.events.length > EDITABLE_EVENTS ? p.onImported(tr) : p.onText(traceToText(tr)))} />
        </div>
        <div>
          <div className="field">
            <label htmlFor={`${id}-cap`}>{t('sim.capacity')}</label>
            <input
              id={`${id}-cap`}
              type="text"
              value={p.sim.cap}
              placeholder={sim ? t.bytes(sim.settings.capacity) : '80 GiB'}
              aria-invalid={capError ? true : undefined}
              aria-describedby={`${id}-cap-help`}
              onChange={(e) => p.onCap(e.target.value)}
            />
            {capError && (
              <p className="field-msg" role="alert">
                {capError}
              </p>
            )}
            <p id={`${id}-cap-help`} className="field-help">
              {t('sim.capacityHelp')}
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-conf`}>{t('sim.conf')}</label>
            <input
              id={`${id}-conf`}
              type="text"
              value={p.sim.conf}
              spellCheck={false}
              placeholder={sim?.settings.confText || t('sim.confDefault')}
              aria-describedby={`${id}-conf-help`}
              onChange={(e) => p.onConf(e.target.value)}
            />
            <p id={`${id}-conf-help`} className="field-help">
              {t('sim.confHelp')}
            </p>
            <div className="lab-examples" role="group" aria-label={t('sim.confQuick')}>
              {DEFAULT_COMPARE.map((c) => (
                <button key={c} type="button" aria-pressed={p.sim.conf === c} onClick={() => p.onConf(c)}>
                  {c || t('sim.confTrace')}
                </button>
              ))}
            </div>
          </div>
          {run && !run.ok && (
            <div className="lab-errors" role="alert">
              <p>{t('sim.settingsBad')}</p>
              <ul>
                {run.errors.map((e, i) => (
                  <li key={i}>
                    {t.core(e)}
                    {t.lang !== 'en' && <span className="muted small"> ({e.message})</span>}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {sim && view && (
            <>
              <Stepper step={step} total={n} rec={rec} onStep={(s) => p.onStep(s === n - 1 ? null : s)} />
              <p className="lab-totals">
                {t('sim.totals', {
                  allocated: t.bytes(view.stats['allocated_bytes.all.current']),
                  reserved: t.bytes(view.stats['reserved_bytes.all.current']),
                  free: t.bytes(view.deviceFree),
                  capacity: t.bytes(view.capacity),
                })}
              </p>
              <p className="lab-totals small" data-testid="lab-cache">
                {t('sim.cache', { cached: t.bytes(view.cachedFree), largest: t.bytes(view.largestFreeBlock) })}
              </p>
              {firstOom && <p className="nofit">{t('sim.ooms', { count: sim.oomSteps.length, line: firstOom.line })}</p>}
              {rec?.oomMessage && (
                <div className="lab-oom-at">
                  <p>{t('sim.oomAt')}</p>
                  <pre>{rec.oomMessage}</pre>
                  <button type="button" onClick={() => p.onDecode(rec.oomMessage!)}>
                    {t('sim.decodeOom')}
                  </button>
                </div>
              )}
              {sim.notes.map((m) => (
                <p key={m.code} className="muted small">
                  {t.core(m)}
                </p>
              ))}
            </>
          )}
          {sim && n === 0 && <p className="muted">{t('sim.noEvents')}</p>}
        </div>
      </div>
      {sim && view && (
        <>
          <SegmentsView segments={view.segments} />
          <section className="panel" aria-labelledby={`${id}-chart-h`}>
            <h3 id={`${id}-chart-h`}>{t('chart.title')}</h3>
            <Suspense fallback={<div className="lab-chart chart-fallback">{t('chart.loading')}</div>}>
              <TimelineChart
                points={points}
                current={step + 1}
                capacity={showCapacity}
                format={(v) => formatNumber(v, t.lang, 2)}
                names={{ allocated: t('chart.allocated'), reserved: t('chart.reserved'), capacity: t('chart.capacity'), step: t('chart.step'), current: t('chart.current'), title: t('chart.title') }}
              />
            </Suspense>
          </section>
          <StatsTable stats={view.stats} />
        </>
      )}
      {parsed.ok && <CompareRuns trace={parsed.trace} capacity={capacity} />}
    </section>
  );
}
