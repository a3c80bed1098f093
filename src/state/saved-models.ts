/**
 * Custom models kept in the browser (localStorage), in a versioned envelope:
 *   gpumem.models = {"version":1,"models":{"<name>":{"arch":{...},"savedAt":<ms>}}}
 * Reading never throws: an unreadable envelope or entry is skipped and reported by name, so the
 * page can show a notice instead of going blank.
 */
import type { ModelArch } from '../core/types';

export const STORAGE_KEY = 'gpumem.models';
export const STORAGE_VERSION = 1;

export interface SavedModel {
  name: string;
  arch: ModelArch;
  savedAt: number;
}

export interface LoadResult {
  models: SavedModel[];
  /** names of entries that could not be read ('*' = the whole store) */
  corrupt: string[];
}

type Store = Pick<Storage, 'getItem' | 'setItem'>;

const INT_FIELDS = ['hidden', 'layers', 'heads', 'kvHeads', 'headDim', 'ffn', 'vocab', 'normsPerLayer'] as const;
const BOOL_FIELDS = ['gatedMlp', 'tiedEmbeddings', 'qkvBias', 'oBias', 'mlpBias'] as const;

/** A saved arch is usable when every required field has the right type and a sane value. */
export function isArch(x: unknown): x is ModelArch {
  if (!x || typeof x !== 'object') return false;
  const a = x as Record<string, unknown>;
  if (typeof a.family !== 'string') return false;
  if (a.norm !== 'rmsnorm' && a.norm !== 'layernorm') return false;
  for (const k of INT_FIELDS) {
    const v = a[k];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 2 ** 40) return false;
  }
  for (const k of BOOL_FIELDS) if (typeof a[k] !== 'boolean') return false;
  return (a.hidden as number) > 0 && (a.layers as number) > 0 && (a.heads as number) > 0 && (a.vocab as number) > 0;
}

function readEnvelope(store: Store): { models: Record<string, unknown> } | null | 'corrupt' {
  let raw: string | null;
  try {
    raw = store.getItem(STORAGE_KEY);
  } catch {
    return 'corrupt';
  }
  if (raw === null) return null;
  try {
    const env = JSON.parse(raw) as unknown;
    if (!env || typeof env !== 'object') return 'corrupt';
    const e = env as { version?: unknown; models?: unknown };
    if (e.version !== STORAGE_VERSION || !e.models || typeof e.models !== 'object' || Array.isArray(e.models)) return 'corrupt';
    return { models: e.models as Record<string, unknown> };
  } catch {
    return 'corrupt';
  }
}

/** All readable saved models, sorted by name, plus the names of unreadable ones. */
export function loadSavedModels(store: Store): LoadResult {
  const env = readEnvelope(store);
  if (env === null) return { models: [], corrupt: [] };
  if (env === 'corrupt') return { models: [], corrupt: ['*'] };
  const models: SavedModel[] = [];
  const corrupt: string[] = [];
  for (const [name, entry] of Object.entries(env.models)) {
    const e = entry as { arch?: unknown; savedAt?: unknown } | null;
    if (e && typeof e === 'object' && isArch(e.arch) && typeof e.savedAt === 'number') {
      models.push({ name, arch: e.arch, savedAt: e.savedAt });
    } else corrupt.push(name);
  }
  models.sort((a, b) => a.name.localeCompare(b.name));
  return { models, corrupt };
}

function write(store: Store, models: Record<string, unknown>): boolean {
  try {
    store.setItem(STORAGE_KEY, JSON.stringify({ version: STORAGE_VERSION, models }));
    return true;
  } catch {
    return false;
  }
}

/**
 * Save (or replace) a model under `name`. Unreadable entries already stored are kept untouched;
 * an unreadable envelope is replaced. Returns false when storage refuses (quota, privacy mode).
 */
export function saveModel(store: Store, name: string, arch: ModelArch, now = Date.now()): boolean {
  const env = readEnvelope(store);
  const models = env && env !== 'corrupt' ? { ...env.models } : {};
  models[name] = { arch, savedAt: now };
  return write(store, models);
}

/** Remove a saved model by name. */
export function deleteModel(store: Store, name: string): boolean {
  const env = readEnvelope(store);
  if (!env || env === 'corrupt') return true;
  const models = { ...env.models };
  delete models[name];
  return write(store, models);
}
