/**
 * Model presets: the architectures tools/gen-presets.mjs parsed from data/models.json and
 * presets-hybrid.ts (presets-data.ts), so the page carries no config reader until a config.json
 * is pasted.
 */
import { PRESET_ROWS, type PresetRow } from './presets-data';

export type Preset = PresetRow;

/** All presets, in the reference list's order (families grouped, small to large). */
export const PRESETS: readonly Preset[] = PRESET_ROWS;

/** A preset id as looked up: case-insensitive, trimmed (also the image-generation presets' key, diffusion/presets.ts). */
export const norm = (s: string): string => s.toLowerCase().trim();
/** The name after the owner, 'Llama-2-7b-hf' of 'meta-llama/Llama-2-7b-hf', normalised. */
export const shortName = (id: string): string => norm(id.slice(id.indexOf('/') + 1));

/** Preset by HF id, by the part after the slash ('Llama-2-7b-hf'), or by display name; case-insensitive. */
export function findPreset(id: string): Preset | undefined {
  const q = norm(id);
  if (q === '') return undefined;
  return PRESETS.find((p) => norm(p.id) === q) ?? PRESETS.find((p) => shortName(p.id) === q) ?? PRESETS.find((p) => norm(p.name) === q);
}

/**
 * Presets whose id or name contains every whitespace-separated word of the query
 * (case-insensitive); exact short-name matches first, then list order. Empty query: all.
 */
export function searchPresets(query: string): Preset[] {
  const words = norm(query)
    .split(/\s+/)
    .filter((w) => w !== '');
  const hits = PRESETS.filter((p) => {
    const hay = `${norm(p.id)} ${norm(p.name)}`;
    return words.every((w) => hay.includes(w));
  });
  const q = norm(query);
  return [...hits.filter((p) => shortName(p.id) === q), ...hits.filter((p) => shortName(p.id) !== q)];
}
