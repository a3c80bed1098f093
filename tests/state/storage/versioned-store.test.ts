import { describe, expect, test } from 'vitest';
import { backupKeys, deleteEntry, loadStore, MAX_NAME, migrateEntry, saveEntry, type EntryMigration, type StoreSpec } from '../../../src/state/storage/versioned-store';
import { memoryKv, quotaError, securityError } from './memory-kv';

/**
 * A test store whose format changed twice, so the chain is exercised end to end:
 * v1 entry = the note's text; v2 = {text}; v3 = {text, tags}.
 */
interface Note {
  text: string;
  tags: string[];
}
const CHAIN: EntryMigration[] = [
  { from: 1, summary: 'text -> {text}', migrate: (e) => (typeof e === 'string' ? { text: e } : e) },
  { from: 2, summary: 'adds tags', migrate: (e) => (e && typeof e === 'object' && !('tags' in e) ? { ...e, tags: [] } : e) },
];
const readNote = (e: unknown): Note | null => {
  const n = e as Partial<Note> | null;
  return n && typeof n.text === 'string' && Array.isArray(n.tags) && n.tags.every((t) => typeof t === 'string') ? { text: n.text, tags: n.tags } : null;
};
const NOTES: StoreSpec<Note> = { key: 'test.notes', version: 3, field: 'items', migrations: CHAIN, read: readNote };
const blob = (version: unknown, items: unknown, field = 'items') => JSON.stringify({ version, [field]: items });

describe('migration chain', () => {
  test('each step runs from the stored version up to the current one, and only those', () => {
    expect(migrateEntry('hi', 1, NOTES)).toEqual({ text: 'hi', tags: [] });
    expect(migrateEntry({ text: 'hi' }, 2, NOTES)).toEqual({ text: 'hi', tags: [] });
    // already current: untouched (the v1 step would otherwise leave it, the v2 one would add tags)
    expect(migrateEntry({ text: 'hi' }, 3, NOTES)).toEqual({ text: 'hi' });
  });

  test('a step that throws leaves the entry as stored (it is then reported, not lost)', () => {
    const spec = {
      version: 2,
      migrations: [
        {
          from: 1,
          summary: 'boom',
          migrate: () => {
            throw new Error('x');
          },
        },
      ],
    };
    expect(migrateEntry({ a: 1 }, 1, spec)).toEqual({ a: 1 });
  });

  test('a v1 envelope loads migrated, and the next save writes the current version', () => {
    const kv = memoryKv({ 'test.notes': blob(1, { a: 'first', b: 'second' }) });
    expect(loadStore(kv, NOTES)).toEqual({
      items: [
        { name: 'a', value: { text: 'first', tags: [] } },
        { name: 'b', value: { text: 'second', tags: [] } },
      ],
      bad: [],
      state: 'ok',
    });
    expect(saveEntry(kv, NOTES, 'c', { text: 'third', tags: ['x'] })).toBeNull();
    const env = JSON.parse(kv.m.get('test.notes')!);
    expect(env.version).toBe(3);
    expect(env.items).toEqual({ a: { text: 'first', tags: [] }, b: { text: 'second', tags: [] }, c: { text: 'third', tags: ['x'] } });
  });
});

describe('bad entries', () => {
  const stored = { good: { text: 'ok', tags: [] }, bad: { text: 42 }, worse: null, list: [1, 2], huge: { text: 'x', tags: ['y'.repeat(1 << 20), 7] } };

  test('good entries load, bad ones are named, and every save writes the bad ones back unchanged', () => {
    const kv = memoryKv({ 'test.notes': blob(3, stored) });
    const r = loadStore(kv, NOTES);
    expect(r.items.map((i) => i.name)).toEqual(['good']);
    expect(r.bad.sort()).toEqual(['bad', 'huge', 'list', 'worse']);
    expect(saveEntry(kv, NOTES, 'new', { text: 'n', tags: [] })).toBeNull();
    expect(deleteEntry(kv, NOTES, 'good')).toBeNull();
    const after = JSON.parse(kv.m.get('test.notes')!).items;
    for (const k of ['bad', 'worse', 'list', 'huge'] as const) expect(after[k]).toEqual(stored[k]);
    expect(loadStore(kv, NOTES).bad.sort()).toEqual(['bad', 'huge', 'list', 'worse']);
  });

  test('names longer than MAX_NAME are reported; "__proto__" is an ordinary name', () => {
    const long = 'n'.repeat(MAX_NAME + 1);
    const kv = memoryKv({ 'test.notes': `{"version":3,"items":{"${long}":{"text":"a","tags":[]},"__proto__":{"text":"p","tags":[]}}}` });
    const r = loadStore(kv, NOTES);
    expect(r.bad).toEqual([long]);
    expect(r.items).toEqual([{ name: '__proto__', value: { text: 'p', tags: [] } }]);
    expect(saveEntry(kv, NOTES, 'b', { text: 'b', tags: [] })).toBeNull();
    expect(loadStore(kv, NOTES).items.map((i) => i.name)).toEqual(['__proto__', 'b']);
    expect(saveEntry(kv, NOTES, long, { text: 'b', tags: [] })).toBe('invalid');
    expect(saveEntry(kv, NOTES, 'x', { text: 1 })).toBe('invalid');
  });
});

