import { useMemo } from 'react';
import { formatNumber, signedPct } from '../i18n/format';
import { GPU_ENV, scoreGpuRows } from '../../validation/measured-gpu';
import { GiB } from '../../core/units';
import { useAT } from './accuracy-i18n';

/**
 * Our own Trainer runs on a GPU (src/validation/measured-gpu, the code
 * tests/validation/measured-gpu.test.ts runs): both measured totals against the estimate.
 */
export function GpuRunTable() {
  const t = useAT();
  const scores = useMemo(() => scoreGpuRows(), []);
  const gib = (x: number) => `${formatNumber(x / GiB, t.lang, 2)} GiB`;
  const env = GPU_ENV as Record<string, string>;
  return (
    <section className="panel" aria-labelledby="acc-gpu-h">
      <h2 id="acc-gpu-h">{t('gpu.title')}</h2>
      <p className="field-help">{t('gpu.help', { gpu: env.gpu, torch: env.torch, transformers: env.transformers, peft: env.peft })}</p>
      <div className="table-wrap acc-table">
        <table data-testid="acc-gpu-runs">
          <thead>
            <tr>
              <th scope="col">{t('col.id')}</th>
              <th scope="col">{t('gpu.setting')}</th>
              <th scope="col" className="num">
                {t('gpu.allocated')}
              </th>
              <th scope="col" className="num">
                {t('gpu.reserved')}
              </th>
            </tr>
          </thead>
          <tbody>
            {scores.map((s) => {
              const st = s.row.settings;
              return (
                <tr key={s.id}>
                  <td>{s.id}</td>
                  <td>{`${st.preset} · ${st.method} · ${st.precision} · ${st.batch} × ${st.seq}${st.ckpt ? ' · ckpt' : ''} · ${st.lengths}${s.row.gpu ? ` · ${s.row.gpu}` : ''}`}</td>
                  <td className="num">
                    {gib(s.measuredAllocated)} / {gib(s.predictedAllocated)} / {signedPct(s.allocatedErrPct, t.lang)}
                  </td>
                  <td className="num">
                    {gib(s.measuredReserved)} / {gib(s.predictedReserved)} / {signedPct(s.reservedErrPct, t.lang)}
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
