/**
 * Issue #16 §8: "Saved entries that cannot be read are not kept exactly as stored: `1e400`
 * becomes `null` and big integers are rounded. With duplicate entry names the first entry is
 * silently lost. Keep the raw text."
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { envelopeText, rawMembersOf } from '../../../src/state/storage/raw-members';
import { deleteEntry, loadStore, saveEntry, type StoreSpec } from '../../../src/state/storage/versioned-store';
import { memoryKv } from './memory-kv';

interface Box {
  capacityBytes: number;
}
const readBox = (e: unknown): Box | null => {
  const b = e as Partial<Box> | null;
  return b && typeof b.capacityBytes === 'number' && Number.isSafeInteger(b.capacityBytes) && b.capacityBytes > 0 ? { capacityBytes: b.capacityBytes } : null;
};
const BOXES: StoreSpec<Box> = { key: 'test.boxes', version: 1, field: 'items', migrations: [], read: readBox };

// JSON.parse gives Infinity for 1e400 (stringified as null) and 12345678901234567000 for the 20-digit integer
const STORED =
  '{"version":1,"items":{"far":{"capacityBytes":1e400},"big":{"capacityBytes":12345678901234567890},' + '"twice":{"capacityBytes":1024},"twice":{"capacityBytes":2048},"ok":{"capacityBytes":4096}}}';

describe('raw members', () => {
  test('each member keeps its own text, duplicates included, in order', () => {
    expect(rawMembersOf(STORED, 'items')).toEqual([
      { name: 'far', raw: '{"capacityBytes":1e400}' },
      { name: 'big', raw: '{"capacityBytes":12345678901234567890}' },
      { name: 'twice', raw: '{"capacityBytes":1024}' },
      { name: 'twice', raw: '{"capacityBytes":2048}' },
      { name: 'ok', raw: '{"capacityBytes":4096}' },
    ]);
  });

  test('not JSON, or no such object: null', () => {
    expect(rawMembersOf('{"version":1,"items":', 'items')).toBeNull();
    expect(rawMembersOf('{"version":1,"items":[1]}', 'items')).toBeNull();
    expect(rawMembersOf('{"version":1}', 'items')).toBeNull();
  });

  test('property: any JSON object read back member by member parses to the same values, and envelopeText round-trips', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), fc.boolean(), (items, spaced) => {
        const text = spaced ? JSON.stringify({ version: 2, items }, null, 2) : JSON.stringify({ version: 2, items });
        const members = rawMembersOf(text, 'items')!;
        expect(Object.fromEntries(members.map((m) => [m.name, JSON.parse(m.raw) as unknown]))).toEqual(JSON.parse(JSON.stringify(items)));
        expect(JSON.parse(envelopeText(2, 'items', members))).toEqual(JSON.parse(text));
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  test('linear: a 4 MB entry of nested arrays and escaped strings is split in one pass', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const text = `{"version":1,"items":{"a":${deep},"b":${JSON.stringify('\\"'.repeat(1_000_000))}}}`;
    const t0 = performance.now();
    const members = rawMembersOf(text, 'items')!;
    expect(members.map((m) => m.name)).toEqual(['a', 'b']);
    expect(members[0].raw.length).toBe(200_000);
    // generous wall-clock bound: a quadratic split would take minutes
    expect(performance.now() - t0).toBeLessThan(5000);
  });
});

describe('a save writes every other entry back exactly as stored', () => {
  test('1e400 and a 20-digit integer stay as written; both same-named entries survive; the last one is shown', () => {
    const kv = memoryKv({ 'test.boxes': STORED });
    const loaded = loadStore(kv, BOXES);
    expect(loaded.items).toEqual([
      { name: 'ok', value: { capacityBytes: 4096 } },
      { name: 'twice', value: { capacityBytes: 2048 } },
    ]);
    expect(loaded.bad).toEqual(['far', 'big', 'twice']);
    expect(saveEntry(kv, BOXES, 'new', { capacityBytes: 8192 })).toBeNull();
    const text = kv.m.get('test.boxes')!;
    expect(text).toContain('"far":{"capacityBytes":1e400}');
    expect(text).toContain('"big":{"capacityBytes":12345678901234567890}');
    expect(text).toContain('"twice":{"capacityBytes":1024},"twice":{"capacityBytes":2048}');
    expect(text).toContain('"new":{"capacityBytes":8192}');
  });

  test('saving and deleting a duplicated name touch the shown (last) entry only', () => {
    const kv = memoryKv({ 'test.boxes': STORED });
    expect(saveEntry(kv, BOXES, 'twice', { capacityBytes: 3072 })).toBeNull();
    expect(kv.m.get('test.boxes')).toContain('"twice":{"capacityBytes":1024},"twice":{"capacityBytes":3072}');
    expect(deleteEntry(kv, BOXES, 'twice')).toBeNull();
    // the earlier copy is now the one shown
    expect(loadStore(kv, BOXES).items).toContainEqual({ name: 'twice', value: { capacityBytes: 1024 } });
  });
});
