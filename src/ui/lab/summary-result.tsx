import type { SummaryCell, SummaryReading } from '../../core/allocator/summary';
import { AdviceList } from './advice-list';
import { ByteFigures } from './byte-figures';
import { useLabT, type LabKey, type LabT } from './lab-i18n';

const FIGURES = ['allocated', 'reserved', 'cachedFree', 'nonReleasable', 'releasable'] as const;

function showCell(t: LabT, c: SummaryCell, bytes: boolean): string {
  return bytes ? t.bytes(c.value) : t.num(c.value);
}

/** A memory_summary() reading: diagnosis, advice, fragmentation figures and the table as memory_stats() keys. */
export function SummaryResult({ r }: { r: SummaryReading }) {
  const t = useLabT();
  return (
    <div className="lab-result" aria-live="polite">
      {r.device !== null && <p>{t('sum.header', { device: r.device, ooms: r.numOoms ?? '?', retries: r.numAllocRetries ?? '?' })}</p>}
      <section className="lab-diagnosis" aria-labelledby="sum-diag-h">
        <h3 id="sum-diag-h">{t('oom.diagnosis')}</h3>
        <p className="diag-text">{t.core(r.diagnosis)}</p>
        {r.advice.length > 0 && <AdviceList advice={r.advice} prefix="summary-advice" />}
      </section>
      <h3>{t('sum.figures')}</h3>
      <dl className="lab-dl">
        <ByteFigures keys={FIGURES} values={r.figures} />
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
