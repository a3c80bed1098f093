import { useId, useState } from 'react';
import { resolveModel } from '../../core/estimate';
import { RULE_DTYPES, ruleOfThumb, type RuleDtype } from '../../core/rule-of-thumb';
import type { Estimate, Scenario } from '../../core/types';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes } from '../i18n/format';

/**
 * The guides' rule of thumb beside the full estimate (core/rule-of-thumb.ts): every parameter at one
 * width, each of its terms next to the estimate's terms of the same kind, and why they differ.
 */
export function RuleOfThumbPanel({ s, est }: { s: Scenario; est: Estimate }) {
  const t = useT();
  const unit = useApp((st) => st.unit);
  const [dtype, setDtype] = useState<RuleDtype>('int8');
  const selectId = useId();
  const model = resolveModel(s);
  if (!model.ok) return null;
  const r = ruleOfThumb(s, model.value.arch, est, dtype);
  if (!r.ok) return null;
  const rule = r.value;
  const bytes = (b: number) => formatBytes(b, unit, t.lang);
  return (
    <section className="panel" aria-labelledby="rot-h">
      <h2 id="rot-h">{t('rot.title')}</h2>
      <p className="small">{t(s.mode === 'training' ? 'rot.formulaTraining' : 'rot.formulaInference')}</p>
      <div className="row">
        <label htmlFor={selectId}>{t('rot.dtype')}</label>
        <select id={selectId} value={dtype} onChange={(e) => setDtype(e.target.value as RuleDtype)}>
          {RULE_DTYPES.map((d) => (
            <option key={d} value={d}>
              {d}
            </option>
          ))}
        </select>
      </div>
      <p>
        <strong>{t('rot.total', { bytes: bytes(rule.bytes), estimate: bytes(est.deviceBytes) })}</strong>
        {rule.largestBatch !== null && <> · {t('rot.largestBatch', { n: rule.largestBatch })}</>}
      </p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">{t('rot.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('rot.kind')}</th>
              <th scope="col" className="num">
                {t('rot.rule')}
              </th>
              <th scope="col" className="num">
                {t('rot.estimate')}
              </th>
            </tr>
          </thead>
          {/* the reason on its own full-width row: four columns do not fit a phone */}
          {rule.comparison.map((c) => (
            <tbody key={c.id}>
              <tr>
                <th scope="row">{t(`rot.kind.${c.id}`)}</th>
                <td className="num">{bytes(c.rule)}</td>
                <td className="num">{bytes(c.estimate)}</td>
              </tr>
              <tr>
                <td colSpan={3} className="small">
                  {t('rot.why', { reason: t.core(c.reason) })}
                </td>
              </tr>
            </tbody>
          ))}
        </table>
      </div>
    </section>
  );
}
