/**
 * Custom models saved in the browser. Format (shipped as version 1, unchanged since):
 *   gpumem.models = {"version":1,"models":{"<name>":{"arch":{ModelArch},"savedAt":<ms since 1970>}}}
 * The version stays 1 on purpose: the first release replaces any envelope whose version is not 1
 * on its next save, so a bumped blob would be wiped by a tab still running that release. Fields
 * added later must be optional (v1 readers ignore them); a breaking change needs a version and a
 * step in MODEL_MIGRATIONS (docs/saved-data.md).
 */
import { isModelArch } from '../../core/model/arch-check';
import type { ModelArch } from '../../core/types';
import type { KeyValue } from './browser-storage';
import { deleteEntry, loadStore, saveEntry, type EntryMigration, type Loaded, type StoreSpec, type WriteFailure } from './versioned-store';

export interface SavedModel {
  arch: ModelArch;
  savedAt: number;
}

/** No breaking change yet: v1 entries are current. */
export const MODEL_MIGRATIONS: readonly EntryMigration[] = [];

/** A stored entry as a SavedModel when its arch is whole (isModelArch) and savedAt a finite number. */
export function readSavedModel(e: unknown): SavedModel | null {
  if (typeof e !== 'object' || e === null) return null;
  const { arch, savedAt } = e as Record<string, unknown>;
  return isModelArch(arch) && typeof savedAt === 'number' && Number.isFinite(savedAt) ? { arch, savedAt } : null;
}

export const MODELS_STORE: StoreSpec<SavedModel> = {
  key: 'gpumem.models',
  version: 1,
  field: 'models',
  migrations: MODEL_MIGRATIONS,
  read: readSavedModel,
};

/** Every readable saved model (by name), plus unreadable names and the store's state. */
export function loadSavedModels(kv: KeyValue | null): Loaded<SavedModel> {
  return loadStore(kv, MODELS_STORE);
}

/** Save (or replace) a model; null when stored, else why not. */
export function saveModel(kv: KeyValue | null, name: string, arch: ModelArch, now = Date.now()): WriteFailure | null {
  return saveEntry(kv, MODELS_STORE, name, { arch, savedAt: now });
}

/** Delete a saved model; null when done. */
export function deleteModel(kv: KeyValue | null, name: string): WriteFailure | null {
  return deleteEntry(kv, MODELS_STORE, name);
}
