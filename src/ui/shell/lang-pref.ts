/**
 * The page language when the link names none: the one the user last picked here, else the
 * browser's own (navigator.languages: a zh, zh-CN, zh-Hans… browser opens in Chinese).
 */
import { browserStorage } from '../../state/storage/browser-storage';
import type { Lang } from '../../state/store';

/** localStorage key of the language the user picked. */
export const LANG_KEY = 'gpumem.lang';

const asLang = (tag: string | null | undefined): Lang | undefined => (!tag ? undefined : /^zh(?:\b|-|_)/i.test(tag) ? 'zh' : /^en(?:\b|-|_)/i.test(tag) ? 'en' : undefined);

/** Remembered choice first, then the first of the browser's languages the page speaks. */
export function preferredLang(nav: Pick<Navigator, 'languages' | 'language'> | undefined = globalThis.navigator): Lang {
  let saved: string | null = null;
  try {
    saved = browserStorage()?.getItem(LANG_KEY) ?? null;
  } catch {
    saved = null;
  }
  const remembered = saved === 'en' || saved === 'zh' ? saved : undefined;
  if (remembered) return remembered;
  for (const tag of nav?.languages?.length ? nav.languages : [nav?.language]) {
    const l = asLang(tag);
    if (l) return l;
  }
  return 'en';
}

/** Remember the user's pick (silently not, where the browser stores nothing). */
export function rememberLang(l: Lang): void {
  try {
    browserStorage()?.setItem(LANG_KEY, l);
  } catch {
    // storage blocked or full: the link still carries the language
  }
}
