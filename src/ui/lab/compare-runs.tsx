import { useId } from 'react';
import type { ConfComparison } from '../../core/allocator/compare';
import type { CompareColumn } from './sim-engine';
import { useLabT, type LabKey } from './lab-i18n';

/** The settings compared by default: docs/reference/allocator.md §9's three cases. */
export const DEFAULT_COMPARE = ['', 'expandable_segments:True', 'max_split_size_mb:128'] as const;

/** Longer traces wait for a click: three more runs of a 10^5-event history take seconds. */
export const AUTO_COMPARE_EVENTS = 5000;

type Metric = { key: LabKey; get: (r: ConfComparison) => number; bytes: boolean };

const METRICS: Metric[] = [
  { key: 'cmp.peakReserved', get: (r) => r.peakReserved, bytes: true },
  { key: 'cmp.peakAllocated', get: (r) => r.peakAllocated, bytes: true },
  { key: 'cmp.reserved', get: (r) => r.finalReserved, bytes: true },
  { key: 'cmp.allocated', get: (r) => r.finalAllocated, bytes: true },
  { key: 'cmp.segments', get: (r) => r.segments, bytes: false },
  { key: 'cmp.deviceAllocs', get: (r) => r.deviceAllocs, bytes: false },
  { key: 'cmp.retries', get: (r) => r.retries, bytes: false },
];

export interface CompareRunsProps {
  confs: string[];
  onConfs: (confs: string[]) => void;
  /** the runs, or null while they are waiting (a click, or the worker) */
  columns: CompareColumn[] | null;
  /** events of the trace, when the comparison waits for a click; null when it runs by itself */
  askFor: number | null;
  onRun: () => void;
}

/** The same trace run under two or three PYTORCH_CUDA_ALLOC_CONF settings, side by side. */
export function CompareRuns({ confs, onConfs, columns, askFor, onRun }: CompareRunsProps) {
  const t = useLabT();
  const id = useId();
  const cols = confs.map((conf, i): CompareColumn => columns?.[i] ?? { conf, row: null, errors: [] });
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h3 id={`${id}-h`}>{t('cmp.title')}</h3>
      <p className="field-help">{t('cmp.help')}</p>
      {askFor !== null && (
        <button type="button" onClick={onRun}>
          {t('cmp.run', { n: t.num(askFor), k: confs.length })}
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
                    onChange={(e) => onConfs(confs.map((x, j) => (j === i ? e.target.value : x)))}
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
                    {c.row ? m.bytes ? <span title={t.exact(m.get(c.row))}>{t.bytes(m.get(c.row))}</span> : t.num(m.get(c.row)) : '–'}
                  </td>
                ))}
              </tr>
            ))}
            <tr>
              <th scope="row">{t('cmp.ooms')}</th>
              {cols.map((c, i) => (
                <td key={i} className={`num${c.row && c.row.ooms ? ' nofit' : ''}`}>
                  {c.errors.length ? (
                    <span className="field-msg">
                      {t('cmp.invalid')}: {c.errors.map((e) => t.core(e)).join('; ')}
                    </span>
                  ) : !c.row ? (
                    '–'
                  ) : c.row.ooms ? (
                    `${c.row.oomLines.map((line) => t('sim.line', { line })).join(', ')}${c.row.ooms > c.row.oomLines.length ? ` (${t.num(c.row.ooms)})` : ''}`
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
