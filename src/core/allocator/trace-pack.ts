/**
 * A trace as a few flat arrays, for handing a 10^5-event import between threads: the structured
 * clone of 10^5 event objects costs the page a few hundred milliseconds, a copy of typed arrays and
 * two strings almost nothing. Names and frames are tables joined by NUL (trace names have no
 * whitespace, file paths no NUL), referenced by index.
 */
import type { Trace, TraceEvent, TraceSettings } from './trace';

export interface PackedTrace {
  settings: TraceSettings;
  count: number;
  /** 0 alloc, 1 free, 2 empty_cache; +4 for an alloc marked `oom` */
  op: Uint8Array;
  line: Float64Array;
  /** requested bytes (alloc), else 0 */
  size: Float64Array;
  /** index into `names` (−1: empty_cache) */
  name: Int32Array;
  /** index into `frames` (−1: none) */
  frame: Int32Array;
  /** the recorded segment address of an alloc that made one (−1: none) */
  segmentAt: Float64Array;
  names: string;
  frames: string;
}

const OPS = ['alloc', 'free', 'empty_cache'] as const;
const OOM = 4;
const SEP = '\0';

/** Index of `s` in a growing table. */
function interner(): { at: (s: string) => number; joined: () => string } {
  const index = new Map<string, number>();
  return {
    at: (s) => {
      let i = index.get(s);
      if (i === undefined) index.set(s, (i = index.size));
      return i;
    },
    joined: () => [...index.keys()].join(SEP),
  };
}

export function packTrace(trace: Trace): PackedTrace {
  const n = trace.events.length;
  const p = {
    op: new Uint8Array(n),
    line: new Float64Array(n),
    size: new Float64Array(n),
    name: new Int32Array(n).fill(-1),
    frame: new Int32Array(n).fill(-1),
    segmentAt: new Float64Array(n).fill(-1),
  };
  const names = interner();
  const frames = interner();
  for (let i = 0; i < n; i++) {
    const e = trace.events[i]!; // i < n
    p.line[i] = e.line;
    if (e.op === 'empty_cache') {
      p.op[i] = 2;
      continue;
    }
    p.name[i] = names.at(e.name);
    if (e.op === 'free') {
      p.op[i] = 1;
      continue;
    }
    p.op[i] = e.oom ? OOM : 0;
    p.size[i] = e.size;
    if (e.frame !== undefined) p.frame[i] = frames.at(e.frame);
    if (e.segmentAt !== undefined) p.segmentAt[i] = e.segmentAt;
  }
  return { settings: { ...trace.settings }, count: n, ...p, names: names.joined(), frames: frames.joined() };
}

export function unpackTrace(p: PackedTrace): Trace {
  const names = p.names.split(SEP);
  const frames = p.frames.split(SEP);
  const events: TraceEvent[] = new Array<TraceEvent>(p.count);
  for (let i = 0; i < p.count; i++) {
    const code = p.op[i]!; // i < count: every column holds count entries
    const op = OPS[code & 3]!;
    const line = p.line[i]!;
    if (op === 'empty_cache') events[i] = { op, line };
    else if (op === 'free') events[i] = { op, name: names[p.name[i]!]!, line };
    else {
      const e: TraceEvent & { op: 'alloc' } = { op, name: names[p.name[i]!]!, size: p.size[i]!, line };
      if (p.frame[i]! >= 0) e.frame = frames[p.frame[i]!]!;
      if (code & OOM) e.oom = true;
      if (p.segmentAt[i]! >= 0) e.segmentAt = p.segmentAt[i]!;
      events[i] = e;
    }
  }
  return { settings: { ...p.settings }, events };
}
