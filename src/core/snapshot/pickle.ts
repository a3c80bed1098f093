/**
 * A safe reader for the plain-data subset of Python's pickle format (protocols 2–5): what
 * `torch.cuda.memory._dump_snapshot()` writes (`pickle.dump` of the dict `_snapshot()` returns,
 * torch/cuda/memory.py). Opcode semantics follow CPython Lib/pickle.py (`_Unpickler.load_*`) and
 * Lib/pickletools.py (argument formats).
 *
 * Read: dicts, lists, tuples, str, bytes / bytearray, int, float, bool, None and the memo.
 * Refused with the opcode's name and byte offset: everything that imports, builds or calls Python
 * objects (GLOBAL, STACK_GLOBAL, REDUCE, BUILD, INST, OBJ, NEWOBJ, NEWOBJ_EX, PERSID, BINPERSID,
 * EXT1/2/4), the text opcodes of protocols 0–1, sets and out-of-band buffers. Nothing is executed.
 *
 * Linear time and memory: one pass, no recursion; every length is checked against the bytes left
 * before anything is allocated, memo references share (never copy) their object, and integers
 * are at most 128 bits wide. Every failure is a returned error, never a throw.
 */
import { CODE_OPCODES, OPCODE_NAMES, opcodeLabel } from './pickle-opcodes';
import { decodeUtf8 } from '../utf8';

/** A dict key: the hashable plain values. */
export type PickleKey = null | boolean | number | bigint | string;
/** Where a dict keeps its keys that are not str (a Map, created only when there is one). */
export const OTHER_KEYS: unique symbol = Symbol('pickle.otherKeys');
/**
 * A Python dict: a plain object of its str keys (the only kind a snapshot has; read like parsed
 * JSON, and ten times cheaper to build than a Map), with any other keys in `[OTHER_KEYS]`.
 */
export interface PickleDict {
  [key: string]: PickleValue;
  [OTHER_KEYS]?: Map<PickleKey, PickleValue>;
}
/**
 * A plain Python value. Lists are arrays; tuples are frozen arrays (`Object.isFrozen`); ints are
 * numbers when exact in float64, otherwise bigints; bytes and bytearray are Uint8Arrays.
 */
export type PickleValue = PickleKey | Uint8Array | PickleValue[] | readonly PickleValue[] | PickleDict;

export interface PickleError {
  /** pickle-not-pickle, pickle-protocol, pickle-code, pickle-unsupported, pickle-truncated, pickle-malformed */
  code: string;
  /** byte offset of the opcode at fault */
  offset: number;
  /** the opcode's pickletools name, when there is one */
  opcode?: string;
  text: string;
}

export type PickleParse = { ok: true; value: PickleValue; protocol: number } | { ok: false; error: PickleError };

/**
 * Where a caller may keep dicts of a known shape without building them (trace-rows.ts: the 10^6
 * entries of a memory snapshot as typed columns, which spares the heap a million dicts).
 */
export interface DictSink {
  /**
   * Offered the key/value pairs `stack[from…]` (an even count) about to fill `d`, which has no keys
   * yet. Returns true when it keeps them itself, marking `d` as its own; false leaves them to the reader.
   */
  take(d: PickleDict, stack: readonly PickleValue[], from: number): boolean;
  /** Writes the pairs it kept back into `d` (a later SETITEM(S) adds to it), so `d` is an ordinary dict again. */
  restore(d: PickleDict): void;
  /** Whether `d` is one whose pairs it keeps. */
  owns(d: PickleDict): boolean;
}

/** Widest integer read (LONG1 / LONG4 bytes): 16 bytes, 128 bits. */
const MAX_INT_BYTES = 16;

class Fail extends Error {
  constructor(readonly detail: PickleError) {
    super(detail.text);
  }
}

