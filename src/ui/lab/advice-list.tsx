import type { Advice } from '../../core/allocator/advice';
import { LAB_CORE_ZH } from './lab-core-zh';
import { useLabT, type LabT } from './lab-i18n';

/**
 * Advice in the page language, looked up under `prefix` ('advice' for OOM messages, 'summary-advice' where the
 * same action reads differently for a memory_summary() / memory_stats() reading); a variant has its own text or
 * reason where the table has one.
 */
export function adviceText(t: LabT, a: Advice, prefix: 'advice' | 'summary-advice' = 'advice'): { text: string; why: string } {
  const code = (suffix: string) => {
    const specific = `${prefix}.${a.code}.${a.variant}${suffix}`;
    return a.variant && Object.hasOwn(LAB_CORE_ZH, specific) ? specific : `${prefix}.${a.code}${suffix}`;
  };
  return {
    text: t.core({ code: code(''), params: a.params, text: a.text }),
    why: t.core({ code: code('.why'), params: a.params, text: a.why }),
  };
}

/** The numbered actions, each with the line to export when it sets an environment variable, and its reason. */
export function AdviceList({ advice, prefix = 'advice' }: { advice: readonly Advice[]; prefix?: 'advice' | 'summary-advice' }) {
  const t = useLabT();
  return (
    <ol className="lab-advice">
      {advice.map((a, i) => {
        const x = adviceText(t, a, prefix);
        return (
          <li key={`${a.code}-${i}`} data-advice={a.code}>
            <span>{x.text}</span>
            {typeof a.params.value === 'string' && a.params.env && <pre className="lab-env">{`export ${a.params.env}=${a.params.value}`}</pre>}
            <p className="muted small">
              {t('oom.why')} {x.why}
            </p>
          </li>
        );
      })}
    </ol>
  );
}
