/**
 * The Layer builder's own store (the page store, src/state/store.ts, holds the LLM scenario):
 * the NetState of net-url.ts plus the actions the view offers. Derived figures are computed in
 * use-network.ts, never stored.
 */
import { create } from 'zustand';
import type { LayerSpec } from '../../core/layers/spec';
import { findNetworkPreset } from '../../core/layers/presets';
import { pushEdit, type EditOp, type Fields, type Step } from './net-edits';
import { presetState, type NetState } from './net-url';

export interface NetStore extends NetState {
  /** `net.*` values of the link that could not be used (shown once as a notice) */
  ignored: string[];
  update: (p: Partial<NetState>) => void;
  choosePreset: (id: string) => void;
  /** a pasted / imported list becomes the base; edits start over */
  setCustom: (layers: LayerSpec[], input: number[]) => void;
  edit: (op: EditOp) => void;
  setFields: (at: Step[], fields: Fields) => void;
  resetEdits: () => void;
  load: (s: NetState, ignored: string[]) => void;
}

export const useNet = create<NetStore>()((set) => ({
  ...presetState(),
  ignored: [],
  update: (p) => set(p),
  choosePreset: (id) =>
    set(() => {
      const p = findNetworkPreset(id);
      return p ? { preset: p.id, custom: null, edits: [], input: p.build().input } : {};
    }),
  setCustom: (layers, input) => set({ preset: 'custom', custom: { layers, input }, edits: [], input }),
  edit: (op) => set((s) => ({ edits: pushEdit(s.edits, op) })),
  setFields: (at, fields) => set((s) => ({ edits: pushEdit(s.edits, { op: 'set', at, fields }) })),
  resetEdits: () => set({ edits: [] }),
  load: (state, ignored) => set({ ...state, ignored }),
}));

/** The plain state (what the link carries) of the store. */
export function netStateOf(s: NetStore): NetState {
  const { preset, custom, edits, input, batch, mode, precision, optimizer, ckpt, gpus } = s;
  return { preset, custom, edits, input, batch, mode, precision, optimizer, ckpt, gpus };
}
