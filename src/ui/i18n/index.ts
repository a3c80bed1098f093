import { useApp } from '../../state/store';
import { en, type MessageKey } from './en';
import { zh } from './zh';
import { CORE_ZH } from './core-zh';
import type { Lang } from './format';

const DICTS: Record<Lang, Record<MessageKey, string>> = { en, zh };

function fill(s: string, params?: Record<string, string | number>): string {
  if (!params) return s;
  return s.replace(/\{(\w+)\}/g, (m, k: string) => (k in params ? String(params[k]) : m));
}

/** Translate a page string. */
export function translate(lang: Lang, key: MessageKey, params?: Record<string, string | number>): string {
  return fill(DICTS[lang][key], params);
}

/** Translate a message from the core (Message / FieldError): by its code, else its English text. */
export function translateCore(
  lang: Lang,
  m: { code: string; key?: string; params?: Record<string, number | string>; text?: string; message?: string },
): string {
  const english = m.text ?? m.message ?? m.code;
  if (lang === 'en') return english;
  const zhText = CORE_ZH[m.code];
  return zhText ? fill(zhText, { key: m.key ?? '', ...m.params }) : english;
}

export type T = ((key: MessageKey, params?: Record<string, string | number>) => string) & {
  lang: Lang;
  core: (m: Parameters<typeof translateCore>[1]) => string;
};

const made = new Map<Lang, T>();
/** A stable translator for the language. */
export function translator(lang: Lang): T {
  let t = made.get(lang);
  if (!t) {
    const f = ((key: MessageKey, params?: Record<string, string | number>) => translate(lang, key, params)) as T;
    f.lang = lang;
    f.core = (m) => translateCore(lang, m);
    made.set(lang, f);
    t = f;
  }
  return t;
}

/** The translator for the page's current language. */
export function useT(): T {
  return translator(useApp((s) => s.lang));
}
