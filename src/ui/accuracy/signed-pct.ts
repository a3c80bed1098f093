import type { Lang } from '../../state/store';
import { formatNumber } from '../i18n/format';

/** Signed % to one decimal: "+1.2 %", "-3 %"; anything that rounds to zero reads "0 %". */
export function signedPct(x: number, lang: Lang): string {
  const r = Math.round(x * 10) / 10;
  return r === 0 ? `${formatNumber(0, lang, 1)} %` : `${r > 0 ? '+' : ''}${formatNumber(r, lang, 1)} %`;
}
