/**
 * The one way a view builds its translator: an English table, a Chinese table with exactly the
 * English keys (the compiler checks both ways), `{name}` placeholders filled from params, one
 * stable function per language (safe in hook dependencies), and a hook that follows the page
 * language in the store. Core messages (Message / FieldError) are translated by their stable code.
 */
import { useApp, type Lang } from '../../state/store';
import { useZhLoaded } from './zh-loader';
import { fillTemplate, type ShowParam } from '../../core/template';

export type Params = Record<string, string | number>;
export type { ShowParam };

/** A view's translator for one language: `t(key, params)`, plus the language it speaks. */
export type Translate<K extends string> = ((key: K, params?: Params) => string) & { lang: Lang };

/** A view's tables: English, and Chinese with the same keys. */
export interface Tables<K extends string> {
  en: Readonly<Record<K, string>>;
  zh: Readonly<Record<K, string>>;
}

/** What makeTranslator returns: the tables, the per-language translator and the page hook. */
export interface TranslatorKit<K extends string, X> {
  tables: Tables<K>;
  translator: (lang: Lang) => Translate<K> & X;
  useTranslator: () => Translate<K> & X;
}

/**
 * Builds a view's translator from its tables. `zh` must hold every key of `en` and no other
 * (a missing key fails `Record<keyof E, string>`, an extra key fails the `never` part); it may be
 * a function that returns the table once a lazy chunk has brought it, null before (zh-loader.ts):
 * until then the Chinese translator speaks English, and the page hook re-renders when it arrives.
 * `extend` adds view-specific helpers (core messages, number formats) to each language's function.
 */
export function makeTranslator<E extends Record<string, string>, Z extends Record<keyof E, string>, X extends object = object>(
  en: E,
  zh: (Z & Record<Exclude<keyof Z, keyof E>, never>) | (() => (Z & Record<Exclude<keyof Z, keyof E>, never>) | null),
  extend?: (t: Translate<keyof E & string>, table: Readonly<Record<keyof E & string, string>>) => X,
): TranslatorKit<keyof E & string, X> {
  type K = keyof E & string;
  const zhTable = (): Readonly<Record<K, string>> | null => (typeof zh === 'function' ? zh() : zh);
  const tables: Tables<K> = {
    en,
    get zh() {
      return zhTable() ?? en;
    },
  };
  const made = new Map<Lang, Translate<K> & X>();
  // Chinese in English while its table is on the way: one stable function for that wait too
  let waiting: (Translate<K> & X) | undefined;
  const build = (lang: Lang, table: Readonly<Record<K, string>>): Translate<K> & X => {
    const f = ((key: K, params?: Params) => fillTemplate(table[key], params)) as Translate<K>;
    f.lang = lang;
    // without `extend` X is `object` and there is nothing to add
    return Object.assign<Translate<K>, X>(f, extend?.(f, table) as X);
  };
  const translator = (lang: Lang): Translate<K> & X => {
    let t = made.get(lang);
    if (t) return t;
    const table = lang === 'zh' ? zhTable() : en;
    if (!table) return (waiting ??= build('zh', en));
    t = build(lang, table);
    made.set(lang, t);
    return t;
  };
  return {
    tables,
    translator,
    useTranslator: () => {
      useZhLoaded();
      return translator(useApp((s) => s.lang));
    },
  };
}

/** A message from the core: a stable code, the field it concerns, params, and its English text. */
export interface CoreText {
  code: string;
  key?: string;
  params?: Record<string, number | string>;
  text?: string;
  message?: string;
}

/**
 * A core message in the page language: Chinese from `zhByCode` by its code (`{key}` is the field,
 * other `{…}` its params), else the English text the core wrote.
 */
export function translateCoreWith(zhByCode: Readonly<Record<string, string>>, lang: Lang, m: CoreText, show?: ShowParam): string {
  const english = m.text ?? m.message ?? m.code;
  const zh = lang === 'zh' && Object.hasOwn(zhByCode, m.code) ? zhByCode[m.code] : '';
  return zh ? fillTemplate(zh, { key: m.key ?? '', ...m.params }, show) : english;
}