/** Little-endian two's-complement integer of bytes[start, start + n) (n ≤ MAX_INT_BYTES): a number when exact, else a bigint. */
function decodeLong(bytes: Uint8Array, start: number, n: number): number | bigint {
  if (n === 0) return 0;
  // every index read lies in [start, start + n), which span() checked against bytes.length
  if (n <= 8) {
    // low 32 bits unsigned, the rest signed: exact in float64 while |high| < 2^21
    let lo = 0;
    for (let i = Math.min(n, 4) - 1; i >= 0; i--) lo = lo * 256 + bytes[start + i]!;
    if (n <= 4) return bytes[start + n - 1]! >= 0x80 ? lo - 2 ** (8 * n) : lo;
    let hi = 0;
    for (let i = n - 1; i >= 4; i--) hi = hi * 256 + bytes[start + i]!;
    if (bytes[start + n - 1]! >= 0x80) hi -= 2 ** (8 * (n - 4));
    if (Math.abs(hi) < 2 ** 21) return hi * 2 ** 32 + lo;
  }
  let v = 0n;
  for (let i = n - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[start + i]!);
  if (bytes[start + n - 1]! >= 0x80) v -= 1n << BigInt(8 * n);
  return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
}

const isKey = (v: PickleValue): v is PickleKey => v === null || typeof v !== 'object';

/** A dict of the reader (the one kind of object that is neither an array nor bytes). */
export const isDict = (v: PickleValue): v is PickleDict => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** Has `d` no keys at all? */
function isEmpty(d: PickleDict): boolean {
  for (const _ in d) return false;
  return d[OTHER_KEYS] === undefined;
}

/**
 * Reads one pickle (protocol 2–5) of plain data; never throws. `sink` may keep dicts of its shape
 * as it likes (DictSink); every other value is as without it.
 */
export function unpickle(bytes: Uint8Array, sink?: DictSink): PickleParse {
  try {
    return read(bytes, sink);
  } catch (e) {
    if (e instanceof Fail) return { ok: false, error: e.detail };
    // RangeError from an engine limit (a string or array too long for this engine)
    return { ok: false, error: { code: 'pickle-malformed', offset: 0, text: `cannot read the pickle: ${(e as Error).message}` } };
  }
}

