import type { DecodedOom, OomField } from '../../core/allocator/oom-decoder';
import { defaultScenario } from '../../core/scenario/schema';
import { encodeUrl } from '../../state/url-codec';
import { AdviceList } from './advice-list';
import { useLabT, type LabKey } from './lab-i18n';

/** Calculator link with the card's capacity as a custom GPU (scenario key `gpu`, e.g. "23.64gib"). */
export function calculatorHref(total: OomField, lang: 'en' | 'zh'): string {
  const gpu = total.text.replace(/\s+/g, '').toLowerCase();
  return `?${encodeUrl({ ...defaultScenario(), gpu }, { lang: lang === 'en' ? undefined : lang })}`;
}

function FieldsTable({ fields }: { fields: OomField[] }) {
  const t = useLabT();
  return (
    <div className="table-wrap">
      <table className="lab-fields">
        <caption className="visually-hidden">{t('oom.fields')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('oom.field')}</th>
            <th scope="col">{t('oom.printed')}</th>
            <th scope="col" className="num">
              {t('oom.bytes')}
            </th>
            <th scope="col">{t('oom.meaning')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f, i) => (
            <tr key={`${f.key}-${i}`} data-field={f.key}>
              <th scope="row">{t(`oom.field.${f.key}` as LabKey)}</th>
              <td>
                <code>{f.text}</code>
              </td>
              <td className="num">{f.key === 'device' ? '' : `${t.exact(f.value)}${f.precision ? ` ± ${t.bytes(f.precision)}` : ''}`}</td>
              <td>{t.core(f.meaning)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Derived({ oom }: { oom: DecodedOom }) {
  const t = useLabT();
  const d = oom.derived;
  const rows: [LabKey, number | null][] = [
    ['oom.d.reserved', d.reserved],
    ['oom.d.unallocated', d.unallocated],
    ['oom.d.nonPyTorch', d.nonPyTorch],
    ['oom.d.otherProcesses', d.otherProcesses],
    ['oom.d.usedOutside', d.usedOutsideAllocator],
  ];
  const shown = rows.filter(([, v]) => v !== null) as [LabKey, number][];
  if (!shown.length && !d.request) return null;
  return (
    <>
      <h3>{t('oom.derived')}</h3>
      <dl className="lab-dl">
        {shown.map(([k, v]) => (
          <div key={k}>
            <dt>{t(k)}</dt>
            <dd>
              <strong>{t.bytes(v)}</strong> <span className="muted small">({t.exact(v)})</span>
            </dd>
          </div>
        ))}
      </dl>
      {d.assumedSelfPid !== null && <p className="muted small">{t('oom.d.assumedSelf', { pid: d.assumedSelfPid })}</p>}
      {d.request && (
        <>
          <h3>{t('oom.request')}</h3>
          <p>{t.core(d.request.message)}</p>
        </>
      )}
    </>
  );
}

/** Everything decoded from one OOM message: fields, derived figures, diagnosis, advice, calculator link. */
export function OomResult({ oom, others }: { oom: DecodedOom; others: number }) {
  const t = useLabT();
  const total = oom.fields.find((f) => f.key === 'total');
  return (
    <div className="lab-result" aria-live="polite">
      {others > 0 && <p className="muted">{t('oom.more', { n: others })}</p>}
      <dl className="lab-dl inline">
        <div>
          <dt>{t('oom.version')}</dt>
          <dd>{t.core(oom.version)}</dd>
        </div>
        {oom.exception && (
          <div>
            <dt>{t('oom.exception')}</dt>
            <dd>
              <code>{oom.exception}</code>
            </dd>
          </div>
        )}
        <div>
          <dt>{t('oom.backend')}</dt>
          <dd>{oom.backend === 'hip' ? 'ROCm (HIP)' : 'CUDA'}</dd>
        </div>
      </dl>
      {oom.kind === 'driver' && <p className="lab-diagnosis">{t('oom.kind.driver')}</p>}
      {oom.kind === 'over-1eb' && <p className="lab-diagnosis">{t('oom.kind.over1eb')}</p>}
      {oom.kind === 'allocator' && (
        <>
          {oom.diagnosis && (
            <section className={`lab-diagnosis diag-${oom.diagnosis.code}`} aria-labelledby="oom-diag-h">
              <h3 id="oom-diag-h">{t('oom.diagnosis')}</h3>
              <p className="diag-text">{t.core(oom.diagnosis.message)}</p>
              <h3>{t('oom.advice')}</h3>
              <AdviceList advice={oom.diagnosis.advice} />
            </section>
          )}
          {!oom.complete && <p className="field-msg">{t('oom.incomplete')}</p>}
          <h3>{t('oom.fields')}</h3>
          <FieldsTable fields={oom.fields} />
          <Derived oom={oom} />
          {total && (
            <p>
              <a href={calculatorHref(total, t.lang)}>{t('oom.calcLink', { cap: total.text })}</a>
            </p>
          )}
        </>
      )}
    </div>
  );
}