describe('unreadable or foreign blobs', () => {
  const foreign = [
    '{not json',
    '[]',
    '[1,2]',
    '"a string"',
    '42',
    'null',
    'true',
    '{}',
    '{"theme":"dark"}',
    blob('3', {}),
    blob(1.5, {}),
    blob(0, {}),
    blob(-1, {}),
    blob(3, []),
    blob(3, 'x'),
    blob(3, null),
    blob(3, { a: 1 }, 'models'),
    JSON.stringify({ version: 3 }),
  ];

  test.each(foreign)('%s reads as unreadable, never throws', (raw) => {
    expect(loadStore(memoryKv({ 'test.notes': raw }), NOTES)).toEqual({ items: [], bad: [], state: 'unreadable' });
  });

  test('the first save copies the blob to <key>.unreadable before replacing it; a different one goes to .2', () => {
    const kv = memoryKv({ 'test.notes': '{oops' });
    expect(saveEntry(kv, NOTES, 'a', { text: 'a', tags: [] })).toBeNull();
    expect(kv.m.get('test.notes.unreadable')).toBe('{oops');
    expect(loadStore(kv, NOTES).items.map((i) => i.name)).toEqual(['a']);
    kv.m.set('test.notes', '[1]');
    expect(saveEntry(kv, NOTES, 'b', { text: 'b', tags: [] })).toBeNull();
    expect(kv.m.get('test.notes.unreadable')).toBe('{oops');
    expect(kv.m.get('test.notes.unreadable.2')).toBe('[1]');
    // the same blob again reuses its copy
    kv.m.set('test.notes', '{oops');
    expect(saveEntry(kv, NOTES, 'c', { text: 'c', tags: [] })).toBeNull();
    expect(kv.m.has('test.notes.unreadable.3')).toBe(false);
  });

  test('when every backup slot is taken, or the copy fails, nothing is overwritten', () => {
    const slots = Object.fromEntries(backupKeys('test.notes').map((k, i) => [k, `old ${i}`]));
    const kv = memoryKv({ 'test.notes': '{oops', ...slots });
    expect(saveEntry(kv, NOTES, 'a', { text: 'a', tags: [] })).toBe('blocked');
    expect(kv.m.get('test.notes')).toBe('{oops');
    const full = memoryKv({ 'test.notes': '{oops' }, { failSet: quotaError() });
    expect(saveEntry(full, NOTES, 'a', { text: 'a', tags: [] })).toBe('full');
    expect(full.m.get('test.notes')).toBe('{oops');
  });
});

describe('data from a newer page', () => {
  const raw = blob(4, { kept: { text: 'still readable', tags: [] }, changed: { body: 'new shape' } });

  test('is shown read-only: what this page can read is listed, nothing is reported bad or written', () => {
    const kv = memoryKv({ 'test.notes': raw });
    expect(loadStore(kv, NOTES)).toEqual({ items: [{ name: 'kept', value: { text: 'still readable', tags: [] } }], bad: [], state: 'newer' });
    expect(saveEntry(kv, NOTES, 'a', { text: 'a', tags: [] })).toBe('newer');
    expect(deleteEntry(kv, NOTES, 'kept')).toBe('newer');
    expect(kv.m.get('test.notes')).toBe(raw);
    expect(kv.m.size).toBe(1);
  });
});

describe('storage that throws or is missing', () => {
  test('getItem throwing (SecurityError) reads as unavailable; writes are refused', () => {
    const kv = memoryKv({}, { failGet: securityError() });
    expect(loadStore(kv, NOTES)).toEqual({ items: [], bad: [], state: 'unavailable' });
    expect(saveEntry(kv, NOTES, 'a', { text: 'a', tags: [] })).toBe('blocked');
    expect(loadStore(null, NOTES).state).toBe('unavailable');
    expect(deleteEntry(null, NOTES, 'a')).toBe('blocked');
  });

  test('setItem throwing tells full (QuotaExceededError, legacy code 22) from blocked, and keeps the old data', () => {
    const before = blob(3, { a: { text: 'a', tags: [] } });
    for (const [err, why] of [
      [quotaError(), 'full'],
      [Object.assign(new Error('q'), { code: 22 }), 'full'],
      [securityError(), 'blocked'],
    ] as const) {
      const kv = memoryKv({ 'test.notes': before }, { failSet: err });
      expect(saveEntry(kv, NOTES, 'b', { text: 'b', tags: [] })).toBe(why);
      expect(kv.m.get('test.notes')).toBe(before);
      expect(loadStore(kv, NOTES).items.map((i) => i.name)).toEqual(['a']);
    }
  });
});
