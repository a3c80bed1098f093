/**
 * The trace entries of a memory snapshot kept as typed columns while the pickle is read (a
 * DictSink of pickle.ts), instead of one dict per entry: a recording of 10^6 entries built 10^6
 * dicts, each with a property array and two boxed 64-bit numbers (addr, time_us), all live until
 * the import ends, and the garbage collector copied and marked them again and again (bench/
 * allocator.bench.ts: reading the 10^6-entry pickle took a median 1.79 s of CPU with dicts, 1.41 s
 * with columns). Each entry's dict stays in the value as an empty placeholder marked with its row,
 * so lists, memo references and every other value read as before; values other entries repeat
 * (a shared frames list) are stored once.
 *
 * The keys are those of a TraceEntry dict (torch/csrc/cuda/memory_snapshot.cpp
 * `_memory_snapshot_pickled`): action, addr, size, stream, time_us, frames; `device_free` on an
 * `oom` entry; compile_context and user_metadata in recent releases (the torch 2.11 recording in
 * tests/fixtures/torch-snapshot has both). A dict with any other key, a repeated key, no str
 * `action` or a number field that is not a float64 number is left to the reader as an ordinary
 * dict; so are all dicts past 255 distinct actions or key orders.
 */
import { type DictSink, type PickleDict, type PickleValue } from './pickle';

const KEYS = ['action', 'addr', 'size', 'stream', 'time_us', 'device_free', 'frames', 'compile_context', 'user_metadata'] as const;
/** key → its index in KEYS */
const INDEX: ReadonlyMap<string, number> = new Map(KEYS.map((k, i) => [k, i]));
/** KEYS[1…5] hold numbers; KEYS[6…8] any value */
const FIRST_VALUE = 6;
const NUMBERS = FIRST_VALUE - 1;
/** at most this many distinct actions and key orders (one byte each per row) */
const MAX_KINDS = 255;

const ROW: unique symbol = Symbol('snapshot.traceRow');
type RowDict = PickleDict & { [ROW]?: number };

export class TraceRows implements DictSink {
  private count = 0;
  private actionCode = new Uint8Array(1024);
  private shapeCode = new Uint8Array(1024);
  /** numeric columns, KEYS[1…5] */
  private nums: Float64Array[] = Array.from({ length: NUMBERS }, () => new Float64Array(1024));
  /** value columns, KEYS[6…8] */
  private refs: Int32Array[] = Array.from({ length: KEYS.length - FIRST_VALUE }, () => new Int32Array(1024));
  /** the values refs point to: a value repeated by the entries before (shared frames) is stored once */
  private readonly objects: PickleValue[] = [];
  private readonly lastObject: PickleValue[] = new Array<PickleValue>(KEYS.length - FIRST_VALUE).fill(null);
  private readonly lastRef: number[] = new Array<number>(KEYS.length - FIRST_VALUE).fill(-1);
  private readonly actions: string[] = [];
  /** each key order as KEYS indices, and the set of keys as a bit mask */
  private readonly shapes: number[][] = [];
  private readonly shapeMasks: number[] = [];
  /** key order (as 1 + index digits in base 10) → shape id */
  private readonly shapeIds = new Map<number, number>();
  /** the last key objects seen at each position (CPython memoizes keys, so they repeat by identity) */
  private readonly lastKey: PickleValue[] = new Array<PickleValue>(KEYS.length).fill(null);
  private readonly lastIndex: number[] = new Array<number>(KEYS.length).fill(-1);
  private lastOrder = -1;
  private lastShape = -1;

  /** Rows kept so far. */
  get length(): number {
    return this.count;
  }

  take(d: PickleDict, stack: readonly PickleValue[], from: number): boolean {
    const end = stack.length;
    if (end - from > 2 * KEYS.length) return false;
    const r = this.count;
    if (r === this.actionCode.length) this.grow();
    const { nums, refs, lastKey, lastIndex } = this;
    let mask = 0;
    let order = 0;
    let action: string | null = null;
    // one pass writes row r as it checks; a refused dict leaves values in row r that the next row overwrites or never reads
    for (let j = from, p = 0; j < end; j += 2, p++) {
      const k = stack[j]!; // j < end
      const i = k === lastKey[p] ? lastIndex[p]! : this.keyIndex(k, p); // lastIndex is set with lastKey
      if (i < 0 || mask & (1 << i)) return false;
      const v = stack[j + 1]!; // the reader offers an even count: a value follows each key
      if (i === 0) {
        if (typeof v !== 'string') return false;
        action = v;
      } else if (i < FIRST_VALUE) {
        if (typeof v !== 'number') return false;
        nums[i - 1]![r] = v; // i − 1 < NUMBERS
      } else {
        const c = i - FIRST_VALUE;
        refs[c]![r] = v === this.lastObject[c] ? this.lastRef[c]! : this.keep(c, v); // c < refs.length
      }
      mask |= 1 << i;
      order = order * 10 + i + 1;
    }
    if (action === null) return false;
    const a = this.actionIndex(action);
    const s = order === this.lastOrder ? this.lastShape : this.shapeIndex(order, mask);
    if (a < 0 || s < 0) return false;
    this.actionCode[r] = a;
    this.shapeCode[r] = s;
    this.count++;
    (d as RowDict)[ROW] = r;
    return true;
  }

