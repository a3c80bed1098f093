/**
 * Hostile pickles (issue #13 §7): inputs built to make a naive unpickler hang, recurse, copy or
 * allocate without bound. Each is ~0.5–2.5 MB and must be answered (a value or a named error) within
 * the CPU budget of the parsers' linear-time suite; a quadratic or exponential reader takes minutes.
 */
import { describe, expect, test } from 'vitest';
import { importSnapshot } from '../../src/core/allocator/history-import';
import { unpickle } from '../../src/core/snapshot/pickle';
import { cpuMs } from './budget';

const N = 500_000;
const build = (head: number[], body: number[], times: number, tail: number[]) => {
  const out = new Uint8Array(head.length + body.length * times + tail.length);
  out.set(head, 0);
  for (let i = 0; i < times; i++) out.set(body, head.length + i * body.length);
  out.set(tail, head.length + body.length * times);
  return out;
};

const CASES: [string, Uint8Array, RegExp][] = [
  // one list nested N deep: EMPTY_LIST ×N then APPEND ×(N−1); nothing may recurse over it
  ['a list nested half a million deep', build([0x80, 4], [0x5d], N, [...new Array<number>(N - 1).fill(0x61), 0x2e]), /^ok$/],
  // the same list referenced N times through the memo: shared, never copied
  ['one big list fetched from the memo half a million times', build([0x80, 4, 0x5d, 0x94, 0x28, ...new Array<number>(1000).fill(0x4e), 0x65, 0x5d, 0x28], [0x68, 0], N, [0x65, 0x2e]), /^ok$/],
  // half a million MARKs and no STOP
  ['half a million MARKs', build([0x80, 4], [0x28], N, []), /^pickle-truncated$/],
  // LONG_BINPUT to ever new far indices: the memo grows by one entry per opcode, no more
  ['far memo indices', build([0x80, 4, 0x4e], [0x72, 0xff, 0xff, 0xff, 0x7f], N / 5, [0x2e]), /^ok$/],
  // declared lengths far past the end are refused before anything is allocated
  ['a 2^63-byte string', new Uint8Array([0x80, 4, 0x8d, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f, 0x2e]), /^pickle-truncated$/],
  ['a 4 GB bytes object', new Uint8Array([0x80, 4, 0x42, 0xff, 0xff, 0xff, 0xff, 0x2e]), /^pickle-truncated$/],
  // a 1 MB integer (LONG4): refused, not converted digit by digit
  ['a half-million-byte integer', build([0x80, 2, 0x8b, 0x20, 0xa1, 0x07, 0x00], [0x7f], N, [0x2e]), /^pickle-unsupported$/],
  // SETITEMS with N/4 pairs of the same key: one entry
  ['many writes of one key', build([0x80, 4, 0x7d, 0x28], [0x8c, 1, 0x61, 0x4e], N / 4, [0x75, 0x2e]), /^ok$/],
];

describe('hostile pickles are answered in linear time', () => {
  test.each(CASES)('%s', (_, bytes, expected) => {
    const [r, ms] = cpuMs(() => unpickle(bytes));
    expect(r.ok ? 'ok' : r.error.code).toMatch(expected);
    expect(ms).toBeLessThan(1500);
    if (r.ok) {
      // the snapshot reader walks fixed paths only: a deep or cyclic value is a named error
      const [h, ms2] = cpuMs(() => importSnapshot(r.value));
      expect(h.ok ? 'ok' : h.error.code).toBe('history-no-traces');
      expect(ms2).toBeLessThan(1500);
    }
  });

  test('a snapshot whose trace list contains itself is read once, without looping', () => {
    // { 'device_traces': L } where L = [L]: L's only entry is not a trace entry
    const bytes = new Uint8Array([0x80, 4, 0x7d, 0x8c, 13, ...Buffer.from('device_traces'), 0x5d, 0x94, 0x68, 0, 0x61, 0x73, 0x2e]);
    const r = unpickle(bytes);
    if (!r.ok) throw new Error(r.error.text);
    expect(importSnapshot(r.value)).toMatchObject({ ok: false, error: { code: 'history-bad-entry' } });
  });
});
