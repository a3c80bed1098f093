/**
 * The calculator's predicted step timeline against an imported snapshot of a real run (issue #13
 * §4 "Predicted against real"): the two peaks side by side with signed errors, and both curves on
 * one x axis so a chart can draw them together.
 *
 * Alignment: by fraction of each series' own length, 0 at its first point and 1 at its last. A
 * snapshot has no step marks: torch.cuda.memory._snapshot()'s device_traces are alloc / free /
 * segment entries (torch/cuda/memory.py docstring), with nothing that says where an optimizer step
 * or a layer begins, and the replay of it (history-import.ts) keeps only their order. The predicted
 * timeline is sampled per layer and phase (replay.ts TimelinePoint), not per allocation, so event
 * counts do not match either. Fraction of the run is the one axis both have; it lines the curves up
 * only as far as the recorded window and the predicted steps cover the same work (same number of
 * steps, recording started before the model was loaded). The peaks do not depend on it.
 */
import type { MemoryPoint } from '../allocator/run-series';
import type { Result, Scenario } from '../types';
import { stepTimeline, type StepTimeline } from './index';

/** One figure, predicted and recorded. */
export interface PeakRow {
  predicted: number;
  recorded: number;
  /** (predicted − recorded) / recorded: +0.05 = the prediction is 5 % high; null when recorded is 0 */
  error: number | null;
}

/** The imported run: its chart series and the figures PyTorch recorded. */
export interface RecordedSeries {
  /** allocated / reserved after event `step` (run-series.ts timelinePoints) */
  points: readonly Pick<MemoryPoint, 'step' | 'allocated' | 'reserved'>[];
  /** highest allocated bytes of the run (allocated_bytes.all.peak) */
  allocatedPeak: number;
  /** highest reserved bytes PyTorch recorded (history-import.ts RecordedRun.reservedPeak) */
  reservedPeak: number;
}

export interface Curves {
  allocated: number[];
  reserved: number[];
}

export interface PredictedVsRecorded {
  allocated: PeakRow;
  reserved: PeakRow;
  /** start of each resampled bucket as a fraction of the run (0, 1/n, …, (n−1)/n) */
  x: number[];
  predicted: Curves;
  recorded: Curves;
}

/** Buckets the curves are resampled into by default: finer than a chart's width in pixels needs. */
export const OVERLAY_BUCKETS = 200;

export function peakRow(predicted: number, recorded: number): PeakRow {
  return { predicted, recorded, error: recorded > 0 ? (predicted - recorded) / recorded : null };
}

/** Each position's place between the first and the last, 0…1 (a single position: 0). */
export function fractions(positions: readonly number[]): number[] {
  const first = positions[0] ?? 0;
  const span = (positions[positions.length - 1] ?? first) - first;
  return positions.map((p) => (span > 0 ? (p - first) / span : 0));
}

/**
 * A series on `n` equal buckets of 0…1: bucket j covers [j/n, (j+1)/n) (the last also 1). Its value
 * is the highest of the points that fall in it, so a peak between two bucket starts stays; a bucket
 * no point falls in holds the value of the last point before it (the series is a step function).
 */
export function resample(xs: readonly number[], values: readonly number[], n: number): number[] {
  const out = new Array<number>(n).fill(0);
  let held = 0;
  let i = 0;
  for (let j = 0; j < n; j++) {
    const end = (j + 1) / n;
    let best: number | null = null;
    while (i < xs.length && (xs[i]! < end || j === n - 1)) {
      const v = values[i] ?? 0;
      best = best === null ? v : Math.max(best, v);
      held = v;
      i++;
    }
    out[j] = best ?? held;
  }
  return out;
}

/** Predicted peaks and curves against the recorded run's, on `buckets` shared fractions of the run. */
export function predictedVsRecorded(predicted: Pick<StepTimeline, 'points' | 'peakAllocated' | 'peakReserved'>, recorded: RecordedSeries, buckets = OVERLAY_BUCKETS): PredictedVsRecorded {
  const n = Math.max(1, Math.floor(buckets));
  const px = fractions(predicted.points.map((p) => p.t));
  const rx = fractions(recorded.points.map((p) => p.step));
  const on = (xs: number[], pts: readonly { allocated: number; reserved: number }[]): Curves => ({
    allocated: resample(
      xs,
      pts.map((p) => p.allocated),
      n,
    ),
    reserved: resample(
      xs,
      pts.map((p) => p.reserved),
      n,
    ),
  });
  return {
    allocated: peakRow(predicted.peakAllocated, recorded.allocatedPeak),
    reserved: peakRow(predicted.peakReserved, recorded.reservedPeak),
    x: Array.from({ length: n }, (_, j) => j / n),
    predicted: on(px, predicted.points),
    recorded: on(rx, recorded.points),
  };
}

/**
 * The predicted timeline to set against a PyTorch snapshot: the calculator's step timeline of `s`
 * (the chosen card's replay, as the calculator's timeline panel shows it). llama.cpp is refused: it
 * allocates through ggml's own buffers, never through PyTorch's caching allocator, so a snapshot of
 * it cannot exist.
 */
export function predictionFor(s: Scenario): Result<StepTimeline> {
  if (s.mode === 'inference' && s.engine === 'llama.cpp') {
    return {
      ok: false,
      errors: [{ key: 'engine', code: 'overlay-not-torch', message: 'llama.cpp does not allocate through PyTorch’s caching allocator, so its prediction cannot be set against a PyTorch snapshot' }],
    };
  }
  return stepTimeline(s);
}
