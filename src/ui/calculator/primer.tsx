import { bytesPerParamNominal } from '../../core/formats/weights';
import type { WeightFormat } from '../../core/types';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes, formatNumber } from '../i18n/format';

/** Each row's nominal width, from the core (docs/reference/formulas.md §2.1: IEEE fp64/fp32/fp16, bf16; plain int8 / int4). */
const ROWS: [string, WeightFormat][] = [
  ['fp64', 'fp64'],
  ['fp32', 'fp32'],
  ['fp16 / bf16', 'bf16'],
  ['int8', 'int8'],
  ['int4', 'int4'],
];

/** A short primer on parameters, precision and the three totals, for newcomers. */
export function Primer() {
  const t = useT();
  const unit = useApp((st) => st.unit);
  return (
    <details className="panel">
      <summary>{t('primer.title')}</summary>
      <p>{t('primer.params')}</p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{t('primer.tableCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('primer.format')}</th>
              <th scope="col" className="num">
                {t('primer.bytes')}
              </th>
              <th scope="col" className="num">
                {t('primer.seven')}
              </th>
            </tr>
          </thead>
          <tbody>
            {ROWS.map(([name, format]) => (
              <tr key={name}>
                <td>{name}</td>
                <td className="num">{formatNumber(bytesPerParamNominal(format), t.lang)}</td>
                <td className="num">{formatBytes(7e9 * bytesPerParamNominal(format), unit, t.lang)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>{t('primer.plainVsBnb')}</p>
      <p>{t('primer.training')}</p>
      <p>{t('primer.inference')}</p>
      <p>{t('primer.totals')}</p>
      <p>{t('primer.units')}</p>
    </details>
  );
}
