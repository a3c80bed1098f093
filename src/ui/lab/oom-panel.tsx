import { useId } from 'react';
import { useLabT, type LabKey } from './lab-i18n';
import { OOM_SAMPLE_IDS, OOM_SAMPLES } from './lab-samples';
import { PasteResult, usePaste } from './paste-result';
import { RunConfField, useRunConf } from './run-conf';

export interface OomPanelProps {
  text: string;
  onText: (text: string) => void;
  /** the run's PYTORCH_CUDA_ALLOC_CONF, as typed */
  runconf: string;
  onRunconf: (text: string) => void;
}

/** Paste an OOM error (or a whole log, a memory_stats() dict, a memory_summary() table): decoded fields, derived figures, diagnosis and advice. */
export function OomPanel({ text, onText, runconf, onRunconf }: OomPanelProps) {
  const t = useLabT();
  const id = useId();
  const rc = useRunConf(runconf);
  const reading = usePaste(text, rc.conf);
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
      <RunConfField text={runconf} error={rc.error} onText={onRunconf} />
      {!reading && <p className="muted">{t('oom.empty')}</p>}
      {reading && <PasteResult reading={reading} />}
    </section>
  );
}
