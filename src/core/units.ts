/**
 * Byte units: the one place that says how many bytes a unit holds, how people write sizes and how
 * the CLI and core print them. Binary units are powers of 1024 (what PyTorch's allocator,
 * `nvidia-smi` and llama.cpp log); decimal units are powers of 1000 (what vendors sell); see
 * docs/reference/formulas.md (units). The page's locale-aware formatting (src/ui/i18n/format.ts)
 * divides by these same constants.
 */

export const KiB = 2 ** 10;
export const MiB = 2 ** 20;
export const GiB = 2 ** 30;
export const TiB = 2 ** 40;
export const KB = 1e3;
export const MB = 1e6;
export const GB = 1e9;
export const TB = 1e12;

/** Bytes per unit, by the unit's name. */
export const UNIT_BYTES = { B: 1, KiB, MiB, GiB, TiB, KB, MB, GB, TB } as const;
export type ByteUnitName = keyof typeof UNIT_BYTES;

/** The same table keyed in lower case, for reading what people type ("24gb", "80 GiB"). */
const BY_LOWER: Record<string, number> = Object.fromEntries(Object.entries(UNIT_BYTES).map(([k, v]) => [k.toLowerCase(), v]));

/** The unit names a size may be written with, for messages. */
export const UNIT_NAMES = 'B, KB, KiB, MB, MiB, GB, GiB, TB or TiB';

export type ByteParse = { ok: true; bytes: number } | { ok: false; reason: 'syntax' } | { ok: false; reason: 'unit'; unit: string };

/**
 * A number with an optional unit: `512`, `512MB`, `80 GiB`, `1.5 tb` (case-insensitive). The result
 * is the exact product, not rounded; `unitRequired` refuses a bare number. Linear time: one
 * decimal, optional spaces, one word.
 */
export function parseBytes(text: string, unitRequired = false): ByteParse {
  const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/i.exec(text.trim());
  if (!m) return { ok: false, reason: 'syntax' };
  const [, num = '', unit] = m; // the number is not optional, the unit is
  if (unit === undefined) return unitRequired ? { ok: false, reason: 'syntax' } : { ok: true, bytes: Number(num) };
  const mult = BY_LOWER[unit.toLowerCase()];
  if (mult === undefined) return { ok: false, reason: 'unit', unit };
  return { ok: true, bytes: Number(num) * mult };
}

/** `bytes` in `unit` with fixed decimals, no unit name: fixedIn(1.5 · 2^30, 'GiB') → "1.50". */
export function fixedIn(bytes: number, unit: ByteUnitName, digits = 2): string {
  return (bytes / UNIT_BYTES[unit]).toFixed(digits);
}

/** `bytes` in `unit` with its name: formatIn(2^20, 'MiB', 1) → "1.0 MiB". */
export function formatIn(bytes: number, unit: ByteUnitName, digits = 2): string {
  return `${fixedIn(bytes, unit, digits)} ${unit}`;
}

/** The largest binary unit that keeps the value ≥ 1, two decimals: 1536 → "1.50 KiB", 0 → "0 B". */
export function humanBytes(bytes: number): string {
  const abs = Math.abs(bytes);
  if (abs < KiB) return `${bytes} B`;
  const unit = abs >= TiB ? 'TiB' : abs >= GiB ? 'GiB' : abs >= MiB ? 'MiB' : 'KiB';
  return formatIn(bytes, unit);
}
