/**
 * One named collection kept in localStorage under one key, in a versioned envelope:
 *   <key> = {"version":N,"<field>":{"<name>":<entry>, ...}}
 * Rules (docs/saved-data.md):
 * - an older version is brought up to date entry by entry through the store's migration chain;
 * - an entry that does not validate is skipped, reported by name, and written back unchanged on
 *   every later save, so nothing the user stored is ever dropped;
 * - an envelope from a newer page is shown read-only and never overwritten;
 * - an unreadable blob (bad JSON, another app's data) is copied aside to `<key>.unreadable`
 *   before the first write replaces it;
 * - storage that is absent, refused or full gives a reason, never an exception;
 * - every entry a change leaves alone is written back as its own stored text (raw-members.ts), so
 *   numbers JSON cannot hold (1e400, integers past 2^53) and same-named entries survive.
 */
import { failureOf, type KeyValue } from './browser-storage';
import { envelopeText, rawMembersOf } from './raw-members';

/**
 * Why a write did not happen: storage full; storage refused or absent; the key holds data of a
 * newer page (never overwritten); the entry itself or its name is not valid.
 */
export type WriteFailure = 'full' | 'blocked' | 'newer' | 'invalid';

/** One step of a store's chain: turns an entry of version `from` into one of version `from + 1`. */
export interface EntryMigration {
  from: number;
  /** what changed, for docs/saved-data.md */
  summary: string;
  /** Pure; must pass entries it does not recognise through unchanged. */
  migrate(entry: unknown): unknown;
}

export interface StoreSpec<T> {
  key: string;
  /** the version this page writes */
  version: number;
  /** envelope field holding the entries */
  field: string;
  migrations: readonly EntryMigration[];
  /** A stored entry (current version) as a usable value, or null when it is not one. */
  read(entry: unknown): T | null;
}

export interface Loaded<T> {
  /** readable entries, sorted by name */
  items: { name: string; value: T }[];
  /** names of entries that could not be read (kept as they are) */
  bad: string[];
  /** 'unreadable': the whole blob; 'newer': written by a newer page (read-only); 'unavailable': no storage */
  state: 'ok' | 'unreadable' | 'newer' | 'unavailable';
}

/** Longest entry name kept (longer ones are reported, never read). */
export const MAX_NAME = 80;

/** One stored entry: its value (migrated to the current version) and its stored text while unchanged. */
interface Member {
  name: string;
  value: unknown;
  /** the entry's text as stored; null once a migration or a save changed it */
  raw: string | null;
}

type Opened = { kind: 'unavailable' } | { kind: 'absent' } | { kind: 'unreadable'; raw: string } | { kind: 'newer' | 'current'; members: Member[] };

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Run the chain from `version` up to the spec's version; a step that throws leaves the entry as it was. */
export function migrateEntry(entry: unknown, version: number, spec: Pick<StoreSpec<unknown>, 'version' | 'migrations'>): unknown {
  let out = entry;
  for (const m of spec.migrations) {
    if (m.from < version || m.from >= spec.version) continue;
    try {
      out = m.migrate(out);
    } catch {
      return entry;
    }
  }
  return out;
}

function open<T>(kv: KeyValue | null, spec: StoreSpec<T>): Opened {
  let raw: string | null;
  try {
    if (!kv) return { kind: 'unavailable' };
    raw = kv.getItem(spec.key);
  } catch {
    return { kind: 'unavailable' };
  }
  if (raw === null) return { kind: 'absent' };
  let env: unknown;
  try {
    env = JSON.parse(raw);
  } catch {
    return { kind: 'unreadable', raw };
  }
  if (!isRecord(env)) return { kind: 'unreadable', raw };
  const { version } = env;
  const body = env[spec.field];
  if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1 || !isRecord(body)) return { kind: 'unreadable', raw };
  const members: Member[] = (rawMembersOf(raw, spec.field) ?? []).map((m) => {
    const value: unknown = JSON.parse(m.raw);
    if (version >= spec.version) return { name: m.name, value, raw: m.raw };
    const migrated = migrateEntry(value, version, spec);
    return { name: m.name, value: migrated, raw: migrated === value ? m.raw : null };
  });
  return { kind: version > spec.version ? 'newer' : 'current', members };
}

