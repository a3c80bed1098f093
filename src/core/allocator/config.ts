/**
 * PYTORCH_CUDA_ALLOC_CONF parser for the native caching allocator's options.
 * Source: pytorch/pytorch c10/cuda/CUDAAllocatorConfig.cpp (2.x): its option names, ranges and
 * error texts (parseArgs, parseMaxSplitSize, parseGarbageCollectionThreshold, parseRoundUpPower2Divisions).
 */
import type { FieldError, Result } from '../types';
import { isPowerOf2, kLargeBuffer } from './constants';
import { MiB } from '../units';
import { DECIMAL } from './size-text';

/** Parsed allocator settings. Byte values in bytes. */
export interface AllocatorConfig {
  /** max_split_size_mb in bytes; null = unlimited (the default). */
  maxSplitSize: number | null;
  /** max_non_split_rounding_mb in bytes (default 20 MiB = kLargeBuffer). */
  maxNonSplitRounding: number;
  /** 16 division counts, one per power-of-two interval starting at 1 MiB; 0 = plain rounding. */
  roundupPower2Divisions: number[];
  /** garbage_collection_threshold in (0,1); 0 = off. */
  garbageCollectionThreshold: number;
  expandableSegments: boolean;
  backend: 'native' | 'cudaMallocAsync';
  /** Options accepted and validated but with no effect on a one-stream simulation. */
  releaseLockOnCudaMalloc: boolean;
}

/** Defaults of every option (docs/reference/allocator.md §8). */
export function defaultConfig(): AllocatorConfig {
  return {
    maxSplitSize: null,
    maxNonSplitRounding: kLargeBuffer,
    roundupPower2Divisions: new Array<number>(16).fill(0),
    garbageCollectionThreshold: 0,
    expandableSegments: false,
    backend: 'native',
    releaseLockOnCudaMalloc: false,
  };
}

const BOOL_KEYS = new Set(['expandable_segments', 'release_lock_on_cudamalloc', 'pinned_use_cuda_host_register', 'pinned_use_background_threads']);

