// The safe unpickler (src/core/snapshot/pickle.ts) against CPython's own pickle: fixtures written by
// tests/core/snapshot/fixtures/make_fixtures.py (pickle.dumps in protocols 2–5) with the same value
// rendered to JSON by Python, and hand-assembled opcode streams whose meaning is CPython's
// Lib/pickle.py (_Unpickler.load_*) and Lib/pickletools.py.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OTHER_KEYS, unpickle, type PickleDict, type PickleValue } from '../../../src/core/snapshot/pickle';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const fixture = (name: string) => new Uint8Array(readFileSync(join(FIXTURES, name)));

/** The reader's value in make_fixtures.py's JSON rendering (to_json). */
function toJson(v: PickleValue): unknown {
  if (v === null || typeof v !== 'object') return typeof v === 'bigint' ? { bigint: v.toString() } : v;
  if (v instanceof Uint8Array) return { bytes: Buffer.from(v).toString('hex') };
  if (Array.isArray(v)) return Object.isFrozen(v) ? { tuple: v.map(toJson) } : v.map(toJson);
  // str keys in property order, then the others in insertion order (the fixture's order, see make_fixtures.py)
  const d = v as PickleDict;
  return { dict: [...Object.entries(d), ...(d[OTHER_KEYS] ?? [])].map(([k, x]) => [toJson(k), toJson(x)]) };
}

const bytes = (...parts: (number | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'number' ? [p] : [...Buffer.from(p, 'latin1')])));

describe('unpickle: values written by CPython pickle.dumps', () => {
  it.each([2, 3, 4, 5])('protocol %i reads to the value Python wrote', (proto) => {
    const r = unpickle(fixture(`plain.p${proto}.pickle`));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.protocol).toBe(proto);
    const expected = JSON.parse(readFileSync(join(FIXTURES, `plain.p${proto}.json`), 'utf8'));
    const got = toJson(r.value);
    expect(got).toEqual(expected);
  });

  it('memo references share one object (the same frames list twice)', () => {
    const r = unpickle(fixture('plain.p4.pickle'));
    if (!r.ok) throw new Error(r.error.text);
    const twice = (r.value as PickleDict).same_list_twice as PickleValue[];
    expect(twice[0]).toBe(twice[1]);
  });
});

