/**
 * The same trace under several PYTORCH_CUDA_ALLOC_CONF values, side by side: the what-if table
 * behind "fragmentation OOMs unless max_split_size_mb or expandable_segments changes"
 * (docs/reference/allocator.md §9 ii).
 */
import type { FieldError, Result } from '../types';
import { simulateTrace, type SimOptions, type SimRun } from './run';
import type { Trace } from './trace';

export interface ConfComparison {
  conf: string;
  ooms: number;
  /** 1-based line of the first OOM, or null */
  firstOomLine: number | null;
  /** lines of the first OOMs (at most OOM_LINES) */
  oomLines: number[];
  peakAllocated: number;
  peakReserved: number;
  finalReserved: number;
  finalAllocated: number;
  /** segment.all.current at the end */
  segments: number;
  /** num_alloc_retries: full cache flushes that were needed */
  retries: number;
  /** num_device_alloc: cudaMalloc / page-map calls */
  deviceAllocs: number;
}

/** The default settings plus the usual cures, for when the caller names none. */
export const DEFAULT_COMPARISON = ['', 'max_split_size_mb:128', 'expandable_segments:True'] as const;

/** OOM lines listed per setting; the count says how many there were. */
export const OOM_LINES = 10;

/** One column of the comparison: the figures of `run`, simulated under `conf`. */
export function comparisonRow(conf: string, run: SimRun): ConfComparison {
  const s = run.final.stats;
  const oomLines = run.oomSteps.slice(0, OOM_LINES).map((i) => run.source.event(i).line); // OOM steps index the events
  return {
    conf,
    ooms: run.oomSteps.length,
    firstOomLine: oomLines[0] ?? null,
    oomLines,
    peakAllocated: run.peakAllocated,
    peakReserved: run.peakReserved,
    finalReserved: s['reserved_bytes.all.current'],
    finalAllocated: s['allocated_bytes.all.current'],
    segments: s['segment.all.current'],
    retries: s.num_alloc_retries,
    deviceAllocs: s.num_device_alloc,
  };
}

/** Simulates `trace` once per conf (each overriding the trace's own), with the other options shared. */
export function compareConfs(trace: Trace, confs: readonly string[] = DEFAULT_COMPARISON, options: Omit<SimOptions, 'conf'> = {}): Result<ConfComparison[]> {
  const rows: ConfComparison[] = [];
  const errors: FieldError[] = [];
  for (const conf of confs) {
    const r = simulateTrace(trace, { ...options, conf });
    if (!r.ok) {
      errors.push(...r.errors.map((e) => ({ ...e, params: { ...e.params, conf } })));
      continue;
    }
    rows.push(comparisonRow(conf, r.value));
  }
  return errors.length ? { ok: false, errors } : { ok: true, value: rows };
}
