import { useId } from 'react';
import { TRACE_PRESETS } from '../../core/allocator/presets';
import type { TraceError } from '../../core/allocator/trace';
import { useLabT } from './lab-i18n';

export interface TraceEditorProps {
  text: string;
  /** preset id when the text is an unchanged preset */
  preset: string | null;
  errors: TraceError[];
  /** line of the step shown, marked in the gutter */
  currentLine: number | null;
  onText: (text: string) => void;
  onPreset: (id: string) => void;
}

/** Trace textarea with a line-number gutter, preset picker and parse errors by line. */
export function TraceEditor(p: TraceEditorProps) {
  const t = useLabT();
  const id = useId();
  const lineCount = p.text.split('\n').length;
  const bad = new Set(p.errors.map((e) => e.line));
  const current = TRACE_PRESETS.find((x) => x.id === p.preset);
  return (
    <div className="lab-editor">
      <div className="field">
        <label htmlFor={`${id}-preset`}>{t('sim.preset')}</label>
        <select id={`${id}-preset`} value={p.preset ?? ''} onChange={(e) => e.target.value && p.onPreset(e.target.value)}>
          {!p.preset && <option value="">{t('sim.custom')}</option>}
          {TRACE_PRESETS.map((x) => (
            <option key={x.id} value={x.id}>
              {t.core(x.title)}
            </option>
          ))}
        </select>
        {current && <p className="field-help">{t.core(current.description)}</p>}
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>{t('sim.trace')}</label>
        <div className="lab-code">
          <pre className="lab-gutter" aria-hidden="true">
            {Array.from({ length: Math.min(lineCount, 5000) }, (_, i) => (
              <span key={i} className={[bad.has(i + 1) ? 'bad' : '', p.currentLine === i + 1 ? 'now' : ''].join(' ').trim() || undefined}>
                {i + 1}
                {'\n'}
              </span>
            ))}
          </pre>
          <textarea
            id={`${id}-text`}
            value={p.text}
            rows={Math.min(22, Math.max(8, lineCount + 1))}
            wrap="off"
            spellCheck={false}
            autoComplete="off"
            aria-invalid={p.errors.length ? true : undefined}
            aria-describedby={`${id}-help${p.errors.length ? ` ${id}-err` : ''}`}
            onChange={(e) => p.onText(e.target.value)}
            onScroll={(e) => {
              const g = e.currentTarget.previousElementSibling;
              if (g) g.scrollTop = e.currentTarget.scrollTop;
            }}
          />
        </div>
        <p id={`${id}-help`} className="field-help">
          {t('sim.traceHelp')}
        </p>
        {p.errors.length > 0 && (
          <div id={`${id}-err`} className="lab-errors" role="alert">
            <p>{t('sim.errors')}</p>
            <ul>
              {p.errors.map((e, i) => (
                <li key={i} data-line={e.line}>
                  {t.lang === 'en' ? e.message : `${t('sim.line', { line: e.line })}：${t.core({ code: e.code, text: e.message })}`}
                  {t.lang !== 'en' && <span className="muted small"> ({e.message})</span>}
                </li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </div>
  );
}
