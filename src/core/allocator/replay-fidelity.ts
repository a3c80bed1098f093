/**
 * How closely a replay of a recorded snapshot reproduces the run itself (issue #13 §3): the
 * recorded segment_alloc/segment_map count, peak reserved and OOMs (history-import.ts
 * RecordedRun) beside the simulator's num_device_alloc, max_memory_reserved() and OOM count.
 */
import type { Message } from '../types';
import type { RecordedRun } from './history-import';
import type { SimRun } from './run';

export interface ReplayFigures {
  deviceAllocs: number;
  reservedPeak: number;
  ooms: number;
}

export interface ReplayFidelity {
  /** the replay's PYTORCH_CUDA_ALLOC_CONF ('' = default) */
  conf: string;
  recorded: ReplayFigures;
  replayed: ReplayFigures;
  /** (replayed − recorded) / recorded peak reserved; null when the recorded peak is 0 */
  reservedPeakError: number | null;
  notes: Message[];
}

/** Recorded against replayed figures for one simulation of an imported snapshot. */
export function replayFidelity(recorded: RecordedRun, run: SimRun): ReplayFidelity {
  const replayed: ReplayFigures = { deviceAllocs: run.final.stats.num_device_alloc, reservedPeak: run.peakReserved, ooms: run.oomSteps.length };
  const notes: Message[] = [];
  if (recorded.reservedStart > 0) {
    notes.push({
      code: 'fidelity-window',
      params: { bytes: recorded.reservedStart },
      text: `the recording began with ${recorded.reservedStart} bytes already reserved; the replay starts empty, so its peak leaves them out`,
    });
  }
  return {
    conf: run.settings.confText,
    recorded: { deviceAllocs: recorded.deviceAllocs, reservedPeak: recorded.reservedPeak, ooms: recorded.ooms },
    replayed,
    reservedPeakError: recorded.reservedPeak > 0 ? (replayed.reservedPeak - recorded.reservedPeak) / recorded.reservedPeak : null,
    notes,
  };
}
