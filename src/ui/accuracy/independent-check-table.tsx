import { useMemo } from 'react';
import { formatNumber, formatShare, signedPct } from '../i18n/format';
import { logoBandCoverage } from '../../validation/bands';
import { logoCoverage, nestedCoverage, WIDEN_FACTOR } from '../../validation/coverage';
import { INDEPENDENT_CHECK, INDEPENDENT_CLASSES } from '../../validation/independent-check';
import type { ScoredRow } from '../../validation/score';
import { type AKey, useAT } from './accuracy-i18n';
import { StatHeads } from './summary-tables';

/** The independent check's latest figures per class, with its date and commit (src/validation/independent-check). */
export function IndependentCheck() {
  const t = useAT();
  const c = INDEPENDENT_CHECK;
  const pct = (x: number | null) => (x === null ? '' : `${formatNumber(x, t.lang, 1)} %`);
  return (
    <section className="panel" aria-labelledby="acc-ind-h">
      <h2 id="acc-ind-h">{t('ind.title')}</h2>
      <p className="field-help">{t('ind.help', { rows: c.rows, publishers: c.publishers, date: c.date, commit: c.commit })}</p>
      <div className="table-wrap acc-sum">
        <table data-testid="acc-independent">
          <thead>
            <tr>
              <th scope="col">{t('ind.class')}</th>
              <StatHeads />
            </tr>
          </thead>
          <tbody>
            {INDEPENDENT_CLASSES.map((k) => (
              <tr key={k.id} data-row={k.id}>
                <th scope="row">{t(`ind.c.${k.id}` as AKey)}</th>
                <td className="num">{k.n}</td>
                {k.medianPct === null ? (
                  <td colSpan={3}>{t('ind.refused')}</td>
                ) : (
                  <>
                    <td className="num">{pct(k.medianPct)}</td>
                    <td className="num">{pct(k.p90Pct)}</td>
                    <td className="num">{signedPct(k.biasPct!, t.lang)}</td>
                  </>
                )}
              </tr>
            ))}
            <tr className="acc-total" data-row="all">
              <th scope="row">{t('ind.all', { within: c.all.within10Pct, refused: c.refused })}</th>
              <td className="num">{c.rows}</td>
              <td className="num">{pct(c.all.medianPct)}</td>
              <td className="num">{pct(c.all.p90Pct)}</td>
              <td className="num">–</td>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="field-help">
        {t('ind.compare', {
          pm: formatNumber(c.plainFormula.medianPct, t.lang, 1),
          pp: formatNumber(c.plainFormula.p90Pct, t.lang, 1),
          dm: formatNumber(c.development.medianPct, t.lang, 1),
          dp: formatNumber(c.development.p90Pct, t.lang, 1),
        })}
      </p>
    </section>
  );
}

/** How often the calculator's 80 % bands hold on the development rows, by leave-one-group-out cross-validation. */
export function BandCoverage({ scored }: { scored: readonly ScoredRow[] }) {
  const t = useAT();
  const m = useMemo(
    () => ({ raw: logoCoverage(scored, 1), widened: logoCoverage(scored, WIDEN_FACTOR), nested: nestedCoverage(scored), shipped: logoBandCoverage(scored), k: WIDEN_FACTOR }),
    [scored],
  );
  const share = (c: { covered: number; n: number }) => formatShare(c.covered / c.n, t.lang);
  return (
    <section className="panel" aria-labelledby="acc-cov-h" data-testid="acc-coverage">
      <h2 id="acc-cov-h">{t('cov.title')}</h2>
      <p className="field-help">{t('cov.help')}</p>
      <ul className="small">
        <li>{t('cov.raw', { pct: share(m.raw), n: m.raw.n })}</li>
        <li>{t('cov.widened', { k: formatNumber(m.k, t.lang, 2), pct: share(m.widened), nested: share(m.nested) })}</li>
        <li>{t('cov.shipped', { pct: share(m.shipped), n: m.shipped.n })}</li>
      </ul>
      <p className="field-help">{t('cov.note')}</p>
    </section>
  );
}
