/**
 * Import of real allocation histories: the JSON written by the snippet in docs/allocator-traces.md
 * from torch.cuda.memory._snapshot() after _record_memory_history(). Each device trace is a list
 * of TraceEntry dicts {action, addr, size, stream}; actions per c10/cuda/CUDACachingAllocator.h
 * (TraceEntry::Action) and torch/cuda/_memory_viz.py: alloc, free_requested, free_completed,
 * segment_alloc, segment_free, segment_map, segment_unmap, snapshot, oom, user_defined.
 */
import type { Message } from '../types';
import type { Trace, TraceEvent } from './trace';

export interface HistoryImport {
  trace: Trace;
  device: number;
  /** counts of what was read, for a summary line */
  allocs: number;
  frees: number;
  /** frees of addresses whose alloc fell outside the recorded window */
  unmatchedFrees: number;
  /** segment_alloc/segment_map entries in the real run, to compare with the model's num_device_alloc */
  realDeviceAllocs: number;
  realOoms: number;
  notes: Message[];
}

export type HistoryParse = { ok: true; value: HistoryImport } | { ok: false; error: Message };

const fail = (code: string, text: string, params?: Record<string, number | string>): HistoryParse => ({
  ok: false,
  error: { code, text, params },
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Parses the snippet's JSON (or any JSON holding `device_traces`); `device` picks a GPU (default: first with entries). */
export function importMemoryHistory(json: string, device?: number): HistoryParse {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    return fail('history-not-json', `not JSON: ${(e as Error).message}`);
  }
  if (!isRecord(data) || !Array.isArray(data.device_traces)) {
    return fail('history-no-traces', "no 'device_traces' list: produce the file with the snippet in docs/allocator-traces.md");
  }
  const traces = data.device_traces as unknown[];
  const dev =
    device ??
    Math.max(
      0,
      traces.findIndex((t) => Array.isArray(t) && t.length > 0),
    );
  const entries = traces[dev];
  if (!Array.isArray(entries)) return fail('history-no-device', `no trace for device ${dev}`, { device: dev });
  const hasCompleted = entries.some((e) => isRecord(e) && e.action === 'free_completed');
  const freeAction = hasCompleted ? 'free_completed' : 'free_requested';
  const events: TraceEvent[] = [];
  const live = new Set<string>();
  const streams = new Set<unknown>();
  let allocs = 0;
  let frees = 0;
  let unmatchedFrees = 0;
  let realDeviceAllocs = 0;
  let realOoms = 0;
  for (let i = 0; i < entries.length; i++) {
    const e: unknown = entries[i];
    if (!isRecord(e) || typeof e.action !== 'string') return fail('history-bad-entry', `entry ${i} has no 'action'`, { index: i });
    if (e.action === 'segment_alloc' || e.action === 'segment_map') realDeviceAllocs++;
    if (e.action === 'oom') realOoms++;
    if (e.action !== 'alloc' && e.action !== freeAction) continue;
    const addr = e.addr;
    const size = e.size;
    if (typeof addr !== 'number' || !Number.isSafeInteger(addr) || addr < 0 || typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) {
      return fail('history-bad-entry', `entry ${i} (${e.action}) needs whole-number 'addr' and 'size'`, { index: i });
    }
    const name = `0x${addr.toString(16)}`;
    streams.add(e.stream ?? 0);
    if (e.action === 'alloc') {
      if (live.has(name)) events.push({ op: 'free', name, line: i + 1 });
      live.add(name);
      events.push({ op: 'alloc', name, size, line: i + 1 });
      allocs++;
    } else if (live.delete(name)) {
      events.push({ op: 'free', name, line: i + 1 });
      frees++;
    } else unmatchedFrees++;
  }
  const notes: Message[] = [];
  if (streams.size > 1) {
    notes.push({ code: 'history-streams', params: { streams: streams.size }, text: `${streams.size} streams recorded; the model treats them as one` });
  }
  if (unmatchedFrees > 0) {
    notes.push({ code: 'history-window', params: { frees: unmatchedFrees }, text: `${unmatchedFrees} frees refer to tensors allocated before recording started (raise max_entries)` });
  }
  const total = typeof data.total_memory === 'number' && data.total_memory > 0 ? data.total_memory : null;
  const conf = typeof data.allocator_settings === 'string' && data.allocator_settings ? data.allocator_settings : null;
  const trace: Trace = { settings: { capacity: total, overhead: null, fraction: null, conf }, events };
  return { ok: true, value: { trace, device: dev, allocs, frees, unmatchedFrees, realDeviceAllocs, realOoms, notes } };
}
