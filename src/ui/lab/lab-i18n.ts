/**
 * The lab's own translations (English + 简体中文) and its translator hook. Page-wide language
 * comes from the store; core messages are translated by their stable code, falling back to
 * the English text the core wrote.
 */
import { useApp } from '../../state/store';
import { formatNumber, type Lang } from '../i18n/format';
import { humanBytes } from '../../core/allocator/units';
import { labEn, type LabKey } from './lab-en';
import { labZh } from './lab-zh';
import { LAB_CORE_ZH } from './lab-core-zh';

export type { LabKey };

const DICTS: Record<Lang, Record<LabKey, string>> = { en: labEn, zh: labZh };

/** Params of core messages that hold byte counts: shown as "12.00 MiB". */
const BYTE_PARAMS = new Set(['bytes', 'shortBytes', 'allowed', 'unallocated', 'free', 'requested', 'others', 'min', 'max', 'nonReleasable', 'reserved', 'releasable']);

function fill(s: string, params?: Record<string, string | number>, bytes = false): string {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k: string) => {
    if (!(k in params)) return m;
    const v = params[k];
    return bytes && typeof v === 'number' && BYTE_PARAMS.has(k) ? humanBytes(v) : String(v);
  });
}

export interface CoreText {
  code: string;
  params?: Record<string, number | string>;
  text?: string;
  message?: string;
}

export type LabT = ((key: LabKey, params?: Record<string, string | number>) => string) & {
  lang: Lang;
  /** a core Message / FieldError / advice in the page language */
  core: (m: CoreText) => string;
  /** exact bytes with grouping, e.g. "109,051,904 B" */
  exact: (bytes: number) => string;
  /** short binary form, e.g. "104.00 MiB" */
  bytes: (bytes: number) => string;
  num: (n: number) => string;
};

/** Translates a core message: Chinese by code (params filled), else the English text. */
export function translateLabCore(lang: Lang, m: CoreText): string {
  const english = m.text ?? m.message ?? m.code;
  if (lang === 'en') return english;
  const zh = LAB_CORE_ZH[m.code];
  return zh ? fill(zh, m.params, true) : english;
}

const made = new Map<Lang, LabT>();

/** A stable lab translator for `lang`. */
export function labTranslator(lang: Lang): LabT {
  let t = made.get(lang);
  if (!t) {
    const f = ((key: LabKey, params?: Record<string, string | number>) => fill(DICTS[lang][key], params)) as LabT;
    f.lang = lang;
    f.core = (m) => translateLabCore(lang, m);
    f.exact = (b) => `${formatNumber(b, lang, 0)} B`;
    f.bytes = (b) => humanBytes(b);
    f.num = (n) => formatNumber(n, lang, 3);
    made.set(lang, f);
    t = f;
  }
  return t;
}

/** The lab translator for the page's current language. */
export function useLabT(): LabT {
  return labTranslator(useApp((s) => s.lang));
}
