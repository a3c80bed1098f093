import { useId } from 'react';
import { formatMemorySummary, parseMemorySummary, type SummaryCell, type SummaryReading } from '../../core/allocator/summary';
import { findPreset } from '../../core/allocator/presets';
import { parseTrace } from '../../core/allocator/trace';
import { simulateTrace } from '../../core/allocator/run';
import { useLabT, type LabKey, type LabT } from './lab-i18n';
import { useParsed } from './use-parsed';

/** The example: memory_summary() of the simulated fragmentation preset (docs/reference/allocator.md §9 ii) after its OOM. */
export function exampleSummary(): string {
  const p = parseTrace(findPreset('fragmentation-oom')?.text ?? '');
  const r = p.ok ? simulateTrace(p.trace) : null;
  return r?.ok ? formatMemorySummary(r.value.final.stats) : '';
}

const FIGURES = ['allocated', 'reserved', 'cachedFree', 'nonReleasable', 'releasable'] as const;

function showCell(t: LabT, c: SummaryCell, bytes: boolean): string {
  return bytes ? t.bytes(c.value) : t.num(c.value);
}

function Reading({ r }: { r: SummaryReading }) {
  const t = useLabT();
  return (
    <div className="lab-result" aria-live="polite">
      {r.device !== null && <p>{t('sum.header', { device: r.device, ooms: r.numOoms ?? '?', retries: r.numAllocRetries ?? '?' })}</p>}
      <section className="lab-diagnosis" aria-labelledby="sum-diag-h">
        <h3 id="sum-diag-h">{t('oom.diagnosis')}</h3>
        <p className="diag-text">{t.core(r.diagnosis)}</p>
        {r.advice.length > 0 && (
          <ol className="lab-advice">
            {r.advice.map((a) => (
              <li key={a.code} data-advice={a.code}>
                {t.core({ code: `summary-advice.${a.code}`, params: a.params, text: a.text })}
                <p className="muted small">
                  {t('oom.why')} {t.core({ code: `summary-advice.${a.code}.why`, params: a.params, text: a.why })}
                </p>
              </li>
            ))}
          </ol>
        )}
      </section>
      <h3>{t('sum.figures')}</h3>
      <dl className="lab-dl">
        {FIGURES.map((k) => {
          const v = r.figures[k];
          return v === null ? null : (
            <div key={k}>
              <dt>{t(`sum.f.${k}` as LabKey)}</dt>
              <dd>
                <strong>{t.bytes(v)}</strong> <span className="muted small">({t.exact(v)})</span>
              </dd>
            </div>
          );
        })}
        {r.figures.oversizeSegments !== null && (
          <div>
            <dt>{t('sum.f.oversizeSegments')}</dt>
            <dd>{t.num(r.figures.oversizeSegments)}</dd>
          </div>
        )}
      </dl>
      <h3>{t('sum.table')}</h3>
      <p className="field-help">{t('sum.precision')}</p>
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">{t('sum.metric')}</th>
              <th scope="col">{t('sum.stat')}</th>
              {(['current', 'peak', 'allocated', 'freed'] as const).map((f) => (
                <th key={f} scope="col" className="num">
                  {t(`sum.${f}` as LabKey)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {r.rows.map((row, i) => {
              const bytes = row.stat.endsWith('_bytes');
              return (
                <tr key={i} className={row.pool === 'all' ? 'pool-all' : 'pool-sub'}>
                  <th scope="row" title={row.label}>
                    {t(`sum.row.${row.pool === 'all' ? row.stat : row.pool}` as LabKey)}
                  </th>
                  <td>
                    <code>{row.stat.startsWith('oversize') ? row.stat : `${row.stat}.${row.pool}`}</code>
                  </td>
                  {(['current', 'peak', 'allocated', 'freed'] as const).map((f) => (
                    <td key={f} className="num">
                      {showCell(t, row[f], bytes)}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Paste torch.cuda.memory_summary(): its rows as memory_stats() keys, fragmentation figures and advice. */
export function SummaryPanel({ text, onText }: { text: string; onText: (text: string) => void }) {
  const t = useLabT();
  const id = useId();
  const parsed = useParsed(text, parseMemorySummary);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('sum.title')}</h2>
      <div className="lab-examples">
        <button type="button" onClick={() => onText(exampleSummary())}>
          {t('sum.example')}
        </button>
        <button type="button" onClick={() => onText('')} disabled={!text}>
          {t('oom.clear')}
        </button>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>{t('sum.paste')}</label>
        <textarea id={`${id}-text`} className="lab-summary-text" rows={10} wrap="off" value={text} spellCheck={false} autoComplete="off" onChange={(e) => onText(e.target.value)} />
      </div>
      {!parsed && <p className="muted">{t('sum.empty')}</p>}
      {parsed && !parsed.ok && (
        <div className="lab-notice" role="status">
          <p>
            <strong>{t('sum.notSummary')}</strong> {t.core(parsed.message)}
          </p>
        </div>
      )}
      {parsed?.ok && <Reading r={parsed.value} />}
    </section>
  );
}
