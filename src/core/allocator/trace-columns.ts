/**
 * The events a replay reads (run.ts), as typed columns with each tensor named by a number: an
 * imported allocation history is written so (history-import.ts), instead of one object per event
 * (a 10^6-entry snapshot made 667,067 event objects, and 380,000 `0x…` names, that all lived until
 * the import ended, and the garbage collector copied each of them: bench/allocator.bench.ts), and
 * a trace of event objects is read into columns before its replay, so the replay has one form of
 * event and of tensor key. An event object or a name is built only when something asks for one
 * (`event(i)`, `keyName`, or an imported trace's `events`, built once on first read and equal to
 * what the import built before).
 *
 * A trace keeps its columns in a registry rather than in a field, so a copy of it
 * (`{ ...trace, events: edited }`) is an ordinary trace of its `events` again; and once its
 * `events` are read they are what later replays read, so an edit made to them is replayed.
 */
import type { Trace, TraceEvent, TraceSettings } from './trace';

/** op codes: 0 alloc, 1 free, 2 empty_cache; +4 on an alloc marked `oom` */
const ALLOC = 0;
const FREE = 1;
const EMPTY_CACHE = 2;
const OOM = 4;

/** Trace names numbered in order of first use: the ids a trace's columns key its tensors by. */
export class NameIds {
  private readonly ids = new Map<string, number>();
  private readonly list: string[] = [];

  /** the id of `name`, if it has one */
  get(name: string): number | undefined {
    return this.ids.get(name);
  }

  /** the id of `name`, numbered now if new */
  add(name: string): number {
    let id = this.ids.get(name);
    if (id === undefined) {
      id = this.list.length;
      this.ids.set(name, id);
      this.list.push(name);
    }
    return id;
  }

  name(id: number): string {
    return this.list[id]!; // ids come from add()
  }
}

export class TraceColumns {
  private n = 0;
  private op = new Uint8Array(1024);
  private lines = new Float64Array(1024);
  private sizes = new Float64Array(1024);
  /** an id of `names` (≥ 0), or −1 − k for the k-th of `oomNames` */
  private nameIds = new Int32Array(1024);
  /** index into `frames`, −1 for none */
  private frameIds = new Int32Array(1024);
  /** −1 for none (recorded addresses are whole numbers) */
  private segAt = new Float64Array(1024);
  private readonly oomNames: string[] = [];
  /** the top user frames, numbered like names */
  private readonly frames = new NameIds();

  /** `names` answers the trace name of each id the import gives (address-table.ts). */
  constructor(private readonly names: { name(id: number): string }) {}

  get count(): number {
    return this.n;
  }

  /** The columns of `events`, each name numbered in order of first use. */
  static fromEvents(events: readonly TraceEvent[]): TraceColumns {
    const names = new NameIds();
    const c = new TraceColumns(names);
    for (const e of events) {
      if (e.op === 'empty_cache') c.emptyCache(e.line);
      else if (e.op === 'free') c.free(names.add(e.name), e.line);
      else c.add(e.oom ? ALLOC + OOM : ALLOC, names.add(e.name), e.size, e.line, e.frame ?? null, e.segmentAt);
    }
    return c;
  }

  /** An alloc of tensor `id` (named by `names`). */
  alloc(id: number, size: number, line: number, frame: string | null, segmentAt?: number): void {
    this.add(ALLOC, id, size, line, frame, segmentAt);
  }

  /** The request a recorded `oom` entry failed, under its own name. */
  oomAlloc(name: string, size: number, line: number, frame: string | null): void {
    this.oomNames.push(name);
    this.add(ALLOC + OOM, -this.oomNames.length, size, line, frame);
  }

  free(id: number, line: number): void {
    this.add(FREE, id, 0, line, null);
  }

  emptyCache(line: number): void {
    this.add(EMPTY_CACHE, 0, 0, line, null);
  }

  private add(op: number, id: number, size: number, line: number, frame: string | null, segmentAt?: number): void {
    const i = this.n;
    if (i === this.op.length) this.grow();
    this.op[i] = op;
    this.nameIds[i] = id;
    this.sizes[i] = size;
    this.lines[i] = line;
    this.frameIds[i] = frame === null ? -1 : this.frames.add(frame);
    this.segAt[i] = segmentAt ?? -1;
    this.n++;
  }

  /** 0 alloc, 1 free, 2 empty_cache */
  kind(i: number): number {
    return this.op[i]! & 3;
  }

  /** the tensor's key for the allocator: a number that `keyName` names */
  key(i: number): number {
    return this.nameIds[i]!;
  }

  keyName(key: number): string {
    return key >= 0 ? this.names.name(key) : this.oomNames[-1 - key]!; // oomAlloc keeps −1 − k < oomNames.length
  }

  size(i: number): number {
    return this.sizes[i]!;
  }

  /** the recorded segment address of an alloc that made one, or undefined */
  segmentAt(i: number): number | undefined {
    const a = this.segAt[i]!;
    return a < 0 ? undefined : a;
  }

  /** Event i as the object the import used to build (same keys, same order). */
  event(i: number): TraceEvent {
    const op = this.op[i]!;
    const line = this.lines[i]!;
    if (op === EMPTY_CACHE) return { op: 'empty_cache', line };
    const name = this.keyName(this.nameIds[i]!);
    if (op === FREE) return { op: 'free', name, line };
    const f = this.frameIds[i]!;
    const size = this.sizes[i]!;
    if (op & OOM) {
      const e: TraceEvent & { op: 'alloc' } = { op: 'alloc', name, size, line, oom: true };
      if (f >= 0) e.frame = this.frames.name(f);
      return e;
    }
    const e: TraceEvent & { op: 'alloc' } = f >= 0 ? { op: 'alloc', name, size, line, frame: this.frames.name(f) } : { op: 'alloc', name, size, line };
    const at = this.segmentAt(i);
    if (at !== undefined) e.segmentAt = at;
    return e;
  }

  private grow(): void {
    const n = this.op.length * 2;
    const copy = <T extends Uint8Array | Float64Array | Int32Array>(c: T, make: (n: number) => T): T => {
      const b = make(n);
      b.set(c);
      return b;
    };
    this.op = copy(this.op, (k) => new Uint8Array(k));
    this.lines = copy(this.lines, (k) => new Float64Array(k));
    this.sizes = copy(this.sizes, (k) => new Float64Array(k));
    this.nameIds = copy(this.nameIds, (k) => new Int32Array(k));
    this.frameIds = copy(this.frameIds, (k) => new Int32Array(k));
    this.segAt = copy(this.segAt, (k) => new Float64Array(k));
  }
}

const registry = new WeakMap<Trace, TraceColumns>();

/** A trace whose events are `columns` until its `events` array is read (built then, and replayed from then on). */
export function columnTrace(settings: TraceSettings, columns: TraceColumns): Trace {
  let events: TraceEvent[] | null = null;
  const trace: Trace = {
    settings,
    get events(): TraceEvent[] {
      if (events === null) {
        events = Array.from({ length: columns.count }, (_, i) => columns.event(i));
        registry.delete(trace);
      }
      return events;
    },
  };
  registry.set(trace, columns);
  return trace;
}

/** The events of `trace` for a replay: its own columns, or its event objects read into columns. */
export function eventSource(trace: Trace): TraceColumns {
  return registry.get(trace) ?? TraceColumns.fromEvents(trace.events);
}

export const EVENT_KIND = { alloc: ALLOC, free: FREE, emptyCache: EMPTY_CACHE } as const;
