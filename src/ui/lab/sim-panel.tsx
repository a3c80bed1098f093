import { useDeferredValue, useId, useMemo, useState } from 'react';
import { parseTrace, traceToText, type TraceParse } from '../../core/allocator/trace';
import { packTrace, unpackTrace, type PackedTrace } from '../../core/allocator/trace-pack';
import { parseByteSize } from '../../core/allocator/size-text';
import type { RecordedRun } from '../../core/allocator/history-import';
import { formatNumber } from '../i18n/format';
import { useLabT } from './lab-i18n';
import { TraceEditor } from './trace-editor';
import { ImportTrace } from './import-trace';
import { Stepper } from './stepper';
import { SegmentsView } from './segments-view';
import { StatsTable } from './stats-table';
import { AUTO_COMPARE_EVENTS, CompareRuns, DEFAULT_COMPARE } from './compare-runs';
import { RunViews } from './run-views';
import { StepChart } from './step-chart';
import { PredictedOverlay } from './predicted-overlay';
import { PAGE_EVENTS, useSimulation } from './use-simulation';

export interface SimState {
  text: string;
  preset: string | null;
  cap: string;
  conf: string;
  /** null = the end of the trace */
  step: number | null;
  /** an imported history: simulated as it is, with its stack frames (the editor's text has none) */
  imported: PackedTrace | null;
  /** what PyTorch recorded of the imported run (its reserved peak), beside `imported` */
  recorded: RecordedRun | null;
}

export interface SimPanelProps {
  sim: SimState;
  onText: (text: string) => void;
  onImported: (trace: PackedTrace, recorded: RecordedRun) => void;
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
  const parsed: TraceParse | null = useMemo(() => (imported ? null : parseTrace(text)), [text, imported]);
  const capParse = p.sim.cap.trim() ? parseByteSize(p.sim.cap) : null;
  const capacity = capParse?.ok && capParse.bytes > 0 ? capParse.bytes : undefined;
  const capError = !capParse ? null : !capParse.ok ? t('sim.capacityBad', { detail: capParse.message }) : capParse.bytes <= 0 ? t('sim.capacityZero') : null;
  const conf = p.sim.conf.trim() || undefined;
  const trace = useMemo(() => imported ?? (parsed?.ok ? packTrace(parsed.trace) : null), [imported, parsed]);
  const [confs, setConfs] = useState<string[]>([...DEFAULT_COMPARE]);
  const [asked, setAsked] = useState<PackedTrace | null>(null);
  const askFor = trace && trace.count > AUTO_COMPARE_EVENTS && asked !== trace ? trace.count : null;
  const run = useSimulation({
    trace,
    capacity,
    conf,
    step: p.sim.step,
    compare: askFor === null ? confs : null,
    offThread: imported !== null || (trace?.count ?? 0) > PAGE_EVENTS,
  });
  const sim = run.load?.ok ? run.load.summary : null;
  const at = sim ? run.view : null;
  const view = at?.view ?? null;
  const n = sim?.events ?? 0;
  const step = at?.step ?? -1;
  const rec = at?.rec ?? null;
  const showCapacity = sim && sim.peakReserved >= 0.1 * sim.capacity ? sim.capacity : null;

  return (
    <section className="panel lab-sim" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('sim.title')}</h2>
      <div className="lab-sim-top">
        <div>
          {imported ? (
            <div className="lab-notice" role="status">
              <p>{t('sim.importedRun', { n: t.num(imported.count) })}</p>
              <div className="lab-examples">
                <button type="button" onClick={() => p.onText(traceToText(unpackTrace(imported)))}>
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
              errors={!parsed || parsed.ok ? [] : parsed.errors}
              currentLine={text === p.sim.text ? (rec?.line ?? null) : null}
              onText={p.onText}
              onPreset={p.onPreset}
            />
          )}
          <ImportTrace onTrace={p.onImported} />
        </div>
        <div>
          <div className="field">
            <label htmlFor={`${id}-cap`}>{t('sim.capacity')}</label>
            <input
              id={`${id}-cap`}
              type="text"
              value={p.sim.cap}
              placeholder={sim ? t.bytes(sim.capacity) : '80 GiB'}
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
              placeholder={sim?.confText || t('sim.confDefault')}
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
          <p role="status" className="small" data-testid="lab-sim-status">
            {run.busy === 'load' && trace ? t('sim.running', { n: t.num(trace.count) }) : run.busy === 'compare' ? t('sim.comparing') : ''}
          </p>
          {run.failed && (
            <p className="field-msg" role="alert">
              {t('sim.workerFailed')}
            </p>
          )}
          {run.load && !run.load.ok && (
            <div className="lab-errors" role="alert">
              <p>{t('sim.settingsBad')}</p>
              <ul>
                {run.load.errors.map((e, i) => (
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
              {sim.firstOomLine !== null && <p className="nofit">{t('sim.ooms', { count: sim.oomCount, line: sim.firstOomLine })}</p>}
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
            <figure className="lab-chart" role="img" aria-label={t('chart.title')}>
              <StepChart
                steps={sim.timeline.map((x) => x.step)}
                series={[
                  { name: t('chart.reserved'), colour: 'var(--lab-reserved)', values: sim.timeline.map((x) => x.reserved) },
                  { name: t('chart.allocated'), colour: 'var(--lab-allocated)', values: sim.timeline.map((x) => x.allocated) },
                ]}
                current={step + 1}
                limit={showCapacity === null ? null : { value: showCapacity, name: t('chart.capacity') }}
                format={(v) => formatNumber(v, t.lang, 2)}
                names={{ step: t('chart.step'), current: t('chart.current') }}
              />
            </figure>
          </section>
          {imported && p.sim.recorded && <PredictedOverlay run={sim} recorded={p.sim.recorded} />}
          <RunViews fragmentation={sim.fragmentation} byFrame={sim.byFrame} leadUp={sim.leadUp} current={step + 1} />
          <StatsTable stats={view.stats} />
        </>
      )}
      {sim && <CompareRuns confs={confs} onConfs={setConfs} columns={run.compare} askFor={askFor} onRun={() => setAsked(trace)} />}
    </section>
  );
}
