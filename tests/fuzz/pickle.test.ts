// Fuzz: the safe unpickler (src/core/snapshot/pickle.ts) and the snapshot import on top of it.
// Random bytes after a PROTO header, CPython-written fixtures with random edits, and random plain
// values written as protocol-4 pickles: the reader never throws, answers within the time limit,
// and reads back every value the writer wrote.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { importSnapshot } from '../../src/core/allocator/history-import';
import { unpickle } from '../../src/core/snapshot/pickle';
import { pickle4, type Plain } from '../core/snapshot/pickle-writer';
import { LIMIT_MS, RUNS, timed } from './scan';

const FIXTURES = join(import.meta.dirname, '../core/snapshot/fixtures');
const fixtures = ['classic.p2.pickle', 'classic.p4.pickle', 'fragmentation.p4.pickle', 'plain.p5.pickle'].map((f) => new Uint8Array(readFileSync(join(FIXTURES, f))));

/** A fixture with up to 8 random byte edits: overwrite, delete, insert, or cut the tail. */
const edited = fc
  .tuple(fc.constantFrom(...fixtures), fc.array(fc.tuple(fc.constantFrom('set', 'delete', 'insert', 'cut'), fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }))
  .map(([base, edits]) => {
    let b = [...base];
    for (const [kind, at, v] of edits) {
      const i = at % Math.max(1, b.length);
      if (kind === 'set') b[i] = v;
      else if (kind === 'delete') b.splice(i, 1);
      else if (kind === 'insert') b.splice(i, 0, v);
      else b = b.slice(0, i);
    }
    return new Uint8Array(b);
  });

/** Random bytes after `PROTO 2..5`, biased toward the opcodes the reader knows. */
const opcodeSoup = fc
  .tuple(
    fc.integer({ min: 2, max: 5 }),
    fc.array(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x28, 0x2e, 0x4b, 0x5d, 0x7d, 0x61, 0x65, 0x73, 0x75, 0x94, 0x68, 0x8c, 0x86, 0x74, 0x4e)), { maxLength: 200 }),
  )
  .map(([p, ops]) => new Uint8Array([0x80, p, ...ops]));

const plain = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    fc.integer(),
    fc.maxSafeInteger(),
    fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string({ maxLength: 8 }), tie('value'), { maxKeys: 5 }),
  ),
})).value as fc.Arbitrary<Plain>;

function check(bytes: Uint8Array): void {
  const r = timed('unpickle', LIMIT_MS, () => unpickle(bytes));
  if (!r.ok) {
    expect(r.error.code).toMatch(/^pickle-/);
    expect(r.error.offset).toBeGreaterThanOrEqual(0);
    expect(r.error.offset).toBeLessThanOrEqual(bytes.length);
    return;
  }
  const h = timed('importSnapshot', LIMIT_MS, () => importSnapshot(r.value));
  if (h.ok) expect(h.value.recorded.reservedPeak).toBeGreaterThanOrEqual(h.value.recorded.reservedStart);
}

describe(`pickle fuzz (${RUNS} cases each)`, () => {
  test('edited CPython pickles and opcode soup: a value or a named error, never a throw', () => {
    fc.assert(fc.property(fc.oneof(edited, opcodeSoup), check), { numRuns: RUNS });
  });

  test('every plain value written as a protocol-4 pickle reads back equal', () => {
    fc.assert(
      fc.property(plain, (v) => {
        const r = unpickle(pickle4(v));
        expect(r.ok && r.value).toEqual(v);
      }),
      { numRuns: RUNS },
    );
  });
});
