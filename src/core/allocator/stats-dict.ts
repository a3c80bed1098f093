/**
 * Reads the printed dict of torch.cuda.memory_stats(): `OrderedDict([('active.all.allocated', 1331), …])`
 * (repr before Python 3.12), `OrderedDict({'active.all.allocated': 1331, …})` (3.12+), a plain
 * `{…}` dict (`dict(...)`, json.dumps) or any of these pprint-ed over many lines.
 * Keys: torch/cuda/memory.py memory_stats() flattens `_cuda_memoryStats` (DeviceStats of
 * c10/cuda/CUDACachingAllocator.h) with '.', sorted; docs/reference/allocator.md §6.1. An
 * uninitialised device gives an empty dict (memory_stats_as_nested_dict returns {}).
 * One pass of one regular expression over the text (linear), at most MAX_STATS_KEYS entries kept.
 */
import type { Message } from '../types';
import { MiB } from '../units';
import { expandableAdvice, type Advice } from './advice';
import { fitAdvice, type AdviceContext } from './advice-fit';
import { defaultConfig } from './config';
import { MAX_OOM_TEXT } from './oom-decoder';
import { cacheFigures, diagnoseCache, isFragmented } from './summary';

/** Entries kept: memory_stats() has 130 keys (plus private pools on CUDA Graphs runs). */
export const MAX_STATS_KEYS = 4096;
/** Largest value read: a signed 64-bit count (the C++ side is int64_t). */
const MAX_VALUE = 2 ** 63;

export interface StatsFigures {
  allocated: number | null;
  allocatedPeak: number | null;
  reserved: number | null;
  reservedPeak: number | null;
  /** reserved − allocated */
  cachedFree: number | null;
  /** inactive_split_bytes.all.current: free holes in partly used segments (cannot be released) */
  nonReleasable: number | null;
  nonReleasablePeak: number | null;
  /** cached bytes in wholly free segments: empty_cache() can return these */
  releasable: number | null;
  /** requested_bytes.all.current (since #88575): what tensors asked for before rounding */
  requested: number | null;
  /** max_split_size in bytes; null when unlimited (printed −1: SIZE_MAX cast to int64) or absent */
  maxSplitSize: number | null;
  oversizeAllocations: number | null;
  oversizeSegments: number | null;
}

export interface StatsCounters {
  numAllocRetries: number | null;
  numOoms: number | null;
  numSyncAllStreams: number | null;
  numDeviceAlloc: number | null;
  numDeviceFree: number | null;
}

export interface StatsReading {
  form: 'OrderedDict' | 'dict';
  /** entries read */
  entries: number;
  figures: StatsFigures;
  counters: StatsCounters;
  diagnosis: Message;
  /** further facts from the counters (OOMs caught, synchronisations, oversize blocks) */
  notes: Message[];
  advice: Advice[];
  /** the text holds more than the first dict (only the first is read) */
  more: boolean;
}

export type StatsParse = { ok: true; value: StatsReading } | { ok: false; message: Message };

