/**
 * Layer-builder networks saved in the browser (versioned store, src/state/storage):
 *   gpumem.networks = {"version":1,"items":{"<name>":{
 *     "preset":"resnet-50" | "custom", "custom"?:{"input":[3,224,224],"layers":[LayerSpec...]},
 *     "edits":"<net-edits text>", "input":[3,224,224], "batch":32, "mode":"training",
 *     "precision":"fp32", "optimizer":"adamw", "ckpt":false, "savedAt":<ms>}}}
 * A custom base list is kept as LayerSpec JSON, not as layer text: validateNetwork gives back the
 * same structure, while the text form folds repeated items into repN[...] and would move the
 * addresses the edits point at. The compared GPUs are not part of a saved network.
 */
import { MAX_BATCH } from '../../core/layers/estimate';
import { findNetworkPreset } from '../../core/layers/presets';
import { validateNetwork } from '../../core/layers/validate';
import { MODES, OPTIMIZERS, PRECISIONS } from '../../core/scenario/schema';
import type { Mode, Optimizer, Precision } from '../../core/types';
import { browserStorage } from '../../state/storage/browser-storage';
import { deleteEntry, loadStore, saveEntry, type EntryMigration, type Loaded, type StoreSpec, type WriteFailure } from '../../state/storage/versioned-store';
import { editsText, parseEdits } from './net-edits';
import type { NetState } from './net-url';

/** The saved part of a NetState (everything but the compared GPUs), plus when it was saved. */
export type SavedNetwork = Omit<NetState, 'gpus'> & { savedAt: number };

/** First version: nothing to migrate. */
const NETWORK_MIGRATIONS: readonly EntryMigration[] = [];

/** 1 to 8 whole numbers in [1, 2^31], what parseShape accepts */
const isShape = (x: unknown): x is number[] => Array.isArray(x) && x.length >= 1 && x.length <= 8 && x.every((v) => Number.isInteger(v) && v >= 1 && v <= 2 ** 31);

/**
 * A stored entry as a SavedNetwork when every part checks: a known preset, or a custom base list
 * that validateNetwork accepts; edits that parse with nothing left over; shape, batch and the
 * settings within the values the view offers.
 */
export function readSavedNetwork(e: unknown): SavedNetwork | null {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return null;
  const o = e as Record<string, unknown>;
  const { preset, edits, input, batch, mode, precision, optimizer, ckpt, savedAt } = o;
  if (typeof preset !== 'string' || typeof edits !== 'string' || !isShape(input)) return null;
  if (typeof batch !== 'number' || !Number.isInteger(batch) || batch < 1 || batch > MAX_BATCH) return null;
  if (!MODES.includes(mode as Mode) || !PRECISIONS.includes(precision as Precision) || !OPTIMIZERS.includes(optimizer as Optimizer)) return null;
  if (typeof ckpt !== 'boolean' || typeof savedAt !== 'number' || !Number.isFinite(savedAt)) return null;
  let custom: SavedNetwork['custom'] = null;
  if (preset === 'custom') {
    const c = o.custom as { input?: unknown; layers?: unknown } | undefined;
    if (!c || !isShape(c.input)) return null;
    const checked = validateNetwork({ input: c.input, layers: c.layers });
    if (!checked.ok) return null;
    custom = checked.value;
  } else if (!findNetworkPreset(preset)) return null;
  const parsed = parseEdits(edits);
  if (parsed.bad.length > 0) return null;
  return {
    preset,
    custom,
    edits: parsed.ops,
    input: [...input],
    batch,
    mode: mode as Mode,
    precision: precision as Precision,
    optimizer: optimizer as Optimizer,
    ckpt,
    savedAt,
  };
}

export const NETWORKS_STORE: StoreSpec<SavedNetwork> = {
  key: 'gpumem.networks',
  version: 1,
  field: 'items',
  migrations: NETWORK_MIGRATIONS,
  read: readSavedNetwork,
};

/** The stored form of a view state (edits as their text form). */
function entryOf(s: NetState, now: number): Record<string, unknown> {
  const { preset, custom, edits, input, batch, mode, precision, optimizer, ckpt } = s;
  return { preset, ...(preset === 'custom' && custom ? { custom } : {}), edits: editsText(edits), input, batch, mode, precision, optimizer, ckpt, savedAt: now };
}

/** Every readable saved network (by name), plus unreadable names and the store's state. */
export function loadSavedNetworks(): Loaded<SavedNetwork> {
  return loadStore(browserStorage(), NETWORKS_STORE);
}

/** Save the view's network under `name`; null when stored, else why not. */
export function saveNetwork(name: string, s: NetState, now = Date.now()): WriteFailure | null {
  return saveEntry(browserStorage(), NETWORKS_STORE, name, entryOf(s, now));
}

/** Delete a saved network; null when done. */
export function deleteNetwork(name: string): WriteFailure | null {
  return deleteEntry(browserStorage(), NETWORKS_STORE, name);
}

/** The view state a saved network restores, keeping the GPUs being compared. */
export function restoreNetwork(n: SavedNetwork, gpus: string[]): NetState {
  const { preset, custom, edits, input, batch, mode, precision, optimizer, ckpt } = n;
  return { preset, custom, edits, input, batch, mode, precision, optimizer, ckpt, gpus };
}
