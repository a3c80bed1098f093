import { useId } from 'react';
import { formatNumber } from '../i18n/format';
import { errorStats } from '../../validation/score';
import { ALL, type AccuracyData, type AccuracyRow, type Filters } from './accuracy-data';
import { useAT } from './accuracy-i18n';

interface Choice {
  key: keyof Filters;
  label: string;
  options: { value: string; label: string }[];
}

/** Source, mode and model filters, and the error of the rows they leave. */
export function FilterBar({ data, filters, onChange, shown }: { data: AccuracyData; filters: Filters; onChange: (f: Filters) => void; shown: AccuracyRow[] }) {
  const t = useAT();
  const id = useId();
  const choices: Choice[] = [
    { key: 'source', label: t('filter.source'), options: data.sources.map((s) => ({ value: s, label: s })) },
    { key: 'mode', label: t('filter.mode'), options: (['inference', 'training'] as const).map((m) => ({ value: m, label: t(`mode.${m}`) })) },
    { key: 'model', label: t('filter.model'), options: data.models.map((m) => ({ value: m, label: m })) },
  ];
  const st = errorStats(shown.map((r) => r.errPct));
  const pct = (x: number) => formatNumber(x, t.lang, 1);
  return (
    <div className="acc-filters" role="group" aria-label={t('filter.title')}>
      {choices.map((c) => (
        <div className="field" key={c.key}>
          <label htmlFor={`${id}-${c.key}`}>{c.label}</label>
          <select id={`${id}-${c.key}`} value={filters[c.key]} onChange={(e) => onChange({ ...filters, [c.key]: e.target.value })}>
            <option value={ALL}>{t('filter.all')}</option>
            {c.options.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      <p className="small acc-shown" role="status" data-testid="acc-shown">
        {t('filter.shown', { n: shown.length, total: data.rows.length })}
        {st && ` · ${t('sum.median')} ${pct(st.medianPct)} % · ${t('sum.p90')} ${pct(st.p90Pct)} %`}
      </p>
    </div>
  );
}