  /** A new entry of `objects` for value v of column c. */
  private keep(c: number, v: PickleValue): number {
    this.lastObject[c] = v;
    this.lastRef[c] = this.objects.length;
    this.objects.push(v);
    return this.objects.length - 1;
  }

  /** KEYS index of dict key `k` (−1: not a TraceEntry key), remembered for position p. */
  private keyIndex(k: PickleValue, p: number): number {
    const i = typeof k === 'string' ? (INDEX.get(k) ?? -1) : -1;
    this.lastKey[p] = k;
    this.lastIndex[p] = i;
    return i;
  }

  /** Index of `action` in the actions table (a handful: a scan by identity, then by value), added if new; −1 when full. */
  private actionIndex(action: string): number {
    const list = this.actions;
    for (let a = 0; a < list.length; a++) if (list[a] === action) return a;
    if (list.length >= MAX_KINDS) return -1;
    list.push(action);
    return list.length - 1;
  }

  /** Id of a key order (−1 when the table is full). */
  private shapeIndex(order: number, mask: number): number {
    let id = this.shapeIds.get(order);
    if (id === undefined) {
      if (this.shapes.length >= MAX_KINDS) return -1;
      const keys: number[] = [];
      for (let o = order; o > 0; o = Math.floor(o / 10)) keys.unshift((o % 10) - 1);
      id = this.shapes.length;
      this.shapeIds.set(order, id);
      this.shapes.push(keys);
      this.shapeMasks.push(mask);
    }
    this.lastOrder = order;
    this.lastShape = id;
    return id;
  }

  owns(d: PickleDict): boolean {
    return (d as RowDict)[ROW] !== undefined;
  }

  restore(d: PickleDict): void {
    const r = (d as RowDict)[ROW]!; // called only when owns(d)
    delete (d as RowDict)[ROW];
    for (const i of this.shapes[this.shapeCode[r]!]!) d[KEYS[i]!] = this.value(r, i);
  }

  /** The row entry `e` is, or −1 when it is not one of these (an ordinary value). */
  row(e: unknown): number {
    return (typeof e === 'object' && e !== null ? (e as RowDict)[ROW] : undefined) ?? -1;
  }

  action(r: number): string {
    return this.actions[this.actionCode[r]!]!; // every row has an action
  }

  /** KEYS[i] (a number field, 1 ≤ i ≤ 5) of row r; NaN when the row has none. */
  private num(r: number, i: number): number {
    return this.shapeMasks[this.shapeCode[r]!]! & (1 << i) ? this.nums[i - 1]![r]! : NaN;
  }

  addr(r: number): number {
    return this.num(r, 1);
  }

  size(r: number): number {
    return this.num(r, 2);
  }

  /** the stream, undefined when the row has none */
  stream(r: number): number | undefined {
    const s = this.num(r, 3);
    return Number.isNaN(s) && !(this.shapeMasks[this.shapeCode[r]!]! & 8) ? undefined : s;
  }

  deviceFree(r: number): number {
    return this.num(r, 5);
  }

  /** the frames value, undefined when the row has none */
  frames(r: number): PickleValue | undefined {
    return this.shapeMasks[this.shapeCode[r]!]! & 64 ? this.objects[this.refs[0]![r]!] : undefined;
  }

  /** The value of KEYS[i] in row r (the row has that key). */
  private value(r: number, i: number): PickleValue {
    if (i === 0) return this.actions[this.actionCode[r]!]!;
    return i < FIRST_VALUE ? this.nums[i - 1]![r]! : this.objects[this.refs[i - FIRST_VALUE]![r]!]!;
  }

  /** Doubles every column. */
  private grow(): void {
    const n = this.actionCode.length * 2;
    const bytes = (c: Uint8Array) => {
      const b = new Uint8Array(n);
      b.set(c);
      return b;
    };
    this.actionCode = bytes(this.actionCode);
    this.shapeCode = bytes(this.shapeCode);
    this.nums = this.nums.map((c) => {
      const b = new Float64Array(n);
      b.set(c);
      return b;
    });
    this.refs = this.refs.map((c) => {
      const b = new Int32Array(n);
      b.set(c);
      return b;
    });
  }
}
