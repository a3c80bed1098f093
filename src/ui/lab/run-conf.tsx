import { useId, useMemo } from 'react';
import type { AdviceContext } from '../../core/allocator/advice-fit';
import { parseAllocConf } from '../../core/allocator/config';
import type { FieldError } from '../../core/types';
import { useLabT } from './lab-i18n';

/** The run's PYTORCH_CUDA_ALLOC_CONF as the advice reads it: null when blank or invalid (the error says why). */
export function useRunConf(text: string): { conf: AdviceContext['conf']; error: FieldError | null } {
  return useMemo(() => {
    if (!text.trim()) return { conf: null, error: null };
    const r = parseAllocConf(text);
    return r.ok ? { conf: { text, value: r.value }, error: null } : { conf: null, error: r.errors[0] ?? null };
  }, [text]);
}

/** "Your PYTORCH_CUDA_ALLOC_CONF": the setting the pasted run had, so advice leaves out what it already sets. */
export function RunConfField({ text, error, onText }: { text: string; error: FieldError | null; onText: (text: string) => void }) {
  const t = useLabT();
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={`${id}-conf`}>{t('runconf.label')}</label>
      <input
        id={`${id}-conf`}
        className="lab-runconf"
        type="text"
        value={text}
        spellCheck={false}
        autoComplete="off"
        placeholder="expandable_segments:True,max_split_size_mb:128"
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-conf-help${error ? ` ${id}-conf-err` : ''}`}
        onChange={(e) => onText(e.target.value)}
      />
      {error && (
        <p id={`${id}-conf-err`} className="field-msg" role="alert">
          {t('runconf.bad')} {t.core(error)} <code>{error.message}</code>
        </p>
      )}
      <p id={`${id}-conf-help`} className="field-help">
        {t('runconf.help')}
      </p>
    </div>
  );
}
