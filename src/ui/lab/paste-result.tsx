import { useCallback } from 'react';
import type { AdviceContext } from '../../core/allocator/advice-fit';
import { readPaste, type PasteReading } from '../../core/allocator/paste';
import { useLabT } from './lab-i18n';
import { OomResult } from './oom-result';
import { StatsResult } from './stats-result';
import { SummaryResult } from './summary-result';
import { useParsed } from './use-parsed';

/** `text` read as an OOM message, a memory_stats() dict or a memory_summary() table (core/allocator/paste.ts), off the typing path. */
export function usePaste(text: string, conf: AdviceContext['conf']): PasteReading | null {
  const parse = useCallback((x: string) => readPaste(x, conf), [conf]);
  return useParsed(text, parse);
}

/** Whichever of the three the text is, or what was found wrong, with the example of an OOM message. */
export function PasteResult({ reading }: { reading: PasteReading }) {
  const t = useLabT();
  if (reading.kind === 'oom') return <OomResult oom={reading.decode.oom} others={reading.decode.count - 1} />;
  if (reading.kind === 'stats') return <StatsResult r={reading.stats} />;
  if (reading.kind === 'summary') return <SummaryResult r={reading.summary} />;
  return (
    <div className="lab-notice" role="status">
      <p>
        <strong>{t('oom.notOom')}</strong> {t.core(reading.message)}
      </p>
      <p className="muted small">{t('oom.notOomHint')}</p>
      <pre>{reading.example}</pre>
    </div>
  );
}
