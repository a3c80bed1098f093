/**
 * Runs a trace through the allocator model, recording per-step figures for a timeline and
 * periodic checkpoints so any step's full state can be rebuilt quickly (step forward/back).
 * Model: allocator.ts (docs/reference/allocator.md §3–§5); OOM text: oom-message.ts (docs/reference/allocator.md §7).
 */
import type { FieldError, Message, Result } from '../types';
import { CachingAllocator, type OomFacts } from './allocator';
import { parseAllocConf, type AllocatorConfig } from './config';
import { GiB } from '../units';
import { formatOomMessage, oomExceptionName, type OomVersion } from './oom-message';
import type { Trace, TraceEvent } from './trace';
import { EVENT_KIND, eventSource, type TraceColumns } from './trace-columns';
import { viewAllocator, type AllocatorView } from './view';

export interface SimOptions {
  /** overrides the trace's `capacity` (default 80 GiB) */
  capacity?: number;
  /** overrides the trace's `overhead` (default 0) */
  overhead?: number;
  /** overrides the trace's `fraction` */
  fraction?: number | null;
  /** overrides the trace's `conf` (PYTORCH_CUDA_ALLOC_CONF value) */
  conf?: string;
  /** PyTorch release whose OOM text to print (default '2.4') */
  version?: OomVersion;
  device?: number;
  /** NVML present: OOM text names this process's memory (default true) */
  nvml?: boolean;
  /** minimum events between full-state checkpoints (default 2048; at least twice the block count and 1/64 of the events) */
  checkpointEvery?: number;
}

export type StepOutcome = 'ok' | 'oom' | 'skipped';

/** One applied event and the totals right after it (built on demand by stepAt). */
export interface StepRecord {
  /** 1-based trace line */
  line: number;
  op: TraceEvent['op'];
  name?: string;
  /** requested bytes (alloc) */
  size?: number;
  outcome: StepOutcome;
  /** address and size of the block handed out (alloc ok) */
  addr?: number;
  blockSize?: number;
  allocated: number;
  reserved: number;
  /** OOM: the exact text, prefixed by the exception class */
  oomMessage?: string;
  oom?: OomFacts;
  note?: Message;
}

/** Per-step figures as columns (index = step), cheap to keep for 10^5 events and to chart. */
export interface Timeline {
  /** allocated_bytes.all.current after each step */
  allocated: Float64Array;
  /** reserved_bytes.all.current after each step */
  reserved: Float64Array;
  /** the largest free (mapped) block after each step: AllocatorView.largestFreeBlock */
  largestFree: Float64Array;
  /** 0 ok, 1 oom, 2 skipped */
  outcome: Uint8Array;
  /** block address / size handed out by an alloc (0 otherwise) */
  addr: Float64Array;
  blockSize: Float64Array;
}

export interface ResolvedSettings {
  capacity: number;
  overhead: number;
  fraction: number | null;
  conf: AllocatorConfig;
  confText: string;
  version: OomVersion;
}

export interface SimRun {
  settings: ResolvedSettings;
  /** the trace's events (an imported trace builds these objects on first read: prefer `count` and stepAt) */
  readonly events: readonly TraceEvent[];
  /** number of events */
  count: number;
  timeline: Timeline;
  /** state after the last event */
  final: AllocatorView;
  /** indices of steps that ran out of memory, and the allocator's figures at each */
  oomSteps: number[];
  ooms: Map<number, OomFacts>;
  peakAllocated: number;
  peakReserved: number;
  notes: Message[];
  /** internal: allocator copies after step `step` (−1 = empty), for viewAt */
  readonly checkpoints: { step: number; state: CachingAllocator }[];
  readonly ctx: { version: OomVersion; device: number; nvml: boolean };
  /** internal: the events as the replay reads them */
  readonly source: TraceColumns;
}

const OUTCOMES: readonly StepOutcome[] = ['ok', 'oom', 'skipped'];

