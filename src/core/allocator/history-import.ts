/**
 * Import of real allocation histories: the pickle `torch.cuda.memory._dump_snapshot()` writes, or
 * the JSON of the snippet in docs/allocator-traces.md. Both hold the dict
 * torch.cuda.memory._snapshot() returns (torch/cuda/memory.py docstring; built by
 * torch/csrc/cuda/memory_snapshot.cpp `_memory_snapshot_pickled`):
 *   segments:        [{device, address, total_size, stream, blocks: [{address, size, state, frames}], …}]
 *   device_traces:   one list per device of TraceEntry dicts {action, addr, size, stream, time_us, frames};
 *                    an 'oom' entry has device_free instead of addr (memory_snapshot.cpp)
 *   allocator_settings: {PYTORCH_CUDA_ALLOC_CONF: str, …} (newer releases; the snippet writes a str)
 * Actions per c10/cuda/CUDACachingAllocator.h (TraceEntry::Action): alloc, free_requested,
 * free_completed, segment_alloc, segment_free, segment_map, segment_unmap, snapshot, oom, user_defined.
 * ALLOC carries the request (orig_size), SEGMENT_* the segment or mapped size (CUDACachingAllocator.cpp record_trace calls).
 */
import type { Message } from '../types';
import { unpickle } from '../snapshot/pickle';
import { TraceRows } from '../snapshot/trace-rows';
import type { Trace } from './trace';
import { topUserFrame } from './frames';
import { AddressTable } from './address-table';
import { columnTrace, TraceColumns } from './trace-columns';

/** What the recorded run itself did, from its segment and OOM entries. */
export interface RecordedRun {
  /** segment_alloc + segment_map entries: cudaMalloc / page-map calls (the model's num_device_alloc) */
  deviceAllocs: number;
  /** segment_free + segment_unmap entries (num_device_free) */
  deviceFrees: number;
  /** reserved bytes when the recorded window begins: Σ segments − net segment change, or 0 without `segments` */
  reservedStart: number;
  /** highest reserved bytes over the window */
  reservedPeak: number;
  /** Σ total_size of the device's `segments` at snapshot time; null when the file has none */
  reservedEnd: number | null;
  /** Σ size of active_allocated blocks at snapshot time; null without `segments` */
  allocatedEnd: number | null;
  ooms: number;
}

export interface HistoryImport {
  trace: Trace;
  device: number;
  /** counts of what was read, for a summary line */
  allocs: number;
  frees: number;
  /** frees of addresses whose alloc fell outside the recorded window */
  unmatchedFrees: number;
  recorded: RecordedRun;
  notes: Message[];
}

export type HistoryParse = { ok: true; value: HistoryImport } | { ok: false; error: Message };

