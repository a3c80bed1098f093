/**
 * Finds and decodes a PyTorch CUDA/HIP out-of-memory message in pasted text: tracebacks, logs,
 * ANSI colours, wrapped lines. Accepts every template of docs/reference/allocator.md §7.2–§7.3 (≤2.0 old form,
 * 2.1 "capacty", 2.2+, 2.4 private pools, later docs.pytorch.org link, HIP, four exception
 * prefixes, the 1 EiB guard and the driver's "CUDA error: out of memory").
 */
import type { Message } from '../types';
import { GiB, KiB, MiB } from '../units';
import { diagnoseOom, type Diagnosis } from './advice';
import { fitAdvice, type AdviceContext } from './advice-fit';
import { describeRequest, type RequestMeaning } from './request-meaning';

export interface OomField {
  key: 'requested' | 'device' | 'total' | 'free' | 'thisProcess' | 'process' | 'allowed' | 'allocated' | 'privatePools' | 'unallocated' | 'reserved';
  /** bytes, or the device index / pid for those keys */
  value: number;
  /** as printed, e.g. "20.00 MiB" */
  text: string;
  /** decoding error of the printed figure (2-decimal rounding), bytes */
  precision: number;
  meaning: Message;
}

export interface DecodedOom {
  kind: 'allocator' | 'over-1eb' | 'driver';
  /** every figure of the template was found */
  complete: boolean;
  backend: 'cuda' | 'hip';
  format: 'old' | 'new' | null;
  exception: string | null;
  version: Message;
  /** the message as found, whitespace collapsed */
  raw: string;
  fields: OomField[];
  processes: { pid: number; bytes: number }[];
  derived: {
    reserved: number | null;
    unallocated: number | null;
    /** this process's memory outside the caching allocator (context, other libraries) */
    nonPyTorch: number | null;
    /** memory of other processes: total − free − this process when NVML names this process, else the other process lines */
    otherProcesses: number | null;
    /** pid of the process line taken to be this process when the message lacks "this process has" */
    assumedSelfPid: number | null;
    /** total − free − reserved: everything on the card outside this allocator's reserve */
    usedOutsideAllocator: number | null;
    request: RequestMeaning | null;
  };
  diagnosis: Diagnosis | null;
}

export type OomDecode =
  | {
      found: true;
      oom: DecodedOom;
      /** further messages in the same text, at most MAX_OOM_MESSAGES − 1 of them */
      others: DecodedOom[];
      /** messages found in the text, decoded or not */
      count: number;
    }
  | { found: false; message: Message; example: string };

/** Longest text decoded (characters): the CLI's input cap; a longer paste is refused with a message. */
export const MAX_OOM_TEXT = 64 * MiB;
/** Messages decoded per text; the rest are only counted (a log of thousands repeats the same one). */
export const MAX_OOM_MESSAGES = 100;
/** Largest figure read: a signed 64-bit byte count (2^63 B = 8 EiB); PyTorch refuses requests over 1 EiB. */
const MAX_FIGURE = 2 ** 63;
/** Largest device index or pid read (a C int). */
const MAX_ID = 2 ** 31 - 1;

export const OOM_EXAMPLE =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB. GPU 0 has a total capacity of 23.65 GiB of which 12.81 MiB is free. Including non-PyTorch memory, this process has 23.62 GiB memory in use. Of the allocated memory 22.94 GiB is allocated by PyTorch, and 229.61 MiB is reserved by PyTorch but unallocated. …';

const SZ = '(\\d+(?:\\.\\d+)?)(bytes|KiB|MiB|GiB)';
const UNIT: Record<string, number> = { bytes: 1, KiB: KiB, MiB: MiB, GiB: GiB };
const ANCHOR = /(?:(?:CUDA|HIP)o|O)utofmemory\.Triedtoallocate|(?:CUDA|HIP)error:outofmemory/g;
const PREFIX = /(torch\.cuda\.OutOfMemoryError|torch\.OutOfMemoryError|OutOfMemoryError|RuntimeError)\s*:\s*$/;

