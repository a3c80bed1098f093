/**
 * The allocator trace language: one event per line.
 *
 *   capacity 8GiB                  card memory (default 80 GiB)
 *   overhead 500MiB                memory used outside PyTorch (CUDA context, other libraries)
 *   fraction 0.9                   torch.cuda.set_per_process_memory_fraction (enables GC)
 *   conf max_split_size_mb:128     PYTORCH_CUDA_ALLOC_CONF value
 *   alloc NAME SIZE                SIZE: bytes, 4 MiB, 1.5GB, 1024x1024 float32 …
 *   free NAME
 *   empty_cache
 *   # comment (also after an event)
 *
 * Settings must precede the first event. Operations mirror torch.cuda semantics (docs/reference/allocator.md §3–§5, §8).
 */
import { DECIMAL, parseByteSize } from './size-text';
import { columnTrace, NameIds, TraceColumns } from './trace-columns';

/**
 * One event. Imported allocs may carry `frame` (the top user stack frame, frames.ts), `oom`
 * (the request a recorded `oom` entry failed) and `segmentAt` (the address of the segment the
 * recorded run made for this request; history-import.ts); the trace language has none of them.
 */
export type TraceEvent =
  { op: 'alloc'; name: string; size: number; line: number; frame?: string; oom?: true; segmentAt?: number } | { op: 'free'; name: string; line: number } | { op: 'empty_cache'; line: number };

export interface TraceSettings {
  capacity: number | null;
  overhead: number | null;
  fraction: number | null;
  /** PYTORCH_CUDA_ALLOC_CONF text, validated when simulated */
  conf: string | null;
}

export interface Trace {
  settings: TraceSettings;
  events: TraceEvent[];
}

export interface TraceError {
  /** 1-based line number */
  line: number;
  code: string;
  message: string;
}

export type TraceParse = { ok: true; trace: Trace } | { ok: false; errors: TraceError[] };

/** At most this many errors are reported for one text. */
const MAX_ERRORS = 50;
const NAME = /^[\w.:@#$\-[\]/]+$/;

/** The line without a `#` comment (a `#` at the start or after whitespace; names may contain `#`). */
function stripComment(raw: string): string {
  let at = raw.indexOf('#');
  while (at > 0 && raw[at - 1] !== ' ' && raw[at - 1] !== '\t') at = raw.indexOf('#', at + 1);
  return at < 0 ? raw : raw.slice(0, at);
}

/** Parses trace text; every bad line gets an error with its line number. */
export function parseTrace(text: string): TraceParse {
  const settings: TraceSettings = { capacity: null, overhead: null, fraction: null, conf: null };
  // the events as the replay reads them (trace-columns.ts), each name numbered in order of first use
  const names = new NameIds();
  const events = new TraceColumns(names);
  const errors: TraceError[] = [];
  // name id → line of its live alloc (> 0) or minus the line that freed it (< 0)
  const since: number[] = [];
  const lines = text.split(/\r?\n/);
  let line = 0;
  const err = (code: string, message: string) => errors.push({ line, code, message: `line ${line}: ${message}` });
  for (let i = 0; i < lines.length && errors.length < MAX_ERRORS; i++) {
    line = i + 1;
    const body = stripComment(lines[i]!).trim(); // i < lines.length
    if (!body) continue;
    const [word = '', ...rest] = body.split(/\s+/);
    const op = word === 'alloc' || word === 'free' ? word : word.toLowerCase();
    if (op === 'capacity' || op === 'overhead' || op === 'fraction' || op === 'conf') {
      const arg = rest.join(' ');
      if (events.count > 0) {
        err('trace-setting-late', `'${op}' must come before the first alloc/free/empty_cache`);
        continue;
      }
      if (!arg) {
        err('trace-missing-value', `'${op}' needs a value`);
        continue;
      }
      if (op === 'conf') settings.conf = arg;
      else if (op === 'fraction') {
        const f = DECIMAL.test(arg) ? Number(arg) : NaN;
        if (!(f > 0 && f <= 1)) err('trace-bad-fraction', `fraction must be a number in (0, 1], got '${arg}'`);
        else settings.fraction = f;
      } else {
        const s = parseByteSize(arg);
        if (!s.ok) err('trace-bad-size', s.message);
        else if (op === 'capacity' && s.bytes <= 0) err('trace-bad-capacity', 'capacity must be more than 0 bytes');
        else settings[op] = s.bytes;
      }
    } else if (op === 'alloc') {
      const name = rest[0];
      if (!name || rest.length < 2) {
        err('trace-alloc-syntax', "expected 'alloc NAME SIZE', e.g. 'alloc x 1024x1024 float32'");
        continue;
      }
      if (!NAME.test(name)) {
        err('trace-bad-name', `bad tensor name '${name}'`);
        continue;
      }
      const s = parseByteSize(rest.slice(1).join(' '));
      if (!s.ok) {
        err('trace-bad-size', s.message);
        continue;
      }
      const id = names.add(name);
      if (id === since.length) since.push(0);
      if (since[id]! > 0) {
        err('trace-double-alloc', `'${name}' is still allocated (line ${since[id]}); free it first`);
        continue;
      }
      since[id] = line;
      events.alloc(id, s.bytes, line, null);
    } else if (op === 'free') {
      const name = rest[0];
      if (!name || rest.length !== 1) {
        err('trace-free-syntax', "expected 'free NAME'");
        continue;
      }
      const id = names.get(name);
      const was = id === undefined ? 0 : since[id]!;
      if (id === undefined || was <= 0) {
        err('trace-free-unknown', was < 0 ? `'${name}' was already freed on line ${-was}` : `'${name}' was never allocated`);
        continue;
      }
      since[id] = -line;
      events.free(id, line);
    } else if (op === 'empty_cache' || op === 'empty-cache') {
      if (rest.length) err('trace-empty-cache-syntax', "'empty_cache' takes no argument");
      else events.emptyCache(line);
    } else {
      err('trace-unknown-op', `unknown command '${word}' (expected alloc, free, empty_cache, capacity, overhead, fraction, conf or # comment)`);
    }
  }
  return errors.length ? { ok: false, errors } : { ok: true, trace: columnTrace(settings, events) };
}

/** Writes a trace back as text (e.g. after importing a memory snapshot). */
export function traceToText(trace: Trace): string {
  const out: string[] = [];
  const s = trace.settings;
  if (s.capacity !== null) out.push(`capacity ${s.capacity}`);
  if (s.overhead !== null) out.push(`overhead ${s.overhead}`);
  if (s.fraction !== null) out.push(`fraction ${s.fraction}`);
  if (s.conf) out.push(`conf ${s.conf}`);
  for (const e of trace.events) {
    out.push(e.op === 'alloc' ? `alloc ${e.name} ${e.size}` : e.op === 'free' ? `free ${e.name}` : 'empty_cache');
  }
  return out.join('\n') + '\n';
}
