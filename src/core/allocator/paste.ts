/**
 * What a pasted text is, among the three things PyTorch prints about memory: an out-of-memory
 * message (oom-decoder.ts), the dict of torch.cuda.memory_stats() (stats-dict.ts) or the
 * torch.cuda.memory_summary() table (summary.ts). Tried in that order; a reader that recognises
 * the text but cannot read it (a figure out of range) answers with its message.
 */
import type { Message } from '../types';
import type { AdviceContext } from './advice-fit';
import { decodeOom, OOM_EXAMPLE, type OomDecode } from './oom-decoder';
import { parseMemoryStats, type StatsReading } from './stats-dict';
import { parseMemorySummary, type SummaryReading } from './summary';

export type PasteReading =
  | { kind: 'oom'; decode: Extract<OomDecode, { found: true }> }
  | { kind: 'stats'; stats: StatsReading }
  | { kind: 'summary'; summary: SummaryReading }
  | { kind: 'none'; message: Message; example: string };

const NOT_FOUND = new Set(['oom-not-found', 'stats-not-found', 'summary-not-found']);

/** Reads `text` as whichever of the three it is. `conf`: the user's PYTORCH_CUDA_ALLOC_CONF, for the advice. Never throws. */
export function readPaste(text: string, conf: AdviceContext['conf'] = null): PasteReading {
  const oom = decodeOom(text, conf);
  if (oom.found) return { kind: 'oom', decode: oom };
  if (!NOT_FOUND.has(oom.message.code)) return { kind: 'none', message: oom.message, example: OOM_EXAMPLE };
  const stats = parseMemoryStats(text, conf);
  if (stats.ok) return { kind: 'stats', stats: stats.value };
  if (!NOT_FOUND.has(stats.message.code)) return { kind: 'none', message: stats.message, example: OOM_EXAMPLE };
  const summary = parseMemorySummary(text, conf);
  if (summary.ok) return { kind: 'summary', summary: summary.value };
  if (!NOT_FOUND.has(summary.message.code)) return { kind: 'none', message: summary.message, example: OOM_EXAMPLE };
  return {
    kind: 'none',
    message: {
      code: 'paste-not-found',
      text: 'No PyTorch out-of-memory message, memory_stats() dict or memory_summary() table found. Paste the error line (with or without its traceback); it looks like the example.',
    },
    example: OOM_EXAMPLE,
  };
}
