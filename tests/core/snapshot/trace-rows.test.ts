// The snapshot reader's trace-entry columns (src/core/snapshot/trace-rows.ts): a pickle read with
// them imports exactly as the same pickle read into plain dicts (importSnapshot of unpickle's
// value), for every snapshot-like value and for CPython's fixtures with random byte edits; and a
// dict the columns kept reads back whole when a later SETITEM adds to it (CPython's
// _Unpickler.load_setitem on the dict load_empty_dictionary made).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { importSnapshot, importSnapshotPickle, type HistoryParse } from '../../../src/core/allocator/history-import';
import { unpickle } from '../../../src/core/snapshot/pickle';
import { TraceRows } from '../../../src/core/snapshot/trace-rows';
import { pickle4, type Plain } from './pickle-writer';

const bytes = (...parts: (number | string)[]) => new Uint8Array(parts.flatMap((p) => (typeof p === 'number' ? [p] : [...Buffer.from(p, 'latin1')])));
/** SHORT_BINUNICODE of an ASCII string */
const str = (s: string) => [0x8c, s.length, s];

/** The import of `b` through plain dicts: the reference the columns must match. */
function viaDicts(b: Uint8Array): HistoryParse {
  const p = unpickle(b);
  if (!p.ok) return { ok: false, error: { code: p.error.code, text: p.error.text, params: { offset: p.error.offset } } };
  return importSnapshot(p.value);
}

describe('trace entries kept as columns', () => {
  it('a kept dict that a later SETITEM fills further reads back as one dict, keys in file order', () => {
    // EMPTY_DICT MARK 'action' 'alloc' 'addr' 4096 SETITEMS, then 'size' 512 SETITEM, STOP: Python's dict {action, addr, size}
    const b = bytes(0x80, 4, 0x7d, 0x28, ...str('action'), ...str('alloc'), ...str('addr'), 0x4d, 0x00, 0x10, 0x75, ...str('size'), 0x4d, 0x00, 0x02, 0x73, 0x2e);
    const rows = new TraceRows();
    const r = unpickle(b, rows);
    expect(r.ok && Object.entries(r.value as object)).toEqual([
      ['action', 'alloc'],
      ['addr', 4096],
      ['size', 512],
    ]);
    expect(rows.row(r.ok && r.value)).toBe(-1);
  });

  it('a dict with a key a TraceEntry has not, a repeated key or no action stays a dict', () => {
    const rows = new TraceRows();
    // {'action': 'alloc', 'other': 1}, {'addr': 1, 'addr': 2} (Python keeps the last), {'size': 5}
    const b = bytes(
      0x80,
      4,
      0x28,
      0x7d,
      0x28,
      ...str('action'),
      ...str('alloc'),
      ...str('other'),
      0x4b,
      1,
      0x75,
      0x7d,
      0x28,
      ...str('addr'),
      0x4b,
      1,
      ...str('addr'),
      0x4b,
      2,
      0x75,
      0x7d,
      ...str('size'),
      0x4b,
      5,
      0x73,
      0x6c,
      0x2e,
    );
    const r = unpickle(b, rows);
    expect(r.ok && r.value).toEqual([{ action: 'alloc', other: 1 }, { addr: 2 }, { size: 5 }]);
    expect(rows.length).toBe(0);
  });

  const KEYS = ['action', 'addr', 'size', 'stream', 'time_us', 'device_free', 'frames', 'compile_context', 'user_metadata', 'other'];
  const ACTIONS = ['alloc', 'free_requested', 'free_completed', 'segment_alloc', 'segment_free', 'segment_map', 'segment_unmap', 'oom', 'snapshot'];
  const value: fc.Arbitrary<Plain> = fc.oneof(
    fc.integer({ min: 0, max: 64 }).map((k) => k * 512),
    fc.maxSafeInteger(),
    fc.constantFrom<Plain>(-1, 0.5, null, true, 'x', [], [{ filename: 'train.py', line: 3, name: 'f' }]),
    fc.constantFrom(...ACTIONS),
  );
  const entry: fc.Arbitrary<Plain> = fc.oneof(
    // well formed: what torch writes
    fc.record(
      {
        action: fc.constantFrom(...ACTIONS),
        addr: fc.integer({ min: 0, max: 7 }).map((a) => 0x7f0000000000 + a * 4096),
        size: fc.integer({ min: 0, max: 8 }).map((k) => k * 4096),
        stream: fc.constantFrom(0, 7),
      },
      { requiredKeys: ['action'] },
    ),
    // anything: random keys in random order, random values
    fc.array(fc.tuple(fc.constantFrom(...KEYS), value), { maxLength: 9 }).map((kv) => Object.fromEntries(kv) as Plain),
  );
  const shared = { filename: 'model.py', line: 9, name: 'forward' };
  const snapshot = fc.tuple(fc.array(entry, { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 5 }), fc.boolean()).map(([list, repeats, withFrames]) => {
    // the same dict object twice: the writer memoizes it, the reader fetches it (BINGET)
    const entries = [...list, ...repeats.flatMap((k) => (list.length ? [list[k % list.length]!] : []))];
    if (withFrames) for (const e of entries) if (e && typeof e === 'object' && !Array.isArray(e) && !('frames' in e)) e.frames = [shared];
    return pickle4({ segments: [], device_traces: [entries], allocator_settings: { PYTORCH_CUDA_ALLOC_CONF: '' } });
  });

  it('imports every snapshot-like pickle exactly as through plain dicts', () => {
    fc.assert(
      fc.property(snapshot, (b) => {
        expect(importSnapshotPickle(b)).toEqual(viaDicts(b));
      }),
      { numRuns: 300 },
    );
  });

  it("imports CPython's snapshot fixtures, whole and with random byte edits, exactly as through plain dicts", () => {
    const dir = join(import.meta.dirname, 'fixtures');
    const fixtures = ['classic.p2.pickle', 'classic.p4.pickle', 'classic.p5.pickle', 'fragmentation.p4.pickle'].map((f) => [...readFileSync(join(dir, f))]);
    const edited = fc.tuple(fc.constantFrom(...fixtures), fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean()), { maxLength: 4 })).map(([base, edits]) => {
      const b = [...base];
      for (const [at, v, insert] of edits) b.splice(at % b.length, insert ? 0 : 1, v);
      return new Uint8Array(b);
    });
    fc.assert(
      fc.property(edited, (b) => {
        expect(importSnapshotPickle(b)).toEqual(viaDicts(b));
      }),
      { numRuns: 400 },
    );
  });
});