/** Applies event i of `ev`; returns the outcome code and the OOM figures on failure. */
function apply(a: CachingAllocator, ev: TraceColumns, t: Timeline | null, i: number): OomFacts | null {
  let outcome = 0;
  let oom: OomFacts | null = null;
  const kind = ev.kind(i);
  if (kind === EVENT_KIND.emptyCache) a.emptyCache();
  else if (kind === EVENT_KIND.free) outcome = a.free(ev.key(i)) ? 0 : 2;
  else if (ev.size(i) === 0) outcome = 2;
  else {
    const r = a.malloc(ev.key(i), ev.size(i), ev.segmentAt(i));
    if (r.ok) {
      if (t) {
        t.addr[i] = r.block.addr;
        t.blockSize[i] = r.block.size;
      }
    } else {
      outcome = 1;
      oom = r.oom;
    }
  }
  if (t) {
    t.outcome[i] = outcome;
    t.allocated[i] = a.stats.arrays.allocated_bytes.all.current;
    t.reserved[i] = a.reserved;
    t.largestFree[i] = Math.max(a.pools.small.last()?.size ?? 0, a.pools.large.last()?.size ?? 0);
  }
  return oom;
}

/** The exact OOM text (with exception prefix) PyTorch would print for these figures. */
function oomText(run: SimRun, oom: OomFacts): string {
  const text = formatOomMessage(run.ctx.version, oom, { device: run.ctx.device, nvml: run.ctx.nvml, privatePools: 0 });
  return `${oomExceptionName(run.ctx.version)}: ${text}`;
}

/** Step `i` as one record: the event, its outcome, totals after it, OOM text or a note; null when out of range. */
export function stepAt(run: SimRun, i: number): StepRecord | null {
  if (!Number.isInteger(i) || i < 0 || i >= run.count) return null;
  const e = run.source.event(i);
  // the timeline holds one entry per event, and its outcome codes index OUTCOMES
  const t = run.timeline;
  const rec: StepRecord = { line: e.line, op: e.op, outcome: OUTCOMES[t.outcome[i]!]!, allocated: t.allocated[i]!, reserved: t.reserved[i]! };
  if (e.op === 'empty_cache') return rec;
  rec.name = e.name;
  if (e.op === 'free') {
    if (rec.outcome === 'skipped') rec.note = { code: 'free-not-live', params: { name: e.name }, text: `'${e.name}' holds no memory (its allocation failed), nothing to free` };
    return rec;
  }
  rec.size = e.size;
  if (rec.outcome === 'ok') {
    rec.addr = t.addr[i]!;
    rec.blockSize = t.blockSize[i]!;
  } else if (rec.outcome === 'skipped') {
    rec.note = { code: 'alloc-zero', text: 'zero-byte tensors never reach the caching allocator' };
  } else {
    const oom = run.ooms.get(i) as OomFacts;
    rec.oom = oom;
    rec.oomMessage = oomText(run, oom);
  }
  return rec;
}

/** Largest card the model accepts (1 PiB): keeps every address and sum exact in float64. */
const MAX_CAPACITY = 2 ** 50;

function resolve(trace: Trace, o: SimOptions): Result<ResolvedSettings> {
  const errors: FieldError[] = [];
  const capacity = o.capacity ?? trace.settings.capacity ?? 80 * GiB;
  const overhead = o.overhead ?? trace.settings.overhead ?? 0;
  const fraction = o.fraction !== undefined ? o.fraction : trace.settings.fraction;
  const confText = o.conf ?? trace.settings.conf ?? '';
  if (!(Number.isFinite(capacity) && capacity > 0 && capacity <= MAX_CAPACITY)) {
    errors.push({ key: 'capacity', code: 'capacity-invalid', message: 'capacity must be a positive number of bytes, at most 1 PiB' });
  }
  if (!(Number.isFinite(overhead) && overhead >= 0 && overhead < capacity)) {
    errors.push({ key: 'overhead', code: 'overhead-invalid', message: 'overhead must be at least 0 and below the capacity' });
  }
  if (fraction !== null && !(fraction > 0 && fraction <= 1)) errors.push({ key: 'fraction', code: 'fraction-invalid', message: 'fraction must be in (0, 1]' });
  const conf = parseAllocConf(confText);
  if (!conf.ok) errors.push(...conf.errors);
  if (errors.length || !conf.ok) return { ok: false, errors };
  return { ok: true, value: { capacity, overhead, fraction, conf: conf.value, confText, version: o.version ?? '2.4' } };
}