/** Readable entries; of same-named ones the last is used (as JSON.parse would) and the earlier are named as bad. */
function readAll<T>(members: readonly Member[], spec: StoreSpec<T>): Pick<Loaded<T>, 'items' | 'bad'> {
  const items: Loaded<T>['items'] = [];
  const bad: string[] = [];
  const lastOf = new Map(members.map((m, i) => [m.name, i]));
  members.forEach((m, i) => {
    let value: T | null = null;
    try {
      value = lastOf.get(m.name) === i && m.name.length > 0 && m.name.length <= MAX_NAME ? spec.read(m.value) : null;
    } catch {
      value = null;
    }
    if (value === null) bad.push(m.name);
    else items.push({ name: m.name, value });
  });
  items.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { items, bad };
}

/** Everything readable in the store, and what is not. Never throws. */
export function loadStore<T>(kv: KeyValue | null, spec: StoreSpec<T>): Loaded<T> {
  const o = open(kv, spec);
  switch (o.kind) {
    case 'unavailable':
      return { items: [], bad: [], state: 'unavailable' };
    case 'absent':
      return { items: [], bad: [], state: 'ok' };
    case 'unreadable':
      return { items: [], bad: [], state: 'unreadable' };
    // a newer page may have changed the shape: show what this page can read, report nothing as bad
    case 'newer':
      return { items: readAll(o.members, spec).items, bad: [], state: 'newer' };
    case 'current':
      return { ...readAll(o.members, spec), state: 'ok' };
  }
}

/** Where an unreadable blob of `key` is kept: `<key>.unreadable`, then `.2` … `.9`. */
export function backupKeys(key: string): string[] {
  return [`${key}.unreadable`, ...Array.from({ length: 8 }, (_, i) => `${key}.unreadable.${i + 2}`)];
}

/** Copy an unreadable blob aside (reusing a slot that already holds it); a failure reason, or null when kept. */
function backUp(kv: KeyValue, key: string, raw: string): WriteFailure | null {
  try {
    for (const k of backupKeys(key)) {
      const held = kv.getItem(k);
      if (held === raw) return null;
      if (held === null) {
        kv.setItem(k, raw);
        return null;
      }
    }
    return 'blocked';
  } catch (e) {
    return failureOf(e);
  }
}

/** Read, change, write back: every entry the change leaves alone is written back as it was stored. */
function update<T>(kv: KeyValue | null, spec: StoreSpec<T>, change: (members: Member[]) => void): WriteFailure | null {
  const o = open(kv, spec);
  if (!kv || o.kind === 'unavailable') return 'blocked';
  if (o.kind === 'newer') return 'newer';
  if (o.kind === 'unreadable') {
    const kept = backUp(kv, spec.key, o.raw);
    if (kept) return kept;
  }
  const members = o.kind === 'current' ? o.members : [];
  change(members);
  const text = envelopeText(
    spec.version,
    spec.field,
    members.map((m) => ({ name: m.name, raw: m.raw ?? JSON.stringify(m.value) })),
  );
  try {
    kv.setItem(spec.key, text);
    return null;
  } catch (e) {
    return failureOf(e);
  }
}

/** Index of the last entry called `name` (the one readAll shows), or -1. */
function lastNamed(members: readonly Member[], name: string): number {
  for (let i = members.length - 1; i >= 0; i--) if (members[i].name === name) return i;
  return -1;
}

/** Save (or replace) `name` with an entry in its stored form (checked with spec.read first). Null when stored, else why not. */
export function saveEntry<T>(kv: KeyValue | null, spec: StoreSpec<T>, name: string, entry: unknown): WriteFailure | null {
  if (name.length === 0 || name.length > MAX_NAME || spec.read(entry) === null) return 'invalid';
  return update(kv, spec, (members) => {
    // replaces the entry shown under this name (the last of same-named ones)
    const at = lastNamed(members, name);
    const member = { name, value: entry, raw: null };
    if (at >= 0) members[at] = member;
    else members.push(member);
  });
}

/** Delete `name`. Null when done (or nothing to delete), else why not. */
export function deleteEntry<T>(kv: KeyValue | null, spec: StoreSpec<T>, name: string): WriteFailure | null {
  // removes the entry shown under this name; an earlier same-named one then shows
  return update(kv, spec, (members) => {
    const at = lastNamed(members, name);
    if (at >= 0) members.splice(at, 1);
  });
}
