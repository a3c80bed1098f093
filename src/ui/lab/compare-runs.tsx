import { useId, useMemo, useState } from 'react';
import { simulateTrace, type SimRun } from '../../core/allocator/run';
import type { Trace } from '../../core/allocator/trace';
import type { FieldError } from '../../core/types';
import { useLabT, type LabKey } from './lab-i18n';

/** The settings compared by default: docs/reference/allocator.md §9's three cases. */
export const DEFAULT_COMPARE = ['', 'expandable_segments:True', 'max_split_size_mb:128'] as const;

type Metric = { key: LabKey; get: (r: SimRun) => number; bytes: boolean };

const METRICS: Metric[] = [
  { key: 'cmp.peakReserved', get: (r) => r.peakReserved, bytes: true },
  { key: 'cmp.peakAllocated', get: (r) => r.peakAllocated, bytes: true },
  { key: 'cmp.reserved', get: (r) => r.final.stats['reserved_bytes.all.current'], bytes: true },
  { key: 'cmp.allocated', get: (r) => r.final.stats['allocated_bytes.all.current'], bytes: true },
  { key: 'cmp.segments', get: (r) => r.final.stats['segment.all.current'], bytes: false },
  { key: 'cmp.deviceAllocs', get: (r) => r.final.stats.num_device_alloc, bytes: false },
  { key: 'cmp.retries', get: (r) => r.final.stats.num_alloc_retries, bytes: false },
];

type Column = { conf: string; run: SimRun | null; errors: FieldError[] };

/** Longer traces wait for a click: three more runs of a 10^5-event history take seconds. */
const AUTO_EVENTS = 5000;

/** The same trace run under two or three PYTORCH_CUDA_ALLOC_CONF settings, side by side. */
export function CompareRuns({ trace, capacity }: { trace: Trace; capacity: number | undefined }) {
  const t = useLabT();
  const id = useId();
  const [confs, setConfs] = useState<string[]>([...DEFAULT_COMPARE]);
  const [asked, setAsked] = useState(false);
  const auto = trace.events.length <= AUTO_EVENTS || asked;
  const cols: Column[] = useMemo(
    () =>
      confs.map((conf) => {
        if (!auto) return { conf, run: null, errors: [] };
        const r = simulateTrace(trace, { capacity, conf });
        return r.ok ? { conf, run: r.value, errors: [] } : { conf, run: null, errors: r.errors };
      }),
    [trace, capacity, confs, auto],
  );
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('cmp.title')}</h3>
      <p className="field-help">{t('cmp.help')}</p>
      {!auto && (
        <button type="button" onClick={() => setAsked(true)}>
          {t('cmp.run', { n: t.num(trace.events.length), k: confs.length })}
        </button>
      )}
      <div className="table-wrap">
        <table className="lab-compare">
          <thead>
            <tr>
              <th scope="col">{t('cmp.metric')}</th>
              {cols.map((c, i) => (
                <th key={i} scope="col" className="num">
                  <label className="visually-hidden" htmlFor={`${id}-c${i}`}>
                    {t('cmp.setting', { n: i + 1 })}
                  </label>
                  <input
                    id={`${id}-c${i}`}
                    type="text"
                    value={confs[i]}
                    placeholder={t('sim.confDefault')}
                    spellCheck={false}
                    onChange={(e) => setConfs(confs.map((x, j) => (j === i ? e.target.value : x)))}
                  />
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {METRICS.map((m) => (
              <tr key={m.key}>
                <th scope="row">{t(m.key)}</th>
                {cols.map((c, i) => (
                  <td key={i} className="num">
                    {c.run ? m.bytes ? <span title={t.exact(m.get(c.run))}>{t.bytes(m.get(c.run))}</span> : t.num(m.get(c.run)) : '–'}
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">{t('cmp.ooms')}</th>
              {cols.map((c, i) => (
                <td key={i} className={`num${c.run && c.run.oomSteps.length ? ' nofit' : ''}`}>
                  {!auto ? (
                    '–'
                  ) : !c.run ? (
                    <span className="field-msg">
                      {t('cmp.invalid')}: {c.errors.map((e) => t.core(e)).join('; ')}
                    </span>
                  ) : c.run.oomSteps.length ? (
                    c.run.oomSteps.map((s) => t('sim.line', { line: c.run!.events[s].line })).join(', ')
                  ) : (
                    t('cmp.none')
                  )}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      </div>
    </section>
  );
}
