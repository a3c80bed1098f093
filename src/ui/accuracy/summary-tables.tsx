import { formatNumber } from '../i18n/format';
import type { ErrorStats } from '../../validation/score';
import type { AccuracyData } from './accuracy-data';
import { useAT } from './accuracy-i18n';

/** Median and p90 absolute error per scenario kind and per publication / setting, and overall. */
export function SummaryTables({ data }: { data: AccuracyData }) {
  const t = useAT();
  return (
    <section className="panel" aria-labelledby="acc-sum-h">
      <h2 id="acc-sum-h">{t('sum.title')}</h2>
      <p className="field-help">{t('sum.caption')}</p>
      <div className="acc-sum">
        <StatsTable head={t('sum.kind')} rows={data.byKind.map(([k, st]) => [t.kind(k), st])} all={data.all} testId="acc-by-kind" />
        <StatsTable head={t('sum.group')} rows={data.byGroup} all={data.all} testId="acc-by-group" />
      </div>
    </section>
  );
}

function StatsTable({ head, rows, all, testId }: { head: string; rows: [string, ErrorStats][]; all: ErrorStats | null; testId: string }) {
  const t = useAT();
  const pct = (x: number) => `${formatNumber(x, t.lang, 1)} %`;
  const line = (label: string, st: ErrorStats, strong = false) => (
    <tr key={label} className={strong ? 'acc-total' : undefined}>
      <th scope="row">{label}</th>
      <td className="num">{st.n}</td>
      <td className="num">{pct(st.medianPct)}</td>
      <td className="num">{pct(st.p90Pct)}</td>
    </tr>
  );
  return (
    <div className="table-wrap">
      <table data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <th scope="col" className="num">{t('sum.n')}</th>
            <th scope="col" className="num">{t('sum.median')}</th>
            <th scope="col" className="num">{t('sum.p90')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map(([label, st]) => line(label, st))}
          {all && line(t('sum.all'), all, true)}
        </tbody>
      </table>
    </div>
  );
}
