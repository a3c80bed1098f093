/**
 * `npm run --silent allocator -- trace.txt --conf 'max_split_size_mb:128' [--json]`
 *
 * Runs an allocator trace (file, `-` for stdin, or a preset name) through the caching-allocator
 * model and prints the final memory_stats() figures, peaks, and the OOM text of every failed
 * allocation. A memory-history JSON (docs/allocator-traces.md) is accepted in place of a trace.
 * Exit codes: 0 ran without OOM, 1 ran and hit an OOM, 2 bad input.
 */
import {
  compareConfs,
  findPreset,
  formatMemorySummary,
  importMemoryHistory,
  importSnapshotPickle,
  OOM_VERSIONS,
  parseByteSize,
  parseTrace,
  simulateTrace,
  stepAt,
  TRACE_PRESETS,
  replayFidelity,
  type HistoryImport,
  type MemoryStatKey,
  type HistoryParse,
  type OomVersion,
  type RecordedRun,
  type SimOptions,
  type SimRun,
  type Trace,
} from '../core/allocator';
import type { Message } from '../core/types';
import { formatIn, humanBytes } from '../core/units';
import { readInput, runIfMain, splitFlags, table } from './allocator-io';
import { decodeText, MAX_INPUT_BYTES, readFileBytes } from './read-input';
import { MAX_SNAPSHOT_BYTES, snapshotKind } from '../core/snapshot/sniff';
import { oneLine, quoteArg, usageError, type CliResult } from './output';

const USAGE = `usage: npm run --silent allocator -- TRACE [--conf CONF] [--capacity SIZE] [--overhead SIZE]
                                    [--fraction F] [--version V] [--device N] [--summary] [--json]
TRACE is a trace file, '-' for stdin, a snapshot pickle from torch.cuda.memory._dump_snapshot(),
a memory-history JSON, or a preset: ${TRACE_PRESETS.map((p) => p.id).join(', ')}.
A snapshot is replayed under its own PYTORCH_CUDA_ALLOC_CONF (or --conf) and compared with the
recorded run; --device picks the GPU whose trace to replay (default: the first with entries).
Trace lines: capacity 8GiB | overhead 500MiB | fraction 0.9 | conf max_split_size_mb:128 |
             alloc NAME SIZE (4194304, 4MiB, 1024x1024 float32) | free NAME | empty_cache | # comment
--conf overrides the trace's PYTORCH_CUDA_ALLOC_CONF; --version picks the OOM text (${OOM_VERSIONS.join(', ')});
--summary prints torch.cuda.memory_summary(); --compare runs the trace with the default settings,
max_split_size_mb:128 and expandable_segments:True side by side; --presets lists presets.
Exit codes: 0 no OOM, 1 the trace ran out of memory, 2 bad input.
`;

type Loaded = { ok: true; trace: Trace; source: string; notes: Message[]; recorded: RecordedRun | null } | { ok: false; error: string };

/** Replays a snapshot's events: the trace, a summary note and the recorded figures. */
function fromHistory(h: HistoryParse, source: string): Loaded {
  if (!h.ok) return { ok: false, error: `${source}: ${h.error.text}` };
  const v: HistoryImport = h.value;
  const note = {
    code: 'history-read',
    text: `memory history of device ${v.device}: ${v.allocs} allocs, ${v.frees} frees; the real run made ${v.recorded.deviceAllocs} segment allocations and ${v.recorded.ooms} OOMs`,
  };
  return { ok: true, trace: v.trace, source, notes: [note, ...v.notes], recorded: v.recorded };
}

/** Text of a file or stdin, or a snapshot pickle's bytes (files only: stdin is read as text). */
function readSource(arg: string, stdin: () => string): { ok: true; text: string } | { ok: true; pickle: Uint8Array } | { ok: false; error: string } {
  if (arg === '-') {
    const r = readInput(arg, stdin);
    if (r.ok && r.text.startsWith('\uFFFD')) return { ok: false, error: 'stdin looks like a snapshot pickle: give its file path instead (stdin is read as text)' };
    return r;
  }
  const r = readFileBytes(arg, MAX_SNAPSHOT_BYTES);
  if (!r.ok) return r;
  if (snapshotKind(r.bytes) === 'pickle') return { ok: true, pickle: r.bytes };
  if (r.bytes.length > MAX_INPUT_BYTES)
    return { ok: false, error: `${quoteArg(arg, 200, true)} is not a snapshot pickle and is larger than the ${formatIn(MAX_INPUT_BYTES, 'MiB', 0)} limit for text` };
  return { ok: true, text: decodeText(r.bytes) };
}

const NOT_A_SNAPSHOT = '--device applies to a snapshot pickle or memory-history JSON, not a trace';

