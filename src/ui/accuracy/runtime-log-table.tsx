import { useMemo } from 'react';
import { formatNumber, signedPct } from '../i18n/format';
import { runtimeLogChecks, TOLERANCES } from '../../validation/runtime-logs';
import { useAT } from './accuracy-i18n';

/**
 * The llama.cpp and vLLM start-up figures from public GitHub issues against the matching term of
 * our estimate (src/validation/runtime-logs, the code tests/validation/runtime-logs.test.ts runs).
 */
export function RuntimeLogTable() {
  const t = useAT();
  const checks = useMemo(() => runtimeLogChecks(), []);
  const n = (x: number, unit: string) => formatNumber(x, t.lang, unit === 'tokens' ? 0 : 2);
  return (
    <section className="panel" aria-labelledby="acc-logs-h">
      <h2 id="acc-logs-h">{t('logs.title')}</h2>
      <p className="field-help">{t('logs.help')}</p>
      <div className="table-wrap acc-table">
        <table data-testid="acc-logs">
          <thead>
            <tr>
              <th scope="col">{t('col.id')}</th>
              <th scope="col">{t('logs.engine')}</th>
              <th scope="col">{t('logs.component')}</th>
              <th scope="col" className="num">
                {t('logs.printed')}
              </th>
              <th scope="col" className="num">
                {t('col.estimate')}
              </th>
              <th scope="col" className="num">
                {t('col.error')}
              </th>
              <th scope="col">{t('logs.tolerance')}</th>
            </tr>
          </thead>
          <tbody>
            {checks.map((c) => {
              const tol = TOLERANCES[c.component];
              return (
                <tr key={`${c.row}-${c.component}`}>
                  <td>
                    <a href={c.source} rel="noreferrer" target="_blank">
                      {c.row}
                    </a>
                  </td>
                  <td>{c.engine}</td>
                  <td>{c.component}</td>
                  <td className="num">
                    {n(c.printed, c.unit)} {c.unit}
                  </td>
                  <td className="num">
                    {n(c.ours, c.unit)} {c.unit}
                  </td>
                  <td className="num">{signedPct(c.errorPct, t.lang)}</td>
                  <td title={tol.why} className={c.within ? undefined : c.gated ? 'acc-bad' : 'muted'}>
                    {tol.abs !== undefined ? `± ${tol.abs} ${c.unit}` : `± ${tol.pct} %`} {c.within ? '✓' : c.gated ? '✗' : t('logs.info')}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}
