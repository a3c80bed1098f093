/** Locale-aware number and byte formatting for the page (Intl.NumberFormat, no hand-made separators). */
import type { ByteUnit, Lang } from '../../state/store';
import { UNIT_BYTES } from '../../core/units';

const LOCALE: Record<Lang, string> = { en: 'en-US', zh: 'zh-CN' };

const cache = new Map<string, Intl.NumberFormat>();
function nf(lang: Lang, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = lang + JSON.stringify(opts);
  let f = cache.get(k);
  if (!f) {
    f = new Intl.NumberFormat(LOCALE[lang], opts);
    cache.set(k, f);
  }
  return f;
}

/** Plain number with grouping, at most `digits` decimals. Non-finite input shows as an en dash. */
export function formatNumber(n: number, lang: Lang, digits = 2): string {
  if (!Number.isFinite(n)) return '–';
  return nf(lang, { maximumFractionDigits: digits }).format(n);
}

/** A speed bound (tokens/s, seconds per step): whole from 10 up, at most two decimals below. */
export function formatBound(v: number, lang: Lang): string {
  return formatNumber(v, lang, v >= 10 ? 0 : 2);
}

/** Byte count in the chosen unit, two decimals below 10, one below 100, none above. */
export function formatBytes(bytes: number, unit: ByteUnit, lang: Lang): string {
  if (!Number.isFinite(bytes)) return '–';
  const v = bytes / UNIT_BYTES[unit]; // GiB = 2^30 B (PyTorch, nvidia-smi), GB = 10^9 B (vendors)
  const a = Math.abs(v);
  const digits = a < 10 ? 2 : a < 100 ? 1 : 0;
  return `${nf(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v)} ${unit}`;
}

/** Parameter counts the way each language says them: 6.7B / 67亿. */
export function formatCount(n: number, lang: Lang): string {
  if (!Number.isFinite(n)) return '–';
  return nf(lang, { notation: 'compact', maximumFractionDigits: 2 }).format(n);
}

/** A share 0..1 as a percentage. */
export function formatShare(x: number, lang: Lang): string {
  if (!Number.isFinite(x)) return '–';
  return nf(lang, { style: 'percent', maximumFractionDigits: 1 }).format(x);
}

/** Signed % to one decimal: "+1.2 %", "-3 %"; anything that rounds to zero reads "0 %". */
export function signedPct(x: number, lang: Lang): string {
  const r = Math.round(x * 10) / 10;
  return r === 0 ? `${formatNumber(0, lang, 1)} %` : `${r > 0 ? '+' : ''}${formatNumber(r, lang, 1)} %`;
}