function loadTrace(arg: string, stdin: () => string, device: number | undefined): Loaded {
  const preset = findPreset(arg);
  if (preset) {
    if (device !== undefined) return { ok: false, error: NOT_A_SNAPSHOT };
    const p = parseTrace(preset.text);
    return p.ok ? { ok: true, trace: p.trace, source: `preset ${preset.id}`, notes: [], recorded: null } : { ok: false, error: p.errors[0].message };
  }
  const input = readSource(arg, stdin);
  if (!input.ok) return { ok: false, error: input.error };
  const source = arg === '-' ? 'stdin' : quoteArg(arg, 200, true);
  if ('pickle' in input) return fromHistory(importSnapshotPickle(input.pickle, device), source);
  if (/^\s*\{/.test(input.text)) return fromHistory(importMemoryHistory(input.text, device), source);
  if (device !== undefined) return { ok: false, error: NOT_A_SNAPSHOT };
  const p = parseTrace(input.text);
  if (!p.ok) return { ok: false, error: `${source} ${p.errors[0].message}${p.errors.length > 1 ? ` (and ${p.errors.length - 1} more bad lines)` : ''}` };
  return { ok: true, trace: p.trace, source, notes: [], recorded: null };
}

function options(flags: Map<string, string | true>): { ok: true; value: SimOptions } | { ok: false; error: string } {
  const o: SimOptions = {};
  const str = (k: string) => (typeof flags.get(k) === 'string' ? (flags.get(k) as string) : undefined);
  for (const k of ['capacity', 'overhead'] as const) {
    const v = str(k);
    if (v === undefined) continue;
    const s = parseByteSize(v);
    if (!s.ok) return { ok: false, error: `--${k}: ${s.message}` };
    o[k] = s.bytes;
  }
  const fr = str('fraction');
  if (fr !== undefined) {
    const f = /^(?:\d+(?:\.\d+)?|\.\d+)$/.test(fr) ? Number(fr) : NaN;
    if (!(f > 0 && f <= 1)) return { ok: false, error: `--fraction must be in (0, 1], got ${quoteArg(fr, 60)}` };
    o.fraction = f;
  }
  const conf = str('conf');
  if (conf !== undefined) o.conf = conf;
  const v = str('version');
  if (v !== undefined) {
    if (!OOM_VERSIONS.includes(v as OomVersion)) return { ok: false, error: `--version must be one of ${OOM_VERSIONS.join(', ')}` };
    o.version = v as OomVersion;
  }
  return { ok: true, value: o };
}

const STAT_ROWS: [MemoryStatKey, string][] = [
  ['allocated_bytes.all.current', 'memory_allocated()'],
  ['allocated_bytes.all.peak', 'max_memory_allocated()'],
  ['reserved_bytes.all.current', 'memory_reserved()'],
  ['reserved_bytes.all.peak', 'max_memory_reserved()'],
  ['requested_bytes.all.current', 'requested (unrounded)'],
  ['inactive_split_bytes.all.current', 'non-releasable holes'],
];
const COUNT_ROWS: MemoryStatKey[] = [
  'segment.all.current',
  'allocation.all.current',
  'inactive_split.all.current',
  'oversize_allocations.current',
  'oversize_segments.current',
  'num_alloc_retries',
  'num_ooms',
  'num_device_alloc',
  'num_device_free',
];

/** Recorded run against this replay, three rows (issue #13 §3). */
function fidelityTable(recorded: RecordedRun, run: SimRun): string[] {
  const f = replayFidelity(recorded, run);
  const err = f.reservedPeakError === null ? '' : `  (${f.reservedPeakError >= 0 ? '+' : ''}${(100 * f.reservedPeakError).toFixed(1)}%)`;
  const rows: [string, string][] = [
    ['', `${'recorded'.padStart(12)}  ${'replayed'.padStart(12)}`],
    ['segment allocations', `${String(f.recorded.deviceAllocs).padStart(12)}  ${String(f.replayed.deviceAllocs).padStart(12)}`],
    ['peak reserved', `${humanBytes(f.recorded.reservedPeak).padStart(12)}  ${humanBytes(f.replayed.reservedPeak).padStart(12)}${err}`],
    ['OOMs', `${String(f.recorded.ooms).padStart(12)}  ${String(f.replayed.ooms).padStart(12)}`],
  ];
  return ['', `recorded run against this replay (PYTORCH_CUDA_ALLOC_CONF=${f.conf || '(default)'}):`, table(rows), ...f.notes.map((n) => `note: ${oneLine(n.text)}`)];
}

function render(run: SimRun, source: string, notes: Message[], summary: boolean, recorded: RecordedRun | null): string {
  const s = run.final.stats;
  const set = run.settings;
  const out = [
    `${source}: ${run.count} events on a ${humanBytes(set.capacity)} card${set.overhead ? ` (${humanBytes(set.overhead)} outside PyTorch)` : ''}, PYTORCH_CUDA_ALLOC_CONF=${set.confText || '(default)'}`,
    ...[...notes, ...run.notes].map((n) => `note: ${oneLine(n.text)}`),
    '',
    table([...STAT_ROWS.map(([k, label]): [string, string] => [k, `${humanBytes(s[k]).padStart(12)}  ${label}`]), ...COUNT_ROWS.map((k): [string, string] => [k, String(s[k]).padStart(12)])]),
    '',
    `segments: ${run.final.segments.length}, free on card: ${humanBytes(run.final.deviceFree)}`,
  ];
  if (recorded) out.push(...fidelityTable(recorded, run));
  if (summary) out.push('', formatMemorySummary(s).trimEnd());
  for (const i of run.oomSteps) {
    const st = stepAt(run, i);
    if (st) out.push('', `OOM at line ${st.line} (alloc ${st.name}):`, st.oomMessage ?? '');
  }
  return out.join('\n') + '\n';
}

function compare(trace: Trace, o: SimOptions, json: boolean, recorded: RecordedRun | null): CliResult {
  const { conf: _ignored, ...shared } = o;
  const r = compareConfs(trace, undefined, shared);
  if (!r.ok) return usageError(r.errors[0].message);
  if (json) return { code: 0, stdout: `${JSON.stringify(r.value, null, 2)}\n`, stderr: '' };
  const rows = r.value.map((x): [string, string] => [
    x.conf || '(default)',
    `${x.ooms ? `OOM at line ${x.firstOomLine}` : 'no OOM'}; peak reserved ${humanBytes(x.peakReserved)}, final ${humanBytes(x.finalReserved)}, ${x.retries} flush retries, ${x.deviceAllocs} device allocations`,
  ]);
  if (recorded) rows.unshift(['recorded run', `${recorded.ooms ? `${recorded.ooms} OOM` : 'no OOM'}; peak reserved ${humanBytes(recorded.reservedPeak)}, ${recorded.deviceAllocs} device allocations`]);
  return { code: 0, stdout: `${table(rows)}\n`, stderr: '' };
}

/** The CLI on argv (without node and script); never throws. */
export function main(argv: readonly string[], stdin: () => string): CliResult {
  const f = splitFlags(argv, ['json', 'help', 'summary', 'presets', 'compare'], ['conf', 'capacity', 'overhead', 'fraction', 'version', 'device']);
  if (!f.ok) return usageError(f.error);
  if (f.flags.has('help')) return { code: 0, stdout: USAGE, stderr: '' };
  if (f.flags.has('presets')) return { code: 0, stdout: TRACE_PRESETS.map((p) => `${p.id.padEnd(26)} ${p.title.text}`).join('\n') + '\n', stderr: '' };
  if (f.positional.length !== 1) return usageError(`give one trace file, '-' or a preset name (${TRACE_PRESETS.map((p) => p.id).join(', ')})`);
  const dev = f.flags.get('device');
  if (dev !== undefined && (typeof dev !== 'string' || !/^\d{1,4}$/.test(dev))) return usageError(`--device must be a GPU index (0, 1, …), got ${quoteArg(String(dev), 60)}`);
  const loaded = loadTrace(f.positional[0], stdin, dev === undefined ? undefined : Number(dev));
  if (!loaded.ok) return usageError(loaded.error);
  const o = options(f.flags);
  if (!o.ok) return usageError(o.error);
  if (f.flags.has('compare')) return compare(loaded.trace, o.value, f.flags.has('json'), loaded.recorded);
  const r = simulateTrace(loaded.trace, o.value);
  if (!r.ok) return usageError(r.errors[0].message);
  const run = r.value;
  const code = run.oomSteps.length ? 1 : 0;
  if (f.flags.has('json')) {
    const ooms = run.oomSteps.map((i) => {
      const st = stepAt(run, i);
      return { step: i, line: st?.line, name: st?.name, message: st?.oomMessage };
    });
    const body = {
      source: loaded.source,
      settings: run.settings,
      events: run.count,
      stats: run.final.stats,
      segments: run.final.segments,
      deviceFree: run.final.deviceFree,
      ooms,
      ...(loaded.recorded ? { recorded: loaded.recorded, fidelity: replayFidelity(loaded.recorded, run) } : {}),
      notes: [...loaded.notes, ...run.notes],
    };
    return { code, stdout: `${JSON.stringify(body, null, 2)}\n`, stderr: '' };
  }
  return { code, stdout: render(run, loaded.source, loaded.notes, f.flags.has('summary'), loaded.recorded), stderr: '' };
}

runIfMain(import.meta.url, main);
