/**
 * torch.cuda.memory_summary(): the text table (writer, for the simulator) and a reader for pasted
 * tables. Layout and unit rules from torch/cuda/memory.py, restated in docs/reference/allocator.md §6.2.
 */
import type { Message } from '../types';
import { GiB, KiB, MiB, TiB } from '../units';
import { ARRAY_STATS, OVERSIZE_STATS, STAT_FIELDS, STAT_POOLS, type ArrayStatName, type MemoryStats } from './stats';

import { expandableAdvice, type Advice } from './advice';
import { fitAdvice, type AdviceContext } from './advice-fit';
import { humanBytes } from '../units';

type Pool = (typeof STAT_POOLS)[number];

const ROW_NAMES: Record<ArrayStatName, string> = {
  allocated_bytes: 'Allocated memory',
  active_bytes: 'Active memory',
  requested_bytes: 'Requested memory',
  reserved_bytes: 'GPU reserved memory',
  inactive_split_bytes: 'Non-releasable memory',
  allocation: 'Allocations',
  active: 'Active allocs',
  segment: 'GPU reserved segments',
  inactive_split: 'Non-releasable allocs',
};
const OVERSIZE_NAMES: Record<(typeof OVERSIZE_STATS)[number], string> = {
  oversize_allocations: 'Oversize allocations',
  oversize_segments: 'Oversize GPU segments',
};
const BYTE_PREFIXES = ['B  ', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
const COUNT_PREFIXES = [' ', 'K', 'M'];

/**
 * _format_size / _format_count: the unit is picked from the `all` row's value `pref` (bytes: ÷1024
 * while ≥ 768·1024; counts: ÷1000 while ≥ 750,000), with integer floor division of the value.
 */
function formatCell(v: number, pref: number, bytes: boolean): string {
  const prefixes = bytes ? BYTE_PREFIXES : COUNT_PREFIXES;
  const [limit, div] = bytes ? [768 * 1024, 1024] : [750 * 1000, 1000];
  let i = 0;
  while (i < prefixes.length - 1 && pref >= limit) {
    v = Math.floor(v / div);
    pref /= div;
    i++;
  }
  return bytes ? `${String(v).padStart(6)} ${prefixes[i]}` : `${String(v).padStart(7)} ${prefixes[i]} `;
}

/** torch.cuda.memory_summary(device, abbreviated) text for memory_stats() figures. */
export function formatMemorySummary(stats: MemoryStats, device = 0, abbreviated = false): string {
  const rule = (c: string) => c.repeat(75);
  const lines = [
    rule('='),
    ` ${''.padEnd(16)} PyTorch CUDA memory summary, device ID ${String(device).padEnd(17)} `,
    rule('-'),
    `  ${''.padEnd(9)} CUDA OOMs: ${String(stats.num_ooms).padEnd(12)} | ${''.padEnd(6)} cudaMalloc retries: ${String(stats.num_alloc_retries).padEnd(8)}  `,
    rule('='),
    '        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  ',
  ];
  for (const key of ARRAY_STATS) {
    lines.push(rule('-'));
    const bytes = key.endsWith('bytes');
    const subs: [Pool, string][] = [['all', ROW_NAMES[key]]];
    if (!abbreviated) subs.push(['large_pool', '      from large pool'], ['small_pool', '      from small pool']);
    for (const [sub, label] of subs) {
      // the unit is picked from the `all` row's value
      const cells = STAT_FIELDS.map((f) => formatCell(stats[`${key}.${sub}.${f}`], stats[`${key}.all.${f}`], bytes));
      lines.push(` ${label.padEnd(21)} | ${cells.join(' | ')} `);
    }
  }
  for (const key of OVERSIZE_STATS) {
    lines.push(rule('-'));
    const cells = STAT_FIELDS.map((f) => formatCell(stats[`${key}.${f}`], stats[`${key}.${f}`], false));
    lines.push(` ${OVERSIZE_NAMES[key].padEnd(21)} | ${cells.join(' | ')} `);
  }
  lines.push(rule('='));
  return `|${lines.join('|\n|')}|\n`;
}

/** One parsed figure: value in bytes (or a count) and its ± error from integer printing. */
export interface SummaryCell {
  value: number;
  /** the true value lies in [value, value + precision) */
  precision: number;
}

export interface SummaryRow {
  /** memory_stats() name, e.g. 'allocated_bytes', 'oversize_segments' */
  stat: string;
  pool: 'all' | 'large_pool' | 'small_pool';
  label: string;
  current: SummaryCell;
  peak: SummaryCell;
  allocated: SummaryCell;
  freed: SummaryCell;
}

export interface SummaryReading {
  device: number | null;
  numOoms: number | null;
  numAllocRetries: number | null;
  rows: SummaryRow[];
  figures: {
    allocated: number | null;
    reserved: number | null;
    /** reserved − allocated */
    cachedFree: number | null;
    /** inactive_split_bytes: free holes inside partly used segments (cannot be released) */
    nonReleasable: number | null;
    /** cached free bytes in whole free segments: empty_cache() can return these */
    releasable: number | null;
    oversizeSegments: number | null;
  };
  diagnosis: Message;
  advice: Advice[];
}

export type SummaryParse = { ok: true; value: SummaryReading } | { ok: false; message: Message };

const LABEL_TO_STAT = new Map<string, string>([...ARRAY_STATS.map((k) => [ROW_NAMES[k], k] as [string, string]), ...OVERSIZE_STATS.map((k) => [OVERSIZE_NAMES[k], k] as [string, string])]);
const UNIT: Record<string, number> = { B: 1, KiB, KB: KiB, MiB, MB: MiB, GiB, GB: GiB, TiB, PiB: KiB * TiB };
const COUNT: Record<string, number> = { '': 1, K: 1000, M: 1e6 };

/** Largest figure read: a signed 64-bit byte count (2^63 B = 8 EiB). */
const MAX_FIGURE = 2 ** 63;
const COLUMNS = ['Cur Usage', 'Peak Usage', 'Tot Alloc', 'Tot Freed'] as const;

/** A figure past its range: reading stops with a message naming the row and column. */
class OutOfRange extends Error {
  constructor(
    readonly where: string,
    readonly shown: string,
    readonly max: string,
  ) {
    super(`${where}: ${shown} is out of range (at most ${max})`);
  }
}

const cut = (num: string) => (num.length > 20 ? `${num.slice(0, 20)}…` : num);

function cell(text: string, where: () => string): SummaryCell | null {
  const m = /^(\d+) ?(B|KiB|KB|MiB|MB|GiB|GB|TiB|PiB|[KM])?$/.exec(text.trim().replace(/\s+/g, ' '));
  if (!m) return null;
  const [, digits = '', unit = ''] = m; // the digits are not optional, the unit is
  const mult = UNIT[unit] ?? COUNT[unit] ?? 1;
  const value = Number(digits) * mult;
  if (!(value <= MAX_FIGURE)) throw new OutOfRange(where(), `${cut(digits)}${unit ? ` ${unit}` : ''}`, '8 EiB');
  return { value, precision: mult };
}

/**
 * Reads a pasted memory_summary() table; tolerant of missing rows (older releases) and abbreviated
 * tables. `conf`: the user's PYTORCH_CUDA_ALLOC_CONF, so advice drops what is already set.
 */
export function parseMemorySummary(text: string, conf: AdviceContext['conf'] = null): SummaryParse {
  try {
    return readSummary(String(text ?? ''), conf);
  } catch (e) {
    if (!(e instanceof OutOfRange)) throw e;
    return { ok: false, message: { code: 'summary-out-of-range', params: { where: e.where, shown: e.shown, max: e.max }, text: e.message } };
  }
}

function readSummary(text: string, conf: AdviceContext['conf']): SummaryParse {
  const rows: SummaryRow[] = [];
  let last = '';
  for (const raw of text.split(/\r?\n/)) {
    const parts = raw.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
    if (parts.length !== 5) continue;
    const [labelText = '', ...cellTexts] = parts;
    const label = labelText.trim();
    const [current, peak, allocated, freed] = cellTexts.map((c, i) => cell(c, () => `${label}, ${COLUMNS[i] ?? ''}`));
    if (!current || !peak || !allocated || !freed) continue;
    const pool = label === 'from large pool' ? 'large_pool' : label === 'from small pool' ? 'small_pool' : 'all';
    const stat = pool === 'all' ? LABEL_TO_STAT.get(label) : last;
    if (!stat) continue;
    if (pool === 'all') last = stat;
    rows.push({ stat, pool, label, current, peak, allocated, freed });
  }
  if (!rows.length) {
    return { ok: false, message: { code: 'summary-not-found', text: 'No torch.cuda.memory_summary() table found (rows like "| Allocated memory      |  86016 KiB | …").' } };
  }
  const num = (name: string, re: RegExp) => {
    const m = re.exec(text);
    if (!m) return null;
    const [, digits = ''] = m; // every pattern below has one group, not optional
    if (!(Number(digits) <= Number.MAX_SAFE_INTEGER)) throw new OutOfRange(name, cut(digits), String(Number.MAX_SAFE_INTEGER));
    return Number(digits);
  };
  const cur = (stat: string) => rows.find((r) => r.stat === stat && r.pool === 'all')?.current.value ?? null;
  const allocated = cur('allocated_bytes');
  const reserved = cur('reserved_bytes');
  const nonReleasable = cur('inactive_split_bytes');
  const figures = { ...cacheFigures(allocated, reserved, nonReleasable), oversizeSegments: cur('oversize_segments') };
  const { diagnosis, advice } = diagnoseCache(figures);
  return {
    ok: true,
    value: {
      device: num('device ID', /device ID (\d+)/),
      numOoms: num('CUDA OOMs', /CUDA OOMs: (\d+)/),
      numAllocRetries: num('cudaMalloc retries', /cudaMalloc retries: (\d+)/),
      rows,
      figures,
      diagnosis,
      advice: fitAdvice(advice, { version: null, conf }),
    },
  };
}

/** The cache's split from allocated, reserved and inactive_split_bytes (docs/reference/allocator.md §4: holes in partly used segments cannot be released). */
export function cacheFigures(
  allocated: number | null,
  reserved: number | null,
  nonReleasable: number | null,
): Pick<SummaryReading['figures'], 'allocated' | 'reserved' | 'cachedFree' | 'nonReleasable' | 'releasable'> {
  const cachedFree = allocated !== null && reserved !== null ? Math.max(0, reserved - allocated) : null;
  const releasable = cachedFree !== null && nonReleasable !== null ? Math.max(0, cachedFree - nonReleasable) : null;
  return { allocated, reserved, cachedFree, nonReleasable, releasable };
}

/** Heuristic (ours): non-releasable holes at or above 10 % of the reserve and 256 MiB count as fragmentation. */
export function isFragmented(reserved: number | null, nonReleasable: number | null): boolean {
  return reserved !== null && nonReleasable !== null && nonReleasable >= 0.1 * reserved && nonReleasable >= 256 * MiB;
}

/** What the cache's figures say, for memory_summary() and memory_stats() alike (advice before fitting to the user's setting). */
export function diagnoseCache(f: Pick<SummaryReading['figures'], 'reserved' | 'nonReleasable' | 'releasable'>): { diagnosis: Message; advice: Advice[] } {
  const { reserved, nonReleasable, releasable } = f;
  if (reserved !== null && nonReleasable !== null && isFragmented(reserved, nonReleasable)) {
    return {
      diagnosis: {
        code: 'summary.fragmented',
        params: { nonReleasable, reserved },
        text: `${humanBytes(nonReleasable)} of the ${humanBytes(reserved)} reserved are free holes inside partly used segments: only tensors that fit a hole can use them and empty_cache() cannot release them.`,
      },
      advice: [expandableAdvice('cuda')],
    };
  }
  if (releasable !== null && releasable >= 256 * MiB) {
    return {
      diagnosis: {
        code: 'summary.cached',
        params: { releasable },
        text: `${humanBytes(releasable)} are cached in wholly free segments: PyTorch reuses them, and empty_cache() would hand them to other processes.`,
      },
      advice: [
        {
          code: 'empty-cache-elsewhere',
          params: { bytes: releasable },
          text: 'Call torch.cuda.empty_cache() only if another process or library needs this memory.',
          why: 'The cache is reused by this process anyway; returning it costs new cudaMalloc calls later.',
        },
      ],
    };
  }
  return { diagnosis: { code: 'summary.tight', text: 'The cache holds little free memory: reserved memory is mostly live tensors.' }, advice: [] };
}