describe('unpickle: opcodes CPython writes only for large values, by hand (pickletools argument formats)', () => {
  const read = (b: Uint8Array) => {
    const r = unpickle(b);
    if (!r.ok) throw new Error(r.error.text);
    return r.value;
  };
  it('LONG4 (4-byte length), LONG1 of 0 bytes, BININT2 and negative BININT', () => {
    // ( LONG4 len=2 0x00 0x80 → -32768 (two's complement: pickle.decode_long(b'\x00\x80')) · LONG1 len=0 → 0 · BININT2 0xffff → 65535 · BININT -2 ) LIST
    expect(read(bytes(0x80, 2, 0x28, 0x8b, 2, 0, 0, 0, 0x00, 0x80, 0x8a, 0, 0x4d, 0xff, 0xff, 0x4a, 0xfe, 0xff, 0xff, 0xff, 0x6c, 0x2e))).toEqual([-32768, 0, 65535, -2]);
  });
  it('LONG1 of 8 bytes past 2^53 is a bigint; within it, a number', () => {
    expect(read(bytes(0x80, 2, 0x8a, 8, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x2e))).toBe(-(2n ** 63n));
    expect(read(bytes(0x80, 2, 0x8a, 7, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x1f, 0x2e))).toBe(2 ** 53 - 1);
  });
  it('BINUNICODE8 and BINBYTES8 (8-byte lengths), SHORT_BINBYTES', () => {
    expect(read(bytes(0x80, 4, 0x8d, 2, 0, 0, 0, 0, 0, 0, 0, 'hi', 0x2e))).toBe('hi');
    expect(read(bytes(0x80, 4, 0x8e, 1, 0, 0, 0, 0, 0, 0, 0, 0x07, 0x2e))).toEqual(new Uint8Array([7]));
    expect(read(bytes(0x80, 3, 0x43, 0, 0x2e))).toEqual(new Uint8Array([]));
  });
  it('LONG_BINPUT / LONG_BINGET, DUP, POP and POP_MARK', () => {
    // ] LONG_BINPUT 300 · POP · LONG_BINGET 300 · DUP · ( N N POP_MARK · TUPLE2
    const v = read(bytes(0x80, 2, 0x5d, 0x72, 44, 1, 0, 0, 0x30, 0x6a, 44, 1, 0, 0, 0x32, 0x28, 0x4e, 0x4e, 0x31, 0x86, 0x2e)) as PickleValue[][];
    expect(v).toHaveLength(2);
    expect(v[0]).toBe(v[1]);
  });
  it("a '__proto__' key is an own key, never the prototype", () => {
    const d = read(bytes(0x80, 4, 0x7d, 0x8c, 9, '__proto__', 0x7d, 0x8c, 1, 'x', 0x4b, 1, 0x73, 0x73, 0x2e)) as PickleDict;
    expect(Object.getPrototypeOf(d)).toBe(Object.prototype);
    expect(Object.keys(d)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
  it('UTF-8 as Python writes it: a lone surrogate (surrogatepass) and a 4-byte character', () => {
    // pickle.dumps('\ud800\U0001F600', 4)
    expect(read(bytes(128, 4, 149, 11, 0, 0, 0, 0, 0, 0, 0, 140, 7, 237, 160, 128, 240, 159, 152, 128, 148, 46))).toBe('\ud800\u{1F600}');
    // bytes no encoder writes read as U+FFFD, one per bad byte
    expect(read(bytes(0x80, 4, 0x8c, 2, 0xff, 0xc3, 0x2e))).toBe('\ufffd\ufffd');
  });
  it('DICT from a MARK, SETITEM, and a list appended to itself (a cycle) without looping', () => {
    const d = read(bytes(0x80, 2, 0x28, 0x4b, 1, 0x4b, 2, 0x64, 0x4b, 3, 0x4b, 4, 0x73, 0x2e));
    expect([...((d as PickleDict)[OTHER_KEYS] ?? [])]).toEqual([
      [1, 2],
      [3, 4],
    ]);
    const l = read(bytes(0x80, 2, 0x5d, 0x71, 0, 0x68, 0, 0x61, 0x2e)) as PickleValue[];
    expect(l[0]).toBe(l);
  });
});

describe('unpickle: refused and broken input is a returned error with the opcode and offset', () => {
  const err = (b: Uint8Array) => {
    const r = unpickle(b);
    if (r.ok) throw new Error('accepted');
    return r.error;
  };
  it('GLOBAL + REDUCE (collections.OrderedDict, protocol 2): refused at the GLOBAL', () => {
    // pickletools: 0 PROTO 2 · 2 GLOBAL 'collections OrderedDict'
    expect(err(fixture('ordered-dict.p2.pickle'))).toMatchObject({ code: 'pickle-code', offset: 2, opcode: 'GLOBAL' });
    expect(err(fixture('ordered-dict.p2.pickle')).text).toMatch(/^GLOBAL \(0x63\) at byte 2: .*nothing is run/);
  });
  it('STACK_GLOBAL (protocol 4) after its two strings', () => {
    // 0 PROTO · 2 FRAME · 11 SHORT_BINUNICODE 'collections' · 24 MEMOIZE · 25 SHORT_BINUNICODE 'OrderedDict' · 38 MEMOIZE · 39 STACK_GLOBAL
    expect(err(fixture('ordered-dict.p4.pickle'))).toMatchObject({ code: 'pickle-code', offset: 39, opcode: 'STACK_GLOBAL' });
  });
  it('sets are not plain data here', () => {
    expect(err(fixture('set.p4.pickle'))).toMatchObject({ code: 'pickle-unsupported', opcode: 'EMPTY_SET' });
  });
  it.each([
    ['REDUCE', bytes(0x80, 2, 0x4e, 0x29, 0x52, 0x2e), 4],
    ['BUILD', bytes(0x80, 2, 0x7d, 0x7d, 0x62, 0x2e), 4],
    ['INST', bytes(0x80, 2, 0x28, 0x69, 'os\nsystem\n', 0x2e), 3],
    ['OBJ', bytes(0x80, 2, 0x28, 0x4e, 0x6f, 0x2e), 4],
    ['NEWOBJ', bytes(0x80, 2, 0x4e, 0x29, 0x81, 0x2e), 4],
    ['PERSID', bytes(0x80, 2, 0x50, '1\n', 0x2e), 2],
    ['BINPERSID', bytes(0x80, 2, 0x4e, 0x51, 0x2e), 3],
    ['EXT1', bytes(0x80, 2, 0x82, 1, 0x2e), 2],
  ])('%s is refused before anything is built', (name, b, offset) => {
    expect(err(b)).toMatchObject({ code: 'pickle-code', opcode: name, offset });
  });
  it('a byte that is no opcode at all is named by its value', () => {
    const e = err(bytes(0x80, 4, 0xff, 0x2e));
    expect(e).toEqual({ code: 'pickle-unsupported', offset: 2, text: expect.stringMatching(/^unknown opcode 0xff at byte 2: /) as string });
  });
  it('protocols outside 2–5 and text that is not a pickle', () => {
    expect(err(bytes(0x80, 6, 0x4e, 0x2e))).toMatchObject({ code: 'pickle-protocol', offset: 0 });
    expect(err(bytes('(lp0\n.'))).toMatchObject({ code: 'pickle-not-pickle' });
    expect(err(bytes())).toMatchObject({ code: 'pickle-not-pickle' });
  });
  it('truncation inside a FRAME is found at the opcode cut short', () => {
    // classic.p4: 0 PROTO · 2 FRAME 2429 · 11 EMPTY_DICT · 12 MEMOIZE · 13 MARK · 14 SHORT_BINUNICODE 'segments'
    expect(err(fixture('classic.p4.pickle').subarray(0, 20))).toMatchObject({ code: 'pickle-truncated', offset: 14, opcode: 'SHORT_BINUNICODE' });
  });
  it('truncation anywhere: a counted error naming where, never a throw', () => {
    const whole = fixture('classic.p4.pickle');
    for (let cut = 0; cut < whole.length; cut++) {
      const r = unpickle(whole.subarray(0, cut));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error.code).toMatch(/^pickle-(?:truncated|not-pickle)$/);
    }
  });
  it('lengths past the end are refused before anything is allocated', () => {
    expect(err(bytes(0x80, 4, 0x8d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x2e))).toMatchObject({ code: 'pickle-truncated', offset: 2, opcode: 'BINUNICODE8' });
    expect(err(bytes(0x80, 2, 0x8b, 0xff, 0xff, 0xff, 0x7f, 0x2e))).toMatchObject({ code: 'pickle-unsupported', opcode: 'LONG4' });
  });
  it('stack misuse: APPEND to a tuple, SETITEM on a list, an unknown memo entry, a missing MARK, an unhashable key', () => {
    expect(err(bytes(0x80, 2, 0x29, 0x4e, 0x61, 0x2e))).toMatchObject({ code: 'pickle-malformed', opcode: 'APPEND' });
    expect(err(bytes(0x80, 2, 0x5d, 0x4e, 0x4e, 0x73, 0x2e))).toMatchObject({ code: 'pickle-malformed', opcode: 'SETITEM' });
    expect(err(bytes(0x80, 2, 0x68, 9, 0x2e))).toMatchObject({ code: 'pickle-malformed', opcode: 'BINGET' });
    expect(err(bytes(0x80, 2, 0x4e, 0x65, 0x2e))).toMatchObject({ code: 'pickle-malformed', opcode: 'APPENDS' });
    expect(err(bytes(0x80, 2, 0x7d, 0x5d, 0x4e, 0x73, 0x2e))).toMatchObject({ code: 'pickle-unsupported', opcode: 'SETITEM' });
    // a MARK hides what is below it: APPEND cannot reach the list (Python: IndexError)
    expect(err(bytes(0x80, 2, 0x5d, 0x28, 0x61, 0x2e))).toMatchObject({ code: 'pickle-malformed', opcode: 'APPEND' });
    expect(err(bytes(0x80, 2, 0x2e))).toMatchObject({ code: 'pickle-malformed', opcode: 'STOP' });
  });
});
