import type { AccuracyData } from './accuracy-data';
import { useAT } from './accuracy-i18n';

/** The published rows we do not score, each with its reason. */
export function SkippedRows({ data }: { data: AccuracyData }) {
  const t = useAT();
  return (
    <section className="panel" aria-labelledby="acc-skip-h">
      <h2 id="acc-skip-h">{t('skip.title', { n: data.skipped.length })}</h2>
      <p className="field-help">{t('skip.help')}</p>
      <div className="table-wrap">
        <table data-testid="acc-skipped">
          <thead>
            <tr>
              <th scope="col">{t('col.id')}</th>
              <th scope="col">{t('col.source')}</th>
              <th scope="col">{t('col.model')}</th>
              <th scope="col">{t('col.mode')}</th>
              <th scope="col">{t('col.precision')}</th>
              <th scope="col">{t('skip.reason')}</th>
            </tr>
          </thead>
          <tbody>
            {data.skipped.map((s) => (
              <tr key={s.id} data-row={s.id}>
                <td>{s.id}</td>
                <td title={s.citation}>{s.source}</td>
                <td>{s.model}</td>
                <td>{s.setting}</td>
                <td>{s.precision}</td>
                <td>{t.reason(s.reason)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Full citations of every publication the rows come from. */
export function SourceList({ citations }: { citations: string[] }) {
  const t = useAT();
  return (
    <section className="panel" aria-labelledby="acc-src-h">
      <h2 id="acc-src-h">{t('src.title')}</h2>
      <ul className="small acc-sources">
        {citations.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
    </section>
  );
}
