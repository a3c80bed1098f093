/**
 * Named custom GPUs saved in the browser:
 *   gpumem.gpus = {"version":1,"items":{"<name>":{"capacityBytes":<int>,"bandwidthGBs"?:<GB/s>,"savedAt":<ms>}}}
 * A saved GPU is picked by its capacity spec (capacitySpec), which links and the URL codec already
 * read, so a shared link works without the saved entry.
 */
import { MAX_CUSTOM_CAPACITY, parseCapacity } from '../../core/gpus';
import type { KeyValue } from './browser-storage';
import { deleteEntry, loadStore, saveEntry, type EntryMigration, type Loaded, type StoreSpec, type WriteFailure } from './versioned-store';
import { GB, GiB, MB, MiB } from '../../core/units';

export interface SavedGpu {
  capacityBytes: number;
  /** memory bandwidth in GB/s (decimal), when the user gave one */
  bandwidthGBs?: number;
  savedAt: number;
}

/**
 * Highest bandwidth accepted, GB/s: 100 TB/s, over ten times the fastest device in the catalogue
 * (B200, B300 and MI355X: 8,000 GB/s, src/core/gpus.data.ts).
 */
export const MAX_BANDWIDTH_GBS = 100_000;

/** First version: nothing to migrate. */
export const GPU_MIGRATIONS: readonly EntryMigration[] = [];

/** A stored entry as a SavedGpu: whole bytes in [1 MiB, 64 TiB] (parseCapacity's range), bandwidth in (0, 100 TB/s]. */
export function readSavedGpu(e: unknown): SavedGpu | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return null;
  const { capacityBytes: c, bandwidthGBs: bw, savedAt } = e as Record<string, unknown>;
  if (typeof c !== 'number' || !Number.isInteger(c) || c < MiB || c > MAX_CUSTOM_CAPACITY) return null;
  if (typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return null;
  if (bw === undefined) return { capacityBytes: c, savedAt };
  return typeof bw === 'number' && bw > 0 && bw <= MAX_BANDWIDTH_GBS ? { capacityBytes: c, bandwidthGBs: bw, savedAt } : null;
}

export const GPUS_STORE: StoreSpec<SavedGpu> = {
  key: 'gpumem.gpus',
  version: 1,
  field: 'items',
  migrations: GPU_MIGRATIONS,
  read: readSavedGpu,
};

/**
 * The shortest capacity spec that parseCapacity reads back to exactly `bytes`: whole GiB, whole
 * GB, whole MiB, else decimal MB (bytes / 10^6 has at most six decimals, so it rounds back).
 */
export function capacitySpec(bytes: number): string {
  if (bytes % GiB === 0) return `${bytes / GiB}gib`;
  if (bytes % GB === 0) return `${bytes / GB}gb`;
  if (bytes % MiB === 0) return `${bytes / MiB}mib`;
  return `${bytes / MB}mb`;
}

/** Every readable saved GPU (by name), plus unreadable names and the store's state. */
export function loadSavedGpus(kv: KeyValue | null): Loaded<SavedGpu> {
  return loadStore(kv, GPUS_STORE);
}

/** Save a GPU from a typed capacity ('24gib'); 'invalid' when the capacity does not parse. */
export function saveGpu(kv: KeyValue | null, name: string, capacity: string, bandwidthGBs?: number, now = Date.now()): WriteFailure | null {
  const capacityBytes = parseCapacity(capacity);
  if (capacityBytes === null) return 'invalid';
  const entry: SavedGpu = bandwidthGBs === undefined ? { capacityBytes, savedAt: now } : { capacityBytes, bandwidthGBs, savedAt: now };
  return saveEntry(kv, GPUS_STORE, name, entry);
}

/** Delete a saved GPU; null when done. */
export function deleteGpu(kv: KeyValue | null, name: string): WriteFailure | null {
  return deleteEntry(kv, GPUS_STORE, name);
}
