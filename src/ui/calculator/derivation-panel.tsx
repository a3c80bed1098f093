import type { Estimate } from '../../core/types';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes, formatNumber } from '../i18n/format';
import { zhTables } from '../i18n/zh-loader';
import type { Lang } from '../../state/store';

/** A worded derivation value in the page language (values-zh.ts); symbols, numbers and untranslated text as written. */
export function valueText(v: string | number, lang: Lang): string {
  if (typeof v === 'number') return formatNumber(v, lang, 4);
  return (lang === 'zh' ? zhTables()?.valueZh(v)?.zh : undefined) ?? v;
}

/** The chosen term's derivation: formula, the user's values for each symbol, and the source. */
export function DerivationPanel({ est }: { est: Estimate }) {
  const t = useT();
  const id = useApp((s) => s.term);
  const unit = useApp((s) => s.unit);
  const close = useApp((s) => s.openTerm);
  const term = est.terms.find((x) => x.id === id);
  if (!term) return null;
  const d = term.derivation;
  return (
    <section className="panel derivation" aria-labelledby="deriv-h" aria-live="polite">
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <h2 id="deriv-h">
          {t('deriv.title', { term: t(`term.${term.id}`) })}: {formatBytes(term.bytes, unit, t.lang)}
        </h2>
        <button type="button" onClick={() => close(null)}>
          {t('deriv.close')}
        </button>
      </div>
      <p className="small">{t(`termHelp.${term.id}`)}</p>
      <pre>{d.formula}</pre>
      {Object.keys(d.values).length > 0 && (
        <dl>
          {Object.entries(d.values).map(([k, v]) => (
            <div key={k} style={{ display: 'contents' }}>
              <dt>{k}</dt>
              <dd>{valueText(v, t.lang)}</dd>
            </div>
          ))}
        </dl>
      )}
      <p className="small">
        <strong>{t('deriv.source')}:</strong> {d.source}
      </p>
      <p className="small">
        <strong>{t('deriv.confidence')}:</strong> {t(`conf.${d.confidence}`)}
      </p>
      {d.note && <p className="small">{t.core(d.note)}</p>}
    </section>
  );
}