/** One entry: `'key': 123` or `('key', 123)`; keys are short dotted names, values whole numbers. */
const ENTRY = /(['"])([\w.]{1,200})\1\s*[:,]\s*(-?\d+)(?![\d.e])/gi;
const EMPTY = /OrderedDict\((?:\s*\[\s*\]|\s*\{\s*\})?\s*\)/;
const cut = (num: string) => (num.length > 20 ? `${num.slice(0, 20)}…` : num);

/** Reads the first memory_stats() dict in `text`. `conf`: the user's PYTORCH_CUDA_ALLOC_CONF, for the advice. Never throws. */
export function parseMemoryStats(text: string, conf: AdviceContext['conf'] = null): StatsParse {
  const input = String(text ?? '');
  if (input.length > MAX_OOM_TEXT)
    return { ok: false, message: { code: 'oom-too-long', params: { max: '64 MiB' }, text: 'The text is longer than 64 MiB; paste the part of the log around the error.' } };
  const stats = new Map<string, number>();
  let more = false;
  let first = -1;
  for (const m of input.matchAll(ENTRY)) {
    const [, , key = '', digits = ''] = m; // neither group is optional
    if (stats.has(key) || stats.size >= MAX_STATS_KEYS) {
      more = true;
      break;
    }
    if (first < 0) first = m.index;
    const value = Number(digits);
    if (!(Math.abs(value) <= MAX_VALUE)) {
      return { ok: false, message: { code: 'stats-out-of-range', params: { key, shown: cut(digits), max: '2^63' }, text: `${key}: ${cut(digits)} is out of range (at most 2^63)` } };
    }
    // every count is ≥ 0; only max_split_size prints −1 (unlimited)
    if (value < 0 && !(key === 'max_split_size' && value === -1)) {
      return { ok: false, message: { code: 'stats-negative', params: { key, shown: cut(digits) }, text: `${key}: ${cut(digits)} is negative; memory_stats() counts are never below 0` } };
    }
    stats.set(key, value);
  }
  if (!stats.has('allocated_bytes.all.current') && !stats.has('reserved_bytes.all.current')) {
    if (EMPTY.test(input) || /^\s*\{\s*\}\s*$/.test(input)) {
      return { ok: false, message: { code: 'stats-empty', text: 'memory_stats() is empty: CUDA was not initialised on that device when it was printed.' } };
    }
    return { ok: false, message: { code: 'stats-not-found', text: "No torch.cuda.memory_stats() dict found (entries like 'allocated_bytes.all.current': 1024)." } };
  }
  const form = input.lastIndexOf('OrderedDict(', first) >= 0 ? 'OrderedDict' : 'dict';
  return { ok: true, value: read(stats, form, more, conf) };
}

function read(stats: Map<string, number>, form: StatsReading['form'], more: boolean, conf: AdviceContext['conf']): StatsReading {
  const get = (k: string) => stats.get(k) ?? null;
  const cache = cacheFigures(get('allocated_bytes.all.current'), get('reserved_bytes.all.current'), get('inactive_split_bytes.all.current'));
  const split = get('max_split_size');
  const figures: StatsFigures = {
    ...cache,
    allocatedPeak: get('allocated_bytes.all.peak'),
    reservedPeak: get('reserved_bytes.all.peak'),
    nonReleasablePeak: get('inactive_split_bytes.all.peak'),
    requested: get('requested_bytes.all.current'),
    maxSplitSize: split !== null && split > 0 ? split : null,
    oversizeAllocations: get('oversize_allocations.current'),
    oversizeSegments: get('oversize_segments.current'),
  };
  const counters: StatsCounters = {
    numAllocRetries: get('num_alloc_retries'),
    numOoms: get('num_ooms'),
    numSyncAllStreams: get('num_sync_all_streams'),
    numDeviceAlloc: get('num_device_alloc'),
    numDeviceFree: get('num_device_free'),
  };
  const { diagnosis, advice } = diagnoseStats(figures, counters);
  // a max_split_size in the dict is the run's own setting, when the user gave none
  const mb = figures.maxSplitSize === null ? null : figures.maxSplitSize / MiB;
  const own = conf ?? (mb === null ? null : { text: `max_split_size_mb:${mb}`, value: { ...defaultConfig(), maxSplitSize: figures.maxSplitSize } });
  return { form, entries: stats.size, figures, counters, diagnosis, notes: statsNotes(figures, counters, diagnosis.code), advice: fitAdvice(advice, { version: null, conf: own }), more };
}

/**
 * Fragmentation and cache figures as for memory_summary(); otherwise cudaMalloc retries (the
 * allocator flushed its cache and retried, docs/reference/allocator.md §3) mark a reserve at the
 * card's limit that thrashes between sizes.
 */
function diagnoseStats(f: StatsFigures, c: StatsCounters): { diagnosis: Message; advice: Advice[] } {
  const retries = c.numAllocRetries ?? 0;
  if (retries > 0 && !isFragmented(f.reserved, f.nonReleasable)) {
    return {
      diagnosis: {
        code: 'stats.retries',
        params: { retries },
        text: `cudaMalloc failed ${retries} times; each time PyTorch synchronised the device, returned its wholly free cached segments to the driver and retried. The reserve runs at the card's limit and the cache thrashes between sizes.`,
      },
      advice: [
        expandableAdvice('cuda'),
        {
          code: 'lower-peak',
          params: {},
          text: "Lower the peak (batch size, sequence length, activation checkpointing) so the reserve stays below the card's capacity.",
          why: 'Each retry waits for the whole device and empties the cache, so the run slows down long before it runs out of memory.',
        },
      ],
    };
  }
  return diagnoseCache(f);
}

function statsNotes(f: StatsFigures, c: StatsCounters, diagnosis: string): Message[] {
  const notes: Message[] = [];
  const retries = c.numAllocRetries ?? 0;
  if (c.numOoms)
    notes.push({ code: 'stats.note.ooms', params: { ooms: c.numOoms }, text: `${c.numOoms} out-of-memory errors were raised in this process (and caught, since it went on to print these stats).` });
  if (retries > 0 && diagnosis !== 'stats.retries')
    notes.push({ code: 'stats.note.retries', params: { retries }, text: `cudaMalloc failed ${retries} times and was retried after the cache was flushed.` });
  const syncs = (c.numSyncAllStreams ?? 0) - retries;
  if (c.numSyncAllStreams !== null && syncs > 0) {
    notes.push({
      code: 'stats.note.syncs',
      params: { syncs },
      text: `${syncs} device-wide synchronisations besides the retries: each torch.cuda.empty_cache() is one (num_sync_all_streams); in a loop they stall the GPU.`,
    });
  }
  if (f.maxSplitSize !== null && (f.oversizeSegments ?? 0) > 0) {
    notes.push({
      code: 'stats.note.oversize',
      params: { mb: f.maxSplitSize / MiB, allocations: f.oversizeAllocations ?? 0, segments: f.oversizeSegments ?? 0 },
      text: `max_split_size_mb is ${f.maxSplitSize / MiB}: ${f.oversizeAllocations ?? 0} live allocations and ${f.oversizeSegments ?? 0} segments are oversize, never split.`,
    });
  }
  return notes;
}