/**
 * At most about this many checkpoints per run, by spacing them at least n / MAX_CHECKPOINTS events
 * apart: each holds a copy of every block, and a 667,000-event replay (bench/allocator.bench.ts)
 * kept 198 copies, 331,050 blocks, that the garbage collector traced again and again. Stepping to
 * any step replays at most that spacing (about 10,000 events there) from the nearest copy.
 */
const MAX_CHECKPOINTS = 64;

/** Simulates every event of `trace`; options override the trace's own settings. */
export function simulateTrace(trace: Trace, options: SimOptions = {}): Result<SimRun> {
  const res = resolve(trace, options);
  if (!res.ok) return res;
  const settings = res.value;
  const source = eventSource(trace);
  const n = source.count;
  const every = Math.max(1, Math.floor(options.checkpointEvery ?? 2048), Math.ceil(n / MAX_CHECKPOINTS));
  const ctx = { version: settings.version, device: options.device ?? 0, nvml: options.nvml ?? true };
  const a = new CachingAllocator({ capacity: settings.capacity, overhead: settings.overhead, fraction: settings.fraction }, settings.conf);
  const checkpoints = [{ step: -1, state: a.clone() }];
  let lastCheckpoint = -1;
  const timeline: Timeline = {
    allocated: new Float64Array(n),
    reserved: new Float64Array(n),
    largestFree: new Float64Array(n),
    outcome: new Uint8Array(n),
    addr: new Float64Array(n),
    blockSize: new Float64Array(n),
  };
  const oomSteps: number[] = [];
  const ooms = new Map<number, OomFacts>();
  for (let i = 0; i < n; i++) {
    const oom = apply(a, source, timeline, i);
    if (oom) {
      oomSteps.push(i);
      ooms.set(i, oom);
    }
    // A copy costs about one event per block, so copying at most once per max(every, 2 × blocks)
    // events keeps the copy work below half an event's worth per event.
    const blocks = a.live.size + a.pools.small.length + a.pools.large.length;
    if (i - lastCheckpoint >= Math.max(every, 2 * blocks) && i + 1 < n) {
      checkpoints.push({ step: i, state: a.clone() });
      lastCheckpoint = i;
    }
  }
  const notes: Message[] = [];
  if (settings.conf.backend === 'cudaMallocAsync') {
    notes.push({ code: 'backend-async', text: 'backend:cudaMallocAsync uses the driver pool; this model shows the native allocator' });
  }
  const stats = a.stats.arrays;
  return {
    ok: true,
    value: {
      settings,
      get events() {
        return trace.events;
      },
      count: n,
      timeline,
      final: viewAllocator(a, (k) => source.keyName(k)),
      oomSteps,
      ooms,
      peakAllocated: stats.allocated_bytes.all.peak,
      peakReserved: stats.reserved_bytes.all.peak,
      notes,
      checkpoints,
      ctx,
      source,
    },
  };
}

/** Full state after step `step` (−1: before the first event), rebuilt from the nearest checkpoint. */
export function viewAt(run: SimRun, step: number): AllocatorView {
  const target = Number.isFinite(step) ? Math.max(-1, Math.min(Math.floor(step), run.count - 1)) : -1;
  let lo = 0;
  let hi = run.checkpoints.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (run.checkpoints[mid]!.step <= target)
      lo = mid; // mid ≤ hi < checkpoints.length
    else hi = mid - 1;
  }
  const cp = run.checkpoints[lo]!; // there is always the one before the first event
  const a = cp.state.clone();
  for (let i = cp.step + 1; i <= target; i++) apply(a, run.source, null, i); // target < count
  return viewAllocator(a, (k) => run.source.keyName(k));
}