/** Splits on `, : [ ]` keeping them as tokens and dropping spaces, like the C++ lexer. */
function lex(text: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (const ch of text) {
    if (ch === ',' || ch === ':' || ch === '[' || ch === ']') {
      if (cur) out.push(cur);
      out.push(ch);
      cur = '';
    } else if (ch !== ' ' && ch !== '\t') cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

class ConfError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

const fail = (code: string, message: string): never => {
  throw new ConfError(code, message);
};

function parseIntStrict(tok: string | undefined, key: string): number {
  if (tok === undefined || !/^\d+$/.test(tok)) fail('conf-number', `Expected a whole number for ${key}, got '${tok ?? ''}'`);
  return Number(tok);
}

/** Parses the `roundup_power2_divisions` value starting at token i; returns the next index. */
function parseRoundup(t: string[], i: number, table: number[]): number {
  if (t[i] !== '[') {
    const v = parseIntStrict(t[i], 'roundup_power2_divisions');
    if (!isPowerOf2(v)) fail('conf-roundup-divisions', 'For roundups, the divisons has to be power of 2');
    table.fill(v);
    return i + 1;
  }
  let first = true;
  let last = -1;
  i++;
  while (i < t.length && t[i] !== ']') {
    const key = t[i];
    if (t[i + 1] !== ':') fail('conf-syntax', 'Error parsing CachingAllocator settings, expected :');
    const v = parseIntStrict(t[i + 2], 'roundup_power2_divisions');
    if (v !== 0 && !isPowerOf2(v)) fail('conf-roundup-divisions', 'For roundups, the divisons has to be power of 2 or 0 to disable roundup');
    if (key === '>') {
      table.fill(v, last + 1);
    } else {
      const mb = parseIntStrict(key, 'roundup_power2_divisions');
      if (!isPowerOf2(mb)) fail('conf-roundup-intervals', 'For roundups, the intervals have to be power of 2');
      const index = Math.min(15, Math.log2(mb));
      if (first) table.fill(v, 0, index);
      first = false;
      table[index] = v;
      last = index;
    }
    i += 3;
    if (t[i] === ',') i++;
  }
  if (t[i] !== ']') fail('conf-syntax', 'Error parsing CachingAllocator settings, expected ]');
  return i + 1;
}

function parseTokens(t: string[]): AllocatorConfig {
  const c = defaultConfig();
  let i = 0;
  while (i < t.length) {
    const key = t[i]!; // i < t.length
    if (key === ',') {
      i++;
      continue;
    }
    if (t[i + 1] !== ':') fail('conf-syntax', 'Error parsing CachingAllocator settings, expected :');
    const val = t[i + 2];
    let next = i + 3;
    if (key === 'max_split_size_mb') {
      const mb = parseIntStrict(val, key);
      if (mb <= kLargeBuffer / MiB) fail('conf-max-split-small', 'CachingAllocator option max_split_size_mb too small, must be > 20');
      c.maxSplitSize = mb * MiB;
    } else if (key === 'max_non_split_rounding_mb') {
      const mb = parseIntStrict(val, key);
      if (mb < 20) fail('conf-non-split-small', 'CachingAllocator option max_non_split_rounding_mb too small, must be >= 20');
      c.maxNonSplitRounding = mb * MiB;
    } else if (key === 'roundup_power2_divisions') {
      next = parseRoundup(t, i + 2, c.roundupPower2Divisions);
    } else if (key === 'garbage_collection_threshold') {
      const g = val !== undefined && DECIMAL.test(val) ? Number(val) : NaN;
      if (!(g > 0 && g < 1)) fail('conf-gc-threshold', 'garbage_collect_threshold is invalid, set it in (0.0, 1.0)');
      c.garbageCollectionThreshold = g;
    } else if (BOOL_KEYS.has(key)) {
      if (val !== 'True' && val !== 'False') fail('conf-bool', `Expected a single True/False argument for ${key}`);
      if (key === 'expandable_segments') c.expandableSegments = val === 'True';
      if (key === 'release_lock_on_cudamalloc') c.releaseLockOnCudaMalloc = val === 'True';
    } else if (key === 'pinned_num_register_threads') {
      const n = parseIntStrict(val, key);
      if (!isPowerOf2(n)) fail('conf-threads', 'Number of register threads has to be power of 2');
      if (n > 128) fail('conf-threads', 'Number of register threads should be less than or equal to 128');
    } else if (key === 'backend') {
      if (val !== 'native' && val !== 'cudaMallocAsync' && val !== 'hipMallocAsync') {
        fail('conf-backend', 'Unknown allocator backend, options are native and cudaMallocAsync');
      }
      c.backend = val === 'native' ? 'native' : 'cudaMallocAsync';
    } else {
      fail('conf-unknown-key', `Unrecognized CachingAllocator option: ${key}`);
    }
    i = next;
    if (i < t.length && t[i] !== ',') fail('conf-syntax', 'Error parsing CachingAllocator settings, expected ,');
  }
  return c;
}

/**
 * Parses a PYTORCH_CUDA_ALLOC_CONF value such as `max_split_size_mb:128,expandable_segments:True`.
 * A leading `PYTORCH_CUDA_ALLOC_CONF=` (or HIP / PYTORCH_ALLOC_CONF) and surrounding quotes are accepted.
 * Errors reuse PyTorch's own texts (docs/reference/allocator.md §8).
 */
export function parseAllocConf(text: string): Result<AllocatorConfig> {
  const body = text
    .trim()
    .replace(/^(?:export\s+)?PYTORCH_(?:CUDA_|HIP_)?ALLOC_CONF=/, '')
    .replace(/^(['"])(.*)\1$/, '$2');
  try {
    return { ok: true, value: parseTokens(lex(body)) };
  } catch (e) {
    if (!(e instanceof ConfError)) throw e;
    const err: FieldError = { key: 'conf', code: e.code, message: e.message };
    return { ok: false, errors: [err] };
  }
}
