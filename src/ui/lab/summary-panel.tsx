import { useId } from 'react';
import { formatMemorySummary } from '../../core/allocator/summary';
import type { MemoryStats } from '../../core/allocator/stats';
import { findPreset } from '../../core/allocator/presets';
import { parseTrace } from '../../core/allocator/trace';
import { simulateTrace } from '../../core/allocator/run';
import { useLabT } from './lab-i18n';
import { PasteResult, usePaste } from './paste-result';
import { RunConfField, useRunConf } from './run-conf';

/** memory_stats() of the simulated fragmentation preset (docs/reference/allocator.md §9 ii) after its OOM; null if it does not run. */
function fragmentationStats(): MemoryStats | null {
  const p = parseTrace(findPreset('fragmentation-oom')?.text ?? '');
  const r = p.ok ? simulateTrace(p.trace) : null;
  return r?.ok ? r.value.final.stats : null;
}

/** The memory_summary() example: the table PyTorch would print for that state. */
export function exampleSummary(): string {
  const s = fragmentationStats();
  return s ? formatMemorySummary(s) : '';
}

/** The memory_stats() example: the same state as print(torch.cuda.memory_stats()) shows it before Python 3.12. */
export function exampleStats(): string {
  const s = fragmentationStats();
  return s
    ? `OrderedDict([${Object.entries(s)
        .map(([k, v]) => `('${k}', ${v})`)
        .join(', ')}])`
    : '';
}

/** Paste torch.cuda.memory_summary() or memory_stats() (or an OOM message): what it says, fragmentation figures and advice. */
export function SummaryPanel({ text, onText, runconf, onRunconf }: { text: string; onText: (text: string) => void; runconf: string; onRunconf: (text: string) => void }) {
  const t = useLabT();
  const id = useId();
  const rc = useRunConf(runconf);
  const reading = usePaste(text, rc.conf);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>{t('sum.title')}</h2>
      <div className="lab-examples" role="group" aria-label={t('oom.examples')}>
        <span className="muted small">{t('oom.examples')}:</span>
        <button type="button" onClick={() => onText(exampleSummary())}>
          {t('sum.example')}
        </button>
        <button type="button" onClick={() => onText(exampleStats())}>
          {t('sum.exampleStats')}
        </button>
        <button type="button" onClick={() => onText('')} disabled={!text}>
          {t('oom.clear')}
        </button>
      </div>
      <div className="field">
        <label htmlFor={`${id}-text`}>{t('sum.paste')}</label>
        <textarea id={`${id}-text`} className="lab-summary-text" rows={10} wrap="off" value={text} spellCheck={false} autoComplete="off" onChange={(e) => onText(e.target.value)} />
      </div>
      <RunConfField text={runconf} error={rc.error} onText={onRunconf} />
      {!reading && <p className="muted">{t('sum.empty')}</p>}
      {reading && <PasteResult reading={reading} />}
    </section>
  );
}