/**
 * Removes ANSI escape sequences (colours, OSC links): OSC ESC ] … BEL|ST, and CSI ESC [ with
 * parameter bytes, intermediate bytes 0x20–0x2F and one final byte 0x40–0x7E (ECMA-48 §5.4).
 */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching ESC and BEL is the point
  return text.replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g, '').replace(/\x1b\[[\d;?]*[\x20-\x2f]*[\x40-\x7e]/g, '');
}

/** Text without whitespace plus the original index of each kept character (no per-character string building: linear, little garbage). */
function compact(text: string): { s: string; at: Uint32Array } {
  const at = new Uint32Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // space, \t \n \v \f \r, no-break space: the characters SPACE removes
    if (c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0) continue;
    at[n++] = i;
  }
  return { s: text.replace(SPACE, ''), at: at.subarray(0, n) };
}
const SPACE = /[ \t\n\v\f\r\u00a0]+/g;

/** A figure past its range: the decode stops with a message naming the field. */
class OutOfRange extends Error {
  constructor(
    readonly field: OomField['key'],
    readonly shown: string,
    readonly max: string,
  ) {
    super(`${field}: ${shown} is out of range (at most ${max})`);
  }
}

/** A printed number cut to 20 digits for a message (a pasted figure may have hundreds). */
const cut = (num: string) => (num.length > 20 ? `${num.slice(0, 20)}…` : num);

/** The figure in groups i (number) and i + 1 (unit) of a match of SZ; null where they did not take part. */
const size = (key: OomField['key'], m: RegExpMatchArray, i: number) => {
  const num = m[i];
  const unit = m[i + 1];
  const mult = unit === undefined ? undefined : UNIT[unit];
  if (num === undefined || mult === undefined) return null;
  const value = unit === 'bytes' ? Number(num) : Math.round(Number(num) * mult);
  if (!(value <= MAX_FIGURE)) throw new OutOfRange(key, `${cut(num)} ${unit}`, '8 EiB');
  return { value, text: `${num} ${unit}`, precision: unit === 'bytes' ? 0 : Math.floor(0.005 * mult) };
};

/** A device index or pid as printed. */
const id = (key: OomField['key'], num: string): number => {
  const value = Number(num);
  if (!(value <= MAX_ID)) throw new OutOfRange(key, cut(num), String(MAX_ID));
  return value;
};

const MEANINGS: Record<OomField['key'], string> = {
  requested: 'Tried to allocate: the segment size asked of the driver (the request rounded by the allocator), not the tensor size',
  device: 'device index',
  total: 'total memory of the card (cudaMemGetInfo)',
  free: 'free memory on the card after PyTorch released its whole free cached segments',
  thisProcess: 'all memory of this process per NVML: PyTorch reserve, CUDA context and non-PyTorch allocations',
  process: 'memory of another process (or of this one seen under another pid in a container)',
  allowed: 'limit set by torch.cuda.set_per_process_memory_fraction',
  allocated: 'bytes in live tensors (memory_allocated), rounding slack included',
  privatePools: 'part of the allocated figure held by CUDA-graph private pools',
  unallocated: 'cached by PyTorch but free: holes in partly used segments that the request did not fit',
  reserved: 'all memory held by PyTorch from the driver (memory_reserved)',
};

function field(key: OomField['key'], m: { value: number; text: string; precision: number }): OomField {
  return { key, ...m, meaning: { code: `oom-field.${key}`, text: MEANINGS[key] } };
}

