import { formatNumber, signedPct } from '../i18n/format';
import type { ErrorStats, SignedStats } from '../../validation/score';
import type { AccuracyData } from './accuracy-data';
import { useAT } from './accuracy-i18n';

type Line = [label: string, abs: ErrorStats, signed: SignedStats | undefined];

/**
 * Error of the development rows per scenario kind and per publication / setting, and overall:
 * median and p90 of |error|, and the signed side — bias (median signed error: + over, − under)
 * and the 10th–90th percentile of the signed error.
 */
/** Column heads shared by the development and independent tables: rows, median, p90, bias. */
export function StatHeads() {
  const t = useAT();
  return (
    <>
      <th scope="col" className="num">
        {t('sum.n')}
      </th>
      <th scope="col" className="num">
        {t('sum.median')}
      </th>
      <th scope="col" className="num">
        {t('sum.p90')}
      </th>
      <th scope="col" className="num">
        {t('sum.bias')}
      </th>
    </>
  );
}

export function SummaryTables({ data }: { data: AccuracyData }) {
  const t = useAT();
  const all: Line | null = data.all && [t('sum.all'), data.all, data.signedAll ?? undefined];
  return (
    <section className="panel" aria-labelledby="acc-sum-h">
      <h2 id="acc-sum-h">{t('sum.title')}</h2>
      <p className="field-help">{t('sum.caption')}</p>
      <div className="acc-sum">
        <StatsTable head={t('sum.kind')} rows={data.byKind.map(([k, st]) => [t.kind(k), st, data.signedByKind.get(k)])} all={all} testId="acc-by-kind" />
        <StatsTable head={t('sum.group')} rows={data.byGroup.map(([g, st]) => [g, st, data.signedByGroup.get(g)])} all={all} testId="acc-by-group" />
      </div>
    </section>
  );
}

function StatsTable({ head, rows, all, testId }: { head: string; rows: Line[]; all: Line | null; testId: string }) {
  const t = useAT();
  const pct = (x: number) => `${formatNumber(x, t.lang, 1)} %`;
  const sp = (x: number) => signedPct(x, t.lang);
  const line = ([label, st, sg]: Line, strong = false) => (
    <tr key={label} className={strong ? 'acc-total' : undefined} data-row={label}>
      <th scope="row">{label}</th>
      <td className="num">{st.n}</td>
      <td className="num">{pct(st.medianPct)}</td>
      <td className="num">{pct(st.p90Pct)}</td>
      <td className="num" title={sg && t(sg.biasPct < 0 ? 'sign.under' : 'sign.over')}>
        {sg ? sp(sg.biasPct) : '–'}
      </td>
      <td className="num">{sg ? `${sp(sg.p10Pct)} … ${sp(sg.p90Pct)}` : '–'}</td>
    </tr>
  );
  return (
    <div className="table-wrap">
      <table data-testid={testId}>
        <thead>
          <tr>
            <th scope="col">{head}</th>
            <StatHeads />
            <th scope="col" className="num">
              {t('sum.signedRange')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => line(r))}
          {all && line(all, true)}
        </tbody>
      </table>
    </div>
  );
}