function read(bytes: Uint8Array, sink: DictSink | undefined): PickleParse {
  const n = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const stack: PickleValue[] = [];
  const marks: number[] = [];
  // the memo: indices 0, 1, 2, … (MEMOIZE, and BINPUT as CPython writes it) in an array, any other index in a Map
  const memo: PickleValue[] = [];
  const memoFar = new Map<number, PickleValue>();
  let pos = 0;
  let at = 0; // offset of the opcode being run
  let op = 0;

  // an explicit type, so that a call narrows like a throw
  const fail: (code: string, text: string) => never = (code, text) => {
    const label = opcodeLabel(op);
    const name = OPCODE_NAMES.get(op);
    throw new Fail({ code, offset: at, ...(name ? { opcode: name } : {}), text: `${label} at byte ${at}: ${text}` });
  };
  const need = (k: number) => {
    if (k > n - pos) fail('pickle-truncated', `needs ${k} more bytes but the file ends after ${n - pos}: the pickle is truncated`);
  };
  const u8 = () => {
    need(1);
    return bytes[pos++]!; // need(1): pos < n
  };
  const u32 = () => {
    need(4);
    const v = view.getUint32(pos, true);
    pos += 4;
    return v;
  };
  const u64 = () => {
    need(8);
    const hi = view.getUint32(pos + 4, true);
    const v = hi * 2 ** 32 + view.getUint32(pos, true);
    pos += 8;
    // lengths past 2^53 cannot fit in any file this reader is given
    return hi >= 2 ** 21 ? Infinity : v;
  };
  const span = (len: number) => {
    need(len);
    const s = pos;
    pos += len;
    return s;
  };
  /** stack index where the current MARK's stack begins (Python's unpickler keeps a fresh stack per MARK): the last of `marks`, or 0 */
  let floor = 0;
  const stackEmpty: () => never = () => fail('pickle-malformed', 'the stack is empty');
  const pop = (): PickleValue => {
    if (stack.length <= floor) stackEmpty();
    return stack.pop() as PickleValue;
  };
  const top = (): PickleValue => {
    if (stack.length <= floor) stackEmpty();
    return stack[stack.length - 1]!; // stack.length > floor ≥ 0
  };
  /** stack index of the last MARK, which is removed */
  const popMarkAt = (): number => {
    const m = marks.pop();
    if (m === undefined) fail('pickle-malformed', 'no MARK before it');
    floor = marks.length > 0 ? marks[marks.length - 1]! : 0;
    return m;
  };
  const popMark = (): PickleValue[] => stack.splice(popMarkAt());
  /** Python's len(memo): MEMOIZE stores at this index */
  const memoSize = () => memo.length + memoFar.size;
  const put = (i: number) => {
    const v = top();
    if (i === memo.length && memoFar.size === 0) memo.push(v);
    else if (i < memo.length) memo[i] = v;
    else if (i === memo.length && !memoFar.has(i)) memo.push(v);
    else memoFar.set(i, v);
  };
  const get = (i: number) => {
    const v = i < memo.length ? memo[i] : memoFar.get(i);
    if (v === undefined) fail('pickle-malformed', `memo entry ${i} was never stored`);
    stack.push(v);
  };
  const list = (v: PickleValue): PickleValue[] => {
    if (!Array.isArray(v) || Object.isFrozen(v)) fail('pickle-malformed', 'appends to something that is not a list');
    return v;
  };
  const dict = (v: PickleValue): PickleDict => {
    if (!isDict(v)) fail('pickle-malformed', 'sets an item on something that is not a dict');
    return v;
  };
  /** Sets the key/value pairs stack[from…] on `d` and drops them from the stack. */
  const setItems = (d: PickleDict, from: number) => {
    if ((stack.length - from) % 2) fail('pickle-malformed', 'a key without a value');
    if (sink) {
      if (sink.owns(d)) sink.restore(d);
      else if (stack.length > from && isEmpty(d) && sink.take(d, stack, from)) {
        stack.length = from;
        return;
      }
    }
    // an even count of entries: i + 1 < stack.length
    for (let i = from; i < stack.length; i += 2) {
      const k = stack[i]!;
      const v = stack[i + 1]!;
      if (typeof k === 'string') {
        // '__proto__' as an own key, never the prototype
        if (k === '__proto__') Object.defineProperty(d, k, { value: v, writable: true, enumerable: true, configurable: true });
        else d[k] = v;
      } else if (isKey(k)) (d[OTHER_KEYS] ??= new Map()).set(k, v);
      else fail('pickle-unsupported', 'a dict key that is not a str, int, float, bool or None');
    }
    stack.length = from;
  };
  const tuple = (items: PickleValue[]) => stack.push(Object.freeze(items));

  op = bytes[0] ?? 0;
  if (n < 2 || op !== 0x80) {
    throw new Fail({ code: 'pickle-not-pickle', offset: 0, text: 'not a pickle of protocol 2–5 (it does not start with the PROTO opcode 0x80)' });
  }
  let protocol = 0;
  while (pos < n) {
    at = pos;
    op = bytes[pos++]!; // pos < n
    switch (op) {
      case 0x80: // PROTO
        protocol = u8();
        if (protocol < 2 || protocol > 5) fail('pickle-protocol', `protocol ${protocol}; this reader reads protocols 2–5`);
        break;
      case 0x95: // FRAME: a length prefix for buffered reading; the opcodes inside are read (and truncation found) as usual
        u64();
        break;
      case 0x2e: // STOP
        return { ok: true, value: pop(), protocol };
      case 0x28: // MARK
        marks.push((floor = stack.length));
        break;
      case 0x30: // POP
        if (marks.length > 0 && floor === stack.length) popMarkAt();
        else pop();
        break;
      case 0x31: // POP_MARK
        popMark();
        break;
      case 0x32: // DUP
        stack.push(top());
        break;
      case 0x4e:
        stack.push(null);
        break;
      case 0x88:
        stack.push(true);
        break;
      case 0x89:
        stack.push(false);
        break;
      case 0x4a: // BININT: 4-byte signed
        need(4);
        stack.push(view.getInt32(pos, true));
        pos += 4;
        break;
      case 0x4b: // BININT1
        if (pos >= n) need(1);
        stack.push(bytes[pos++]!); // pos < n
        break;
      case 0x4d: // BININT2
        need(2);
        stack.push(view.getUint16(pos, true));
        pos += 2;
        break;
      case 0x8a: // LONG1
      case 0x8b: {
        // LONG4
        if (pos >= n) need(1);
        const len = op === 0x8a ? bytes[pos++]! : u32(); // pos < n
        if (len > MAX_INT_BYTES) fail('pickle-unsupported', `an integer of ${len} bytes; integers up to ${MAX_INT_BYTES * 8} bits are read`);
        stack.push(decodeLong(bytes, span(len), len));
        break;
      }
      case 0x47: // BINFLOAT: 8-byte big-endian double
        need(8);
        stack.push(view.getFloat64(pos, false));
        pos += 8;
        break;
      case 0x8c: // SHORT_BINUNICODE
      case 0x58: // BINUNICODE
      case 0x8d: {
        // BINUNICODE8
        if (pos >= n) need(1);
        const len = op === 0x8c ? bytes[pos++]! : op === 0x58 ? u32() : u64(); // pos < n
        const s = span(len);
        stack.push(decodeUtf8(bytes, s, s + len));
        break;
      }
      case 0x43: // SHORT_BINBYTES
      case 0x42: // BINBYTES
      case 0x8e: // BINBYTES8
      case 0x96: {
        // BYTEARRAY8
        const len = op === 0x43 ? u8() : op === 0x42 ? u32() : u64();
        const s = span(len);
        stack.push(bytes.slice(s, s + len));
        break;
      }
      case 0x5d:
        stack.push([]);
        break;
      case 0x7d:
        stack.push({});
        break;
      case 0x29:
        tuple([]);
        break;
      case 0x85:
        tuple([pop()]);
        break;
      case 0x86: {
        const b = pop();
        tuple([pop(), b]);
        break;
      }
      case 0x87: {
        const c = pop();
        const b = pop();
        tuple([pop(), b, c]);
        break;
      }
      case 0x74: // TUPLE
        tuple(popMark());
        break;
      case 0x6c: // LIST
        stack.push(popMark());
        break;
      case 0x64: {
        // DICT
        const d: PickleDict = {};
        setItems(d, popMarkAt());
        stack.push(d);
        break;
      }
      case 0x61: {
        // APPEND
        const v = pop();
        list(top()).push(v);
        break;
      }
      case 0x65: {
        // APPENDS
        const from = popMarkAt();
        const target = stack[from - 1];
        if (target === undefined || from <= floor) stackEmpty();
        const l = list(target);
        for (let i = from; i < stack.length; i++) l.push(stack[i]!);
        stack.length = from;
        break;
      }
      case 0x73: // SETITEM
      case 0x75: {
        // SETITEMS
        const from = op === 0x73 ? stack.length - 2 : popMarkAt();
        // the dict sits below the pairs, above the MARK before it (Python keeps a stack per MARK)
        const target = stack[from - 1];
        if (target === undefined || from <= floor) stackEmpty();
        setItems(dict(target), from);
        break;
      }
      case 0x94: // MEMOIZE
        put(memoSize());
        break;
      case 0x71: // BINPUT
        if (pos >= n) need(1);
        put(bytes[pos++]!); // pos < n
        break;
      case 0x72: // LONG_BINPUT
        put(u32());
        break;
      case 0x68: // BINGET
        if (pos >= n) need(1);
        get(bytes[pos++]!); // pos < n
        break;
      case 0x6a: // LONG_BINGET
        get(u32());
        break;
      default:
        if (CODE_OPCODES.has(op)) fail('pickle-code', 'it would import or call Python code; a memory snapshot holds only plain data, so it is refused and nothing is run');
        fail('pickle-unsupported', 'not part of the plain-data subset torch.cuda.memory._dump_snapshot() writes (protocols 2–5)');
    }
  }
  throw new Fail({ code: 'pickle-truncated', offset: n, text: `the file ends at byte ${n} before the STOP opcode: the pickle is truncated` });
}