/** Decodes the message starting at `start` of the compact text `s` (which ends at `end`). */
function decodeAt(s: string, start: number, end: number): { oom: Omit<DecodedOom, 'exception' | 'raw' | 'diagnosis'>; last: number } {
  const w = s.slice(start, end);
  const backend: 'cuda' | 'hip' = w.startsWith('HIP') ? 'hip' : 'cuda';
  const none = { reserved: null, unallocated: null, assumedSelfPid: null, nonPyTorch: null, otherProcesses: null, usedOutsideAllocator: null, request: null };
  const version = (code: string, text: string): Message => ({ code: `version.${code}`, text });
  if (/^(?:CUDA|HIP)error:outofmemory/.test(w)) {
    const oom = {
      kind: 'driver' as const,
      complete: true,
      backend,
      format: null,
      version: version('driver', 'a CUDA driver error outside the caching allocator (no allocator figures)'),
      fields: [],
      processes: [],
      derived: none,
    };
    return { oom, last: start + w.indexOf('memory') + 6 };
  }
  const eib = /^(?:CUDA|HIP)?[oO]utofmemory\.Triedtoallocatemorethan1EBmemory\./.exec(w);
  if (eib) {
    const oom = { kind: 'over-1eb' as const, complete: true, backend, format: null, version: version('any', 'any 2.x release'), fields: [], processes: [], derived: none };
    return { oom, last: start + eib[0].length };
  }
  const fields: OomField[] = [];
  let last = 0;
  const find = (re: string) => {
    const m = new RegExp(re).exec(w);
    if (m) last = Math.max(last, m.index + m[0].length);
    return m;
  };
  /** Adds the figure of groups i, i + 1 of `m` as `key`. */
  const add = (key: OomField['key'], m: RegExpMatchArray, i: number) => {
    const f = size(key, m, i);
    if (f) fields.push(field(key, f));
  };
  const addDevice = (num: string | undefined) => {
    if (num !== undefined) fields.push(field('device', { value: id('device', num), text: num, precision: 0 }));
  };
  const req = find(`^(?:CUDA|HIP)?[oO]utofmemory\\.Triedtoallocate${SZ}`);
  if (req) add('requested', req, 1);
  const newHead = find(`GPU(\\d+)hasatotalcapac(i?)tyof${SZ}ofwhich${SZ}isfree\\.`);
  const oldHead = newHead ? null : find(`\\(GPU(\\d+);${SZ}totalcapacity;${SZ}alreadyallocated;${SZ}free;`);
  const format: DecodedOom['format'] = newHead ? 'new' : oldHead ? 'old' : null;
  if (newHead) {
    addDevice(newHead[1]);
    add('total', newHead, 3);
    add('free', newHead, 5);
  } else if (oldHead) {
    addDevice(oldHead[1]);
    add('total', oldHead, 2);
    add('allocated', oldHead, 4);
    add('free', oldHead, 6);
  }
  const self = find(`Includingnon-PyTorchmemory,thisprocesshas${SZ}memoryinuse\\.`);
  if (self) add('thisProcess', self, 1);
  const processes: { pid: number; bytes: number }[] = [];
  for (const m of w.matchAll(new RegExp(`Process(\\d+)has${SZ}memoryinuse\\.`, 'g'))) {
    const f = size('process', m, 2);
    const pid = m[1];
    if (f === null || pid === undefined) continue;
    processes.push({ pid: id('process', pid), bytes: f.value });
    fields.push(field('process', { ...f, text: `${pid}: ${f.text}` }));
    last = Math.max(last, (m.index ?? 0) + m[0].length);
  }
  const allowed = find(`(?:;|\\.)${SZ}allowed;`);
  if (allowed) add('allowed', allowed, 1);
  let complete = false;
  if (format === 'new') {
    const alloc = find(`Oftheallocatedmemory${SZ}isallocatedbyPyTorch,`);
    if (alloc) add('allocated', alloc, 1);
    const pools = find(`with${SZ}allocatedinprivatepools`);
    if (pools) add('privatePools', pools, 1);
    const unalloc = find(`and${SZ}isreservedbyPyTorchbutunallocated\\.`);
    if (unalloc) add('unallocated', unalloc, 1);
    complete = !!(req && alloc && unalloc);
  } else if (format === 'old') {
    // not preceded by a digit or '.': \d+ then starts once per digit run (linear), not at every digit of it
    const res = find(`(?<![\\d.])${SZ}(reservedintotalbyPyTorch|cached)\\)`);
    if (res) add('reserved', res, 1);
    complete = !!(req && res);
  }
  const tailNew = find(
    'IfreservedbutunallocatedmemoryislargetrysettingPYTORCH_(?:CUDA_|HIP_)?ALLOC_CONF=expandable_segments:Truetoavoidfragmentation\\.SeedocumentationforMemoryManagement\\((https?://[^)]*)\\)',
  );
  const tail21 = find('Ifreservedbutunallocatedmemoryislargetrysettingmax_split_size_mbtoavoidfragmentation\\.SeedocumentationforMemoryManagementandPYTORCH_(?:CUDA|HIP)_ALLOC_CONF');
  const tailOld = find('Ifreservedmemoryis(?:>>|&gt;&gt;)allocatedmemorytrysettingmax_split_size_mbtoavoidfragmentation\\.SeedocumentationforMemoryManagementandPYTORCH_(?:CUDA|HIP)_ALLOC_CONF');
  const tailMain = tailNew ? null : find('unallocated\\.SeedocumentationforMemoryManagement\\((https?://[^)]*)\\)');
  let v = version('unknown', 'PyTorch release not identified (message truncated?)');
  if (format === 'old') {
    if (tailOld) v = version('1.10-2.0', 'PyTorch 1.10–2.0 (old message form)');
    else if (/cached\)/.test(w)) v = version('le-1.3', 'PyTorch ≤ 1.3 (approx.)');
    else v = version('le-1.9', 'PyTorch ≤ 1.9 (message without advice tail)');
  } else if (format === 'new') {
    if (newHead?.[2] === '') v = version('2.1', 'PyTorch 2.1 ("capacty" typo)');
    else if (tail21) v = version('2.1', 'PyTorch 2.1');
    else if (tailNew?.[1]?.includes('docs.pytorch.org')) v = version('ge-2.8', 'PyTorch ≥ 2.8 (approx.; docs.pytorch.org link)');
    else if (tailMain) v = version('main', 'PyTorch main after 2026 (expandable segments already on)');
    else if (pools()) v = version('ge-2.4', 'PyTorch ≥ 2.4 (CUDA Graphs private pools clause)');
    else v = version('2.2-2.7', 'PyTorch 2.2–2.7 (pytorch.org link; 2.4+ reads the same without CUDA Graphs pools)');
  }
  function pools() {
    return fields.some((f) => f.key === 'privatePools');
  }
  const oom = { kind: 'allocator' as const, complete, backend, format, version: v, fields, processes, derived: derive(fields, processes) };
  return { oom, last: start + last };
}