const fail = (code: string, text: string, params?: Record<string, number | string>): HistoryParse => ({
  ok: false,
  error: { code, text, params },
});

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `key` of a JSON object or an unpickled dict (both plain objects of their str keys). */
function field(o: unknown, key: string): unknown {
  return isRecord(o) && Object.hasOwn(o, key) ? o[key] : undefined;
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** A trace entry dict's fields the import reads. */
interface EntryFields {
  action?: unknown;
  addr?: unknown;
  size?: unknown;
  stream?: unknown;
  device_free?: unknown;
  frames?: unknown;
}
/**
 * A trace entry by its fields' names: entries are plain objects of one shape, so named loads stay
 * monomorphic (a keyed `field()` per key costs about a third of a 10^6-entry import). Inherited
 * names cannot answer: neither JSON.parse nor the unpickler builds objects whose prototype has them.
 */
const entryOf = (e: unknown): EntryFields | null => (typeof e === 'object' && e !== null && !Array.isArray(e) ? e : null);

/** A whole number of bytes, or NaN for anything else (the import's checks read both as "not a count"). */
const countOr = (v: unknown): number => (isCount(v) ? v : NaN);

/** Parses the snippet's JSON (or any JSON holding `device_traces`); `device` picks a GPU (default: first with entries). */
export function importMemoryHistory(json: string, device?: number): HistoryParse {
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch (e) {
    return fail('history-not-json', `not JSON: ${(e as Error).message}`);
  }
  return importSnapshot(data, device);
}

/**
 * Reads the bytes of `_dump_snapshot()` (a pickle, protocols 2–5) with the safe reader of
 * snapshot/pickle.ts, its trace entries kept as columns (snapshot/trace-rows.ts).
 */
export function importSnapshotPickle(bytes: Uint8Array, device?: number): HistoryParse {
  const rows = new TraceRows();
  const p = unpickle(bytes, rows);
  if (!p.ok) return fail(p.error.code, p.error.text, { offset: p.error.offset });
  return importEntries(p.value, rows, device);
}

/** Σ total_size and Σ active_allocated block sizes of the device's segments; nulls when there is no `segments` list. */
function segmentTotals(data: unknown, dev: number): { reserved: number | null; allocated: number | null } {
  const segs = field(data, 'segments');
  if (!Array.isArray(segs)) return { reserved: null, allocated: null };
  let reserved = 0;
  let allocated = 0;
  for (const s of segs as unknown[]) {
    const d = field(s, 'device');
    if (d !== undefined && d !== dev) continue;
    const total = field(s, 'total_size');
    if (isCount(total)) reserved += total;
    const blocks = field(s, 'blocks');
    if (!Array.isArray(blocks)) continue;
    for (const b of blocks as unknown[]) {
      const size = field(b, 'size');
      if (field(b, 'state') === 'active_allocated' && isCount(size)) allocated += size;
    }
  }
  return { reserved, allocated };
}

/** The recorded run's PYTORCH_CUDA_ALLOC_CONF: a string (snippet JSON) or allocator_settings[PYTORCH_CUDA_ALLOC_CONF]. */
function recordedConf(data: unknown): string | null {
  const s = field(data, 'allocator_settings');
  const conf = typeof s === 'string' ? s : field(s, 'PYTORCH_CUDA_ALLOC_CONF');
  return typeof conf === 'string' && conf.trim() ? conf : null;
}

/**
 * Turns a snapshot (parsed JSON or an unpickled dict) into a trace: `alloc` entries become
 * `alloc 0x<addr> <size>`, `free_completed` entries `free 0x<addr>` (`free_requested` when the
 * trace has no free_completed), and an `oom` entry the request that failed (`alloc oom-<entry> <size>`,
 * never freed: the run raised instead, marked `oom`); segment and OOM entries give the recorded figures.
 *
 * A run of segment_free / segment_unmap entries becomes `empty_cache` unless a segment_alloc,
 * segment_map or oom entry follows it before the next alloc or free. The trace has no entry of its
 * own for torch.cuda.empty_cache(); in CUDACachingAllocator.cpp (DeviceCachingAllocator) the only
 * callers of release_block / unmap_block, which record SEGMENT_FREE / SEGMENT_UNMAP, are
 * release_cached_blocks (emptyCache, and malloc's last retry), release_available_cached_blocks and
 * garbage_collect_cached_blocks, and inside malloc() each of those is followed by alloc_block
 * (SEGMENT_ALLOC / SEGMENT_MAP) or by the OOM entry. Without it a replay keeps segments the run
 * gave back: Hugging Face Trainer's _inner_training_loop begins with accelerator.free_memory(),
 * which calls torch.cuda.empty_cache().
 * Allocs keep the label of their top user stack frame (frames.ts) when the entry has `frames`, and
 * an alloc whose request made a segment (a segment_alloc entry at its address just before it)
 * keeps that address as `segmentAt`: the replay puts its own segment there when the range is free.
 * Best fit breaks ties between free blocks of one size by address (BlockComparatorSize), and the
 * driver's addresses neither rise nor fall steadily, so a model placing segments by its own rule
 * breaks some ties the other way and drifts from the run (t012 of docs/measuring.md: 579
 * cudaMallocs replayed against 580, −1.0 % reserved).
 */
export function importSnapshot(data: unknown, device?: number): HistoryParse {
  return importEntries(data, null, device);
}

/** importSnapshot of a value whose trace entries may be rows of `rows`. */
function importEntries(data: unknown, rows: TraceRows | null, device?: number): HistoryParse {
  const traces = field(data, 'device_traces');
  if (!Array.isArray(traces)) {
    return fail('history-no-traces', "no 'device_traces' list: record with torch.cuda.memory._record_memory_history() before _dump_snapshot(), or use the snippet in docs/allocator-traces.md");
  }
  const withEntries = (traces as unknown[]).flatMap((t, i) => (Array.isArray(t) && t.length > 0 ? [i] : []));
  const dev = device ?? withEntries[0] ?? 0;
  const entries: unknown = traces[dev];
  if (!Array.isArray(entries)) {
    const have = withEntries.length ? `devices with entries: ${withEntries.join(', ')}` : 'no device has entries';
    return fail('history-no-device', `no trace for device ${dev} (${have})`, { device: dev });
  }
  const list = entries as unknown[];
  /** entry i's row of `rows`, or −1 and its dict (JSON, or a dict the rows refused) */
  const rowOf = (raw: unknown) => (rows ? rows.row(raw) : -1);
  const actionOf = (raw: unknown, r: number): unknown => (r >= 0 ? rows!.action(r) : entryOf(raw)?.action); // r ≥ 0 only with rows
  const hasCompleted = list.some((raw) => actionOf(raw, rowOf(raw)) === 'free_completed');
  const freeAction = hasCompleted ? 'free_completed' : 'free_requested';
  /** each address's trace name, and whether a tensor lives there */
  const addrs = new AddressTable();
  const events = new TraceColumns(addrs);
  const streams = new Set<unknown>();
  let lastStream: unknown = undefined;
  let allocs = 0;
  let frees = 0;
  let unmatchedFrees = 0;
  const rec = { deviceAllocs: 0, deviceFrees: 0, ooms: 0 };
  // reserved change since the window began, its extremes, and its value at the first OOM
  let net = 0;
  let lowest = 0;
  let highest = 0;
  let firstOom: { net: number; deviceFree: number } | null = null;
  // Segments given back outside an allocation are an empty_cache() call (see importSnapshot): the
  // line of the first segment_free / segment_unmap of a run not yet placed, 0 when none
  let releaseLine = 0;
  // the last segment_alloc entry: the alloc right after it at its address opens that segment (segmentAt)
  const segmentAllocAt = { index: -2, addr: NaN };
  let emptyCaches = 0;
  const settleRelease = (): void => {
    if (releaseLine === 0) return;
    events.emptyCache(releaseLine);
    emptyCaches++;
    releaseLine = 0;
  };
  // one string per distinct top frame, shared by its events; entries often share one frames list
  const frameLabels = new Map<string, string>();
  let lastFrames: unknown = undefined;
  let lastLabel: string | null = null;
  const frameOf = (frames: unknown): string | null => {
    if (frames === lastFrames && typeof frames === 'object') return lastLabel;
    const f = topUserFrame(frames);
    let known = f === null ? null : frameLabels.get(f);
    if (f !== null && known === undefined) frameLabels.set(f, (known = f));
    lastFrames = frames;
    lastLabel = known ?? null;
    return lastLabel;
  };
  for (let i = 0; i < list.length; i++) {
    const raw = list[i];
    const r = rowOf(raw);
    const e = r < 0 ? entryOf(raw) : null;
    const action = r >= 0 ? rows!.action(r) : e?.action; // r ≥ 0 only with rows
    if (typeof action !== 'string') return fail('history-bad-entry', `entry ${i} has no 'action'`, { index: i });
    const size = e ? countOr(e.size) : rows!.size(r); // an entry is a row of rows or a dict
    if (action === 'oom') {
      releaseLine = 0;
      rec.ooms++;
      const free = e ? countOr(e.device_free) : rows!.deviceFree(r);
      if (!firstOom && isCount(free)) firstOom = { net, deviceFree: free };
      // the request that failed (its rounded size): replayed, it fails again or shows what a setting would have saved
      if (isCount(size) && size > 0) events.oomAlloc(`oom-${i}`, size, i + 1, frameOf(e ? e.frames : rows!.frames(r)));
      continue;
    }
    const segment = action === 'segment_alloc' || action === 'segment_map' ? 1 : action === 'segment_free' || action === 'segment_unmap' ? -1 : 0;
    if (segment !== 0) {
      if (!isCount(size)) return fail('history-bad-entry', `entry ${i} (${action}) needs a whole-number 'size'`, { index: i });
      if (segment > 0) {
        rec.deviceAllocs++;
        releaseLine = 0;
        if (action === 'segment_alloc') {
          segmentAllocAt.index = i;
          segmentAllocAt.addr = e ? countOr(e.addr) : rows!.addr(r);
        }
      } else {
        rec.deviceFrees++;
        if (releaseLine === 0) releaseLine = i + 1;
      }
      net += segment * size;
      lowest = Math.min(lowest, net);
      highest = Math.max(highest, net);
      continue;
    }
    if (action !== 'alloc' && action !== freeAction) continue;
    settleRelease();
    const addr = e ? countOr(e.addr) : rows!.addr(r);
    if (!isCount(addr) || !isCount(size)) return fail('history-bad-entry', `entry ${i} (${action}) needs whole-number 'addr' and 'size'`, { index: i });
    const stream = (e ? e.stream : rows!.stream(r)) ?? 0;
    if (stream !== lastStream) streams.add((lastStream = stream));
    // the allocator hands addresses out again and again: each is named once
    const id = addrs.id(addr);
    if (action === 'alloc') {
      if (addrs.isLive(id)) events.free(id, i + 1);
      addrs.setLive(id, true);
      // alloc_block records SEGMENT_ALLOC, then alloc_found_block the ALLOC of the block at its start
      const opened = segmentAllocAt.index === i - 1 && segmentAllocAt.addr === addr;
      events.alloc(id, size, i + 1, frameOf(e ? e.frames : rows!.frames(r)), opened ? addr : undefined);
      allocs++;
    } else if (addrs.isLive(id)) {
      addrs.setLive(id, false);
      events.free(id, i + 1);
      frees++;
    } else unmatchedFrees++;
  }
  settleRelease();
  const totals = segmentTotals(data, dev);
  const reservedStart = totals.reserved !== null ? Math.max(0, totals.reserved - net) : lowest < 0 ? -lowest : 0;
  const recorded: RecordedRun = { ...rec, reservedStart, reservedPeak: reservedStart + highest, reservedEnd: totals.reserved, allocatedEnd: totals.allocated };
  const notes: Message[] = [];
  if (streams.size > 1) {
    notes.push({ code: 'history-streams', params: { streams: streams.size }, text: `${streams.size} streams recorded; the model treats them as one` });
  }
  if (emptyCaches > 0) {
    notes.push({ code: 'history-empty-cache', params: { calls: emptyCaches }, text: `${emptyCaches} × torch.cuda.empty_cache() replayed where the run freed segments outside an allocation` });
  }
  if (unmatchedFrees > 0) {
    notes.push({ code: 'history-window', params: { frees: unmatchedFrees }, text: `${unmatchedFrees} frees refer to tensors allocated before recording started (raise max_entries)` });
  }
  const total = field(data, 'total_memory');
  let capacity = typeof total === 'number' && total > 0 ? total : null;
  if (capacity === null && firstOom) {
    // cudaMemGetInfo's free figure at the OOM plus what PyTorch held then: the memory it could use
    capacity = reservedStart + firstOom.net + firstOom.deviceFree;
    notes.push({ code: 'history-capacity-from-oom', params: { bytes: capacity }, text: `card capacity taken from the first OOM entry: reserved + device_free = ${capacity} bytes` });
  }
  const trace: Trace = columnTrace({ capacity, overhead: null, fraction: null, conf: recordedConf(data) }, events);
  return { ok: true, value: { trace, device: dev, allocs, frees, unmatchedFrees, recorded, notes } };
}
