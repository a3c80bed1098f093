import type { FitMark as Mark } from '../../core/deploy/fit-mark';
import { useT } from '../i18n';

type T = ReturnType<typeof useT>;

const ICON: Record<Mark, string> = { fits: '✓', tight: '⚠', no: '✗' };
const WORDS = { fits: 'fit.yes', tight: 'fit.tight', no: 'fit.no' } as const;
const CLASS: Record<Mark, string> = { fits: 'fits', tight: 'tight', no: 'nofit' };

/** "✓ fits" / "⚠ tight" / "✗ does not fit": an icon and words, so colour is never the only cue. */
export function markText(t: T, mark: Mark): string {
  return `${ICON[mark]} ${t(WORDS[mark])}`;
}

/** The mark in words with its icon, coloured by the .fits / .tight / .nofit classes. */
export function FitMark({ mark }: { mark: Mark }) {
  const t = useT();
  return <span className={CLASS[mark]}>{markText(t, mark)}</span>;
}
