/**
 * The lab's own translations (English + 简体中文) and its translator hook. Page-wide language
 * comes from the store; core messages are translated by their stable code, falling back to
 * the English text the core wrote.
 */
import type { Lang } from '../../state/store';
import { formatNumber } from '../i18n/format';
import { makeTranslator, translateCoreWith, type CoreText, type ShowParam, type Translate } from '../i18n/make-translator';
import { humanBytes } from '../../core/units';
import { labEn, type LabKey } from './lab-en';
import { labZh } from './lab-zh';
import { LAB_CORE_ZH } from './lab-core-zh';

export type { LabKey, CoreText };

/** Params of core messages that hold byte counts: shown as "12.00 MiB". */
const BYTE_PARAMS = new Set(['bytes', 'shortBytes', 'allowed', 'unallocated', 'free', 'requested', 'others', 'min', 'max', 'nonReleasable', 'reserved', 'releasable']);

const showBytes: ShowParam = (k, v) => (typeof v === 'number' && BYTE_PARAMS.has(k) ? humanBytes(v) : String(v));

export type LabT = Translate<LabKey> & {
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
  return translateCoreWith(LAB_CORE_ZH, lang, m, showBytes);
}

const lab = makeTranslator(labEn, labZh, ({ lang }): Omit<LabT, keyof Translate<LabKey>> => ({
  core: (m) => translateLabCore(lang, m),
  exact: (b) => `${formatNumber(b, lang, 0)} B`,
  bytes: (b) => humanBytes(b),
  num: (n) => formatNumber(n, lang, 3),
}));

/** A stable lab translator for `lang`. */
export const labTranslator: (lang: Lang) => LabT = lab.translator;

/** The lab translator for the page's current language. */
export const useLabT: () => LabT = lab.useTranslator;
