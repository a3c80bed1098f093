/**
 * The lab's simulator behind a small request → response protocol. It keeps one simulated run and
 * answers what the panel shows: the run's summary and chart series, any step's state, and the
 * trace under other settings. The same engine answers on the page for short hand-typed traces
 * (use-simulation.ts) and in sim.worker.ts for imports and long traces, so the views have one
 * source. Responses are plain data (structured clone).
 */
import { comparisonRow, type ConfComparison } from '../../core/allocator/compare';
import { activeByFrame, type FrameSeries } from '../../core/allocator/frame-series';
import { oomLeadUp, type OomLeadUp } from '../../core/allocator/oom-lead-up';
import { simulateTrace, stepAt, viewAt, type SimRun, type StepRecord } from '../../core/allocator/run';
import { fragmentationPoints, timelinePoints, type FragmentationPoint, type MemoryPoint } from '../../core/allocator/run-series';
import type { Trace } from '../../core/allocator/trace';
import { unpackTrace, type PackedTrace } from '../../core/allocator/trace-pack';
import type { AllocatorView } from '../../core/allocator/view';
import type { FieldError, Message } from '../../core/types';

export type SimRequest =
  /** the trace packed (trace-pack.ts): cheap to hand to a worker */
  | { kind: 'load'; trace: PackedTrace; capacity?: number; conf?: string }
  /** step: −1 before the first event; null the last */
  | { kind: 'step'; step: number | null }
  | { kind: 'compare'; confs: string[] };

export interface RunSummary {
  events: number;
  capacity: number;
  confText: string;
  peakAllocated: number;
  peakReserved: number;
  oomCount: number;
  /** line of the first OOM, or null */
  firstOomLine: number | null;
  notes: Message[];
  timeline: MemoryPoint[];
  fragmentation: FragmentationPoint[];
  /** null when no allocation carries a stack frame */
  byFrame: FrameSeries | null;
  leadUp: OomLeadUp | null;
}

export type LoadResult = { ok: true; summary: RunSummary } | { ok: false; errors: FieldError[] };

export interface StepResult {
  /** the step shown (−1 before the first event) */
  step: number;
  view: AllocatorView;
  rec: StepRecord | null;
}

export type CompareColumn = { conf: string; row: ConfComparison | null; errors: FieldError[] };

export type SimResponse = { kind: 'load'; result: LoadResult } | { kind: 'step'; result: StepResult | null } | { kind: 'compare'; result: CompareColumn[] | null };

type ResultOf<K extends SimRequest['kind']> = Extract<SimResponse, { kind: K }>['result'];

/** The result of `res`, which answers a request of `kind` (the engine answers in kind; anything else reads as null). */
export const resultOf = <K extends SimRequest['kind']>(res: SimResponse, kind: K): ResultOf<K> => (res.kind === kind ? res.result : null) as ResultOf<K>;

export interface SimEngine {
  handle(req: SimRequest): SimResponse;
}

function summarize(run: SimRun): RunSummary {
  const first = run.oomSteps[0];
  return {
    events: run.events.length,
    capacity: run.settings.capacity,
    confText: run.settings.confText,
    peakAllocated: run.peakAllocated,
    peakReserved: run.peakReserved,
    oomCount: run.oomSteps.length,
    firstOomLine: first === undefined ? null : run.events[first].line,
    notes: run.notes,
    timeline: timelinePoints(run.timeline),
    fragmentation: fragmentationPoints(run.timeline),
    byFrame: activeByFrame(run),
    leadUp: oomLeadUp(run),
  };
}

/** A fresh engine holding no run; 'step' and 'compare' answer null until a 'load' succeeds. */
export function createSimEngine(): SimEngine {
  let loaded: { trace: Trace; capacity?: number; run: SimRun } | null = null;
  return {
    handle(req) {
      if (req.kind === 'load') {
        loaded = null;
        const trace = unpackTrace(req.trace);
        const r = simulateTrace(trace, { capacity: req.capacity, conf: req.conf });
        if (!r.ok) return { kind: 'load', result: { ok: false, errors: r.errors } };
        loaded = { trace, capacity: req.capacity, run: r.value };
        return { kind: 'load', result: { ok: true, summary: summarize(r.value) } };
      }
      if (!loaded) return { kind: req.kind, result: null };
      const { run, trace, capacity } = loaded;
      if (req.kind === 'step') {
        const n = run.events.length;
        const step = req.step === null ? n - 1 : Math.max(-1, Math.min(n - 1, Math.floor(req.step)));
        return { kind: 'step', result: { step, view: viewAt(run, step), rec: step >= 0 ? stepAt(run, step) : null } };
      }
      const columns = req.confs.map((conf): CompareColumn => {
        const r = simulateTrace(trace, { capacity, conf });
        return r.ok ? { conf, row: comparisonRow(conf, r.value), errors: [] } : { conf, row: null, errors: r.errors };
      });
      return { kind: 'compare', result: columns };
    },
  };
}