const get = (fields: OomField[], key: OomField['key']) => fields.find((f) => f.key === key)?.value ?? null;

function derive(fields: OomField[], processes: { pid: number; bytes: number }[]): DecodedOom['derived'] {
  const A = get(fields, 'allocated');
  const U0 = get(fields, 'unallocated');
  const R0 = get(fields, 'reserved');
  const reserved = R0 ?? (A !== null && U0 !== null ? A + U0 : null);
  // reserved always includes allocated; an edited message saying less gives no negative hole
  const unallocated = U0 ?? (R0 !== null && A !== null ? Math.max(0, R0 - A) : null);
  const total = get(fields, 'total');
  const free = get(fields, 'free');
  const req = get(fields, 'requested');
  // Without the "this process" sentence (containers), the smallest process line ≥ reserved is most likely this process.
  const guess = reserved === null ? undefined : processes.filter((p) => p.bytes >= reserved).sort((a, b) => a.bytes - b.bytes)[0];
  const selfBytes = get(fields, 'thisProcess') ?? guess?.bytes ?? null;
  const others = processes.filter((p) => p !== guess);
  let otherProcesses: number | null = others.length ? others.reduce((s, p) => s + p.bytes, 0) : processes.length ? 0 : null;
  if (selfBytes !== null && total !== null && free !== null) otherProcesses = Math.max(0, total - free - selfBytes);
  return {
    reserved,
    unallocated,
    assumedSelfPid: get(fields, 'thisProcess') === null ? (guess?.pid ?? null) : null,
    nonPyTorch: selfBytes !== null && reserved !== null ? Math.max(0, selfBytes - reserved) : null,
    otherProcesses,
    usedOutsideAllocator: total !== null && free !== null && reserved !== null ? Math.max(0, total - free - reserved) : null,
    request: req === null ? null : describeRequest(req, fields.find((f) => f.key === 'requested')?.precision ?? 0),
  };
}

