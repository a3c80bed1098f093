/**
 * The step timeline: one training step (or an inference run) as tensor allocations replayed
 * through the caching-allocator model, and the estimate with its reserved memory taken from that
 * replay when sample lengths vary (`lengths=varied`). The closed form (estimate()) stays the fast
 * path; this costs milliseconds and runs only when asked for.
 */
import { estimateDetail, type EstimateDetail } from '../estimate';
import { term } from '../estimate-context';
import { sub, sym } from '../formula';
import { resolveGpu } from '../gpus';
import { CUDA_CONTEXT_BYTES } from '../runtime';
import type { Estimate, Message, Result, Scenario } from '../types';
import type { TraceEvent } from '../allocator/trace';
import { replayInference } from './inference';
import { stepLengths } from './lengths';
import { Replay, type TimelinePoint } from './replay';
import { replayTraining, type StepShape } from './training';

export { CATEGORIES, type Category, type Phase, type TimelinePoint } from './replay';

export interface StepTimeline {
  points: TimelinePoint[];
  /** allocated_bytes.all.peak of the replay */
  peakAllocated: number;
  /** requested_bytes.all.peak: tensor sizes without the allocator's block rounding */
  peakRequested: number;
  /** most tensors live at once */
  peakTensors: number;
  /** reserved_bytes.all.peak of the replay */
  peakReserved: number;
  /** sequence length of each replayed step (training) */
  lengths: number[];
  /** false when a request did not fit the chosen card (the replay stops there) */
  fits: boolean;
  /** the replayed events, when asked for (`record`) */
  trace?: TraceEvent[];
  notes: Message[];
}

export interface TimelineOptions {
  /** keep the events as trace lines */
  record?: boolean;
  /** training steps to replay (default: 2 with fixed lengths, 24 varied) */
  steps?: number;
}

/** Card the replay's simulated driver may fill: the chosen GPU less the CUDA context, or unlimited. */
function capacityOf(s: Scenario): { capacity: number | null } {
  const gpu = s.gpu ? resolveGpu(s.gpu) : undefined;
  return { capacity: gpu ? Math.max(1, gpu.capacityBytes - CUDA_CONTEXT_BYTES) : null };
}

/** Training step lengths: two at `seq` (optimizer states appear in the first), or drawn. */
export function replayLengths(s: Scenario, steps?: number): number[] {
  if (s.lengths !== 'varied') return Array.from({ length: Math.max(1, steps ?? 2) }, () => s.seq);
  return stepLengths({ seq: s.seq, batch: s.batch, mean: s.lenMean, spread: s.lenSpread, ...(steps !== undefined ? { steps } : {}) });
}

/** The replayed timeline of a scenario; errors are the estimate's. */
export function stepTimeline(s: Scenario, o: TimelineOptions = {}): Result<StepTimeline> {
  const base = estimateDetail(s);
  if (!base.ok) return base;
  return { ok: true, value: replay(s, base.value, o) };
}

/** The estimate's detail at another sequence length (null if that length is refused). */
function detailAt(s: Scenario, seq: number): EstimateDetail | null {
  const r = estimateDetail({ ...s, seq });
  return r.ok ? r.value : null;
}

function replay(s: Scenario, d: EstimateDetail, o: TimelineOptions): StepTimeline {
  const r = new Replay(capacityOf(s).capacity, o.record === true);
  const notes: Message[] = [];
  let lengths: number[] = [];
  if (s.mode === 'training') {
    lengths = replayLengths(s, o.steps);
    const byLength = new Map<number, StepShape>();
    const shapes: StepShape[] = [];
    for (const seq of lengths) {
      let shape = byLength.get(seq);
      if (!shape) {
        const e = seq === s.seq ? d : detailAt(s, seq);
        const phases = e?.built.phases;
        if (!phases) break;
        shape = { seq, phases };
        byLength.set(seq, shape);
      }
      shapes.push(shape);
    }
    replayTraining(r, s, d.ctx.arch, d.weightTensors, shapes);
    if (s.pp > 1) notes.push({ code: 'timeline.pp', text: 'Pipeline schedules are not replayed: the timeline shows one stage running the whole model.' });
  } else {
    replayInference(r, d);
  }
  if (!r.ok) notes.push({ code: 'timeline.oom', text: 'A request did not fit the chosen GPU: the replay stops at that point.' });
  const out: StepTimeline = { points: r.points, peakAllocated: r.peakAllocated, peakRequested: r.peakRequested, peakTensors: r.peakTensors, peakReserved: r.peakReserved, lengths, fits: r.ok, notes };
  if (r.trace) out.trace = r.trace;
  return out;
}

/**
 * estimate() with `lengths=varied` resolved: reserved memory is the replay's peak reserved
 * (segments cut for earlier steps' shapes stay cached), at least the closed form's allocated.
 * Other scenarios return the closed form unchanged.
 */
export function estimateWithReplay(s: Scenario): Result<Estimate> {
  const d = estimateDetail(s);
  if (!d.ok) return d;
  const est = d.value.estimate;
  if (s.mode !== 'training' || s.lengths !== 'varied' || !d.value.built.torchAllocator) return { ok: true, value: est };
  const tl = replay(s, d.value, {});
  if (!tl.fits) return { ok: true, value: { ...est, notes: [...est.notes, ...tl.notes] } };
  const reservedBytes = Math.max(est.allocatedBytes, tl.peakReserved);
  const terms = est.terms.map((t) =>
    t.id !== 'allocator-reserve'
      ? t
      : term(
          d.value.ctx,
          'allocator-reserve',
          sub(sym('max_reserved', reservedBytes), sym('max_allocated', est.allocatedBytes)),
          {
            values: {
              replay: 'a replay through the caching-allocator model',
              steps: tl.lengths.length,
              shortest: Math.min(...tl.lengths),
              longest: Math.max(...tl.lengths),
              mean_tokens: s.lenMean ?? s.seq / 2,
              spread: s.lenSpread,
            },
            source: 'core/timeline (allocator.md §3–§4: CUDACachingAllocator best fit, split, no release while memory lasts); lengths lognormal, clipped at seq (assumption)',
            confidence: 'heuristic',
          },
          'reserved',
          false,
        ),
  );
  const device = est.deviceBytes - est.reservedBytes + reservedBytes;
  return { ok: true, value: { ...est, terms, reservedBytes, deviceBytes: device, notes: [...est.notes, ...tl.notes] } };
}
