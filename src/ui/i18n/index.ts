import { en, type MessageKey } from './en';
import { zhTables } from './zh-loader';
import type { Lang } from '../../state/store';
import { makeTranslator, translateCoreWith, type CoreText, type Params, type Translate } from './make-translator';

/** Translate a message from the core (Message / FieldError): by its code, else its English text. */
export function translateCore(lang: Lang, m: CoreText): string {
  return translateCoreWith(lang === 'zh' ? (zhTables()?.CORE_ZH ?? {}) : {}, lang, m);
}

export type T = Translate<MessageKey> & { core: (m: CoreText) => string };

const page = makeTranslator(
  en,
  () => zhTables()?.zh ?? null,
  (t): Pick<T, 'core'> => ({ core: (m) => translateCore(t.lang, m) }),
);

/** A stable translator for the language. */
export const translator: (lang: Lang) => T = page.translator;

/** The translator for the page's current language. */
export const useT: () => T = page.useTranslator;

/** Translate a page string. */
export function translate(lang: Lang, key: MessageKey, params?: Params): string {
  return translator(lang)(key, params);
}