/**
 * Finds every OOM message in `text`; the first becomes `oom`, up to MAX_OOM_MESSAGES are
 * decoded. Linear in the text (each message reads a window of at most 4,000 characters). A
 * figure out of range or a text over MAX_OOM_TEXT comes back as a message. Never throws.
 * `conf`: the user's current PYTORCH_CUDA_ALLOC_CONF; advice then drops or changes what it already sets,
 * and offers only options the message's release has (advice-fit.ts).
 */
export function decodeOom(text: string, conf: AdviceContext['conf'] = null): OomDecode {
  const notDecoded = (message: Message): OomDecode => ({ found: false, message, example: OOM_EXAMPLE });
  const input = String(text ?? '');
  if (input.length > MAX_OOM_TEXT) {
    return notDecoded({ code: 'oom-too-long', params: { max: '64 MiB' }, text: 'The text is longer than 64 MiB; paste the part of the log around the error.' });
  }
  const clean = stripAnsi(input);
  const { s, at } = compact(clean);
  const starts = [...s.matchAll(ANCHOR)].map((m) => m.index ?? 0);
  const found: DecodedOom[] = [];
  try {
    for (const [k, start] of starts.slice(0, MAX_OOM_MESSAGES).entries()) {
      const end = Math.min(starts[k + 1] ?? s.length, start + 4000);
      const { oom, last } = decodeAt(s, start, end);
      // `at` holds one index per character of s, and start ≤ last index < s.length
      const from = at[start]!;
      const to = at[Math.max(start, Math.min(last, s.length) - 1)]! + 1;
      // the exception name is on the message's own line, within 200 characters before it
      const before = clean.slice(Math.max(0, from - 200), from);
      const exception = PREFIX.exec(before.slice(before.lastIndexOf('\n') + 1))?.[1] ?? null;
      const diagnosis = oom.kind === 'allocator' && oom.complete ? diagnose(oom, conf) : null;
      found.push({ ...oom, exception, raw: clean.slice(from, to).replace(/\s+/g, ' ').trim(), diagnosis });
    }
  } catch (e) {
    if (!(e instanceof OutOfRange)) throw e;
    return notDecoded({ code: 'oom-out-of-range', params: { field: e.field, shown: e.shown, max: e.max }, text: e.message });
  }
  const [first, ...others] = found;
  if (!first) {
    return notDecoded({ code: 'oom-not-found', text: 'No PyTorch out-of-memory message found. Paste the error line (with or without its traceback); it looks like the example.' });
  }
  return { found: true, oom: first, others, count: starts.length };
}

function diagnose(o: Omit<DecodedOom, 'exception' | 'raw' | 'diagnosis'>, conf: AdviceContext['conf']): Diagnosis | null {
  const f = o.fields;
  const d = o.derived;
  const requested = get(f, 'requested');
  const free = get(f, 'free');
  const allocated = get(f, 'allocated');
  if (requested === null || free === null || allocated === null || d.reserved === null || d.unallocated === null) return null;
  const dx = diagnoseOom({
    requested,
    free,
    allocated,
    unallocated: d.unallocated,
    reserved: d.reserved,
    others: d.otherProcesses,
    nonPyTorch: d.nonPyTorch,
    allowed: get(f, 'allowed'),
    backend: o.backend,
  });
  return { ...dx, advice: fitAdvice(dx.advice, { version: o.version.code, conf }) };
}
