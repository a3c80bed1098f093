import { useId } from 'react';
import { decodeOom } from '../../core/allocator/oom-decoder';
import { useLabT, type LabKey } from './lab-i18n';
import { OOM_SAMPLE_IDS, OOM_SAMPLES } from './lab-samples';
import { OomResult } from './oom-result';
import { useParsed } from './use-parsed';

export interface OomPanelProps {
  text: string;
  onText: (text: string) => void;
}

/** Paste an OOM error (or a whole log): decoded fields, derived figures, diagnosis and advice. */
export function OomPanel({ text, onText }: OomPanelProps) {
  const t = useLabT();
  const id = useId();
  const decoded = useParsed(text, decodeOom);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('oom.title')}</h2>
      <div className="lab-examples" role="group" aria-label={t('oom.examples')}>
        <span className="muted small">{t('oom.examples')}:</span>
        {OOM_SAMPLE_IDS.map((s) => (
          <button key={s} type="button" onClick={() => onText(OOM_SAMPLES[s])}>
            {t(`oom.ex.${s}` as LabKey)}
          </button>
        ))}
        <button type="button" onClick={() => onText('')} disabled={!text}>
          {t('oom.clear')}
        </button>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>{t('oom.paste')}</label>
        <textarea id={`${id}-text`} rows={7} value={text} spellCheck={false} autoComplete="off" onChange={(e) => onText(e.target.value)} />
      </div>
      {!decoded && <p className="muted">{t('oom.empty')}</p>}
      {decoded && !decoded.found && (
        <div className="lab-notice" role="status">
          <p>
            <strong>{t('oom.notOom')}</strong> {t.core(decoded.message)}
          </p>
          <p className="muted small">{t('oom.notOomHint')}</p>
          <pre>{decoded.example}</pre>
        </div>
      )}
      {decoded?.found && <OomResult oom={decoded.oom} others={decoded.count - 1} />}
    </section>
  );
}
