/**
 * The events that led to an out-of-memory error (issue #13 §2): the last few events before the
 * first recorded `oom` entry of an imported snapshot, or else before the first OOM of the
 * simulation, each with its size and top user stack frame (frames.ts). The bytes of a free are
 * the block its tensor held (docs/reference/allocator.md §4: the whole block returns to the cache).
 */
import type { SimRun, StepOutcome } from './run';

export interface LeadUpRow {
  /** index in the run's events */
  step: number;
  line: number;
  op: 'alloc' | 'free' | 'empty_cache';
  name?: string;
  /** requested bytes (alloc) */
  size?: number;
  /** block bytes taken (alloc that succeeded) or given back (free) */
  block?: number;
  frame?: string;
  outcome: StepOutcome;
}

export interface OomLeadUp {
  /** the OOM event's index (the last row) */
  step: number;
  /** 'recorded': the snapshot's own `oom` entry; 'simulated': the replay's first OOM */
  source: 'recorded' | 'simulated';
  rows: LeadUpRow[];
}

/** Events shown before an OOM by default. */
export const LEAD_UP_EVENTS = 20;

const OUTCOMES: readonly StepOutcome[] = ['ok', 'oom', 'skipped'];

/** The `count` events before the first OOM and the OOM itself; null when the run has none. */
export function oomLeadUp(run: Pick<SimRun, 'events' | 'timeline' | 'oomSteps'>, count = LEAD_UP_EVENTS): OomLeadUp | null {
  const { events, timeline: t } = run;
  const recorded = events.findIndex((e) => e.op === 'alloc' && e.oom === true);
  const step = recorded >= 0 ? recorded : (run.oomSteps[0] ?? -1);
  if (step < 0) return null;
  const from = Math.max(0, step - Math.max(0, Math.floor(count)));
  // the block each live tensor holds, for the sizes of frees (from the start: a tensor may be old)
  const held = new Map<string, { block: number; frame?: string }>();
  const rows: LeadUpRow[] = [];
  for (let i = 0; i <= step; i++) {
    const e = events[i]!; // step < events.length
    const outcome = OUTCOMES[t.outcome[i]!]!;
    let row: LeadUpRow;
    if (e.op === 'alloc') {
      row = { step: i, line: e.line, op: 'alloc', name: e.name, size: e.size, outcome };
      if (e.frame !== undefined) row.frame = e.frame;
      if (outcome === 'ok') {
        row.block = t.blockSize[i]!;
        held.set(e.name, { block: row.block, ...(e.frame !== undefined ? { frame: e.frame } : {}) });
      }
    } else if (e.op === 'free') {
      row = { step: i, line: e.line, op: 'free', name: e.name, outcome };
      const h = held.get(e.name);
      if (h && outcome === 'ok') {
        row.block = h.block;
        if (h.frame !== undefined) row.frame = h.frame;
        held.delete(e.name);
      }
    } else row = { step: i, line: e.line, op: 'empty_cache', outcome };
    if (i >= from) rows.push(row);
  }
  return { step, source: recorded >= 0 ? 'recorded' : 'simulated', rows };
}
