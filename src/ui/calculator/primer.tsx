import { useT } from '../i18n';

/** A short primer on parameters, precision and the three totals, for newcomers. */
export function Primer() {
  const t = useT();
  return (
    <details className="panel">
      <summary>{t('primer.title')}</summary>
      <p>{t('primer.params')}</p>
      <table>
        <caption className="visually-hidden">{t('primer.tableCaption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('primer.format')}</th>
            <th scope="col" className="num">{t('primer.bytes')}</th>
            <th scope="col" className="num">{t('primer.seven')}</th>
          </tr>
        </thead>
        <tbody>
          {/* bytes per parameter: IEEE fp32/fp16, bf16; int8; 4-bit NF4 with blockwise absmax (formulas.md §2.1–2.2) */}
          {[
            ['fp32', 4],
            ['fp16 / bf16', 2],
            ['int8 / fp8', 1],
            ['nf4 / int4', 0.5],
          ].map(([name, bytes]) => (
            <tr key={name}>
              <td>{name}</td>
              <td className="num">{bytes}</td>
              <td className="num">{((7e9 * Number(bytes)) / 2 ** 30).toFixed(1)} GiB</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>{t('primer.training')}</p>
      <p>{t('primer.inference')}</p>
      <p>{t('primer.totals')}</p>
      <p>{t('primer.units')}</p>
    </details>
  );
}
