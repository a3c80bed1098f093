import { useT } from '../i18n';

/** "✓ Fits" / "✗ Does not fit", coloured by the .fits / .nofit classes. */
export function FitMark({ fits }: { fits: boolean }) {
  const t = useT();
  return <span className={fits ? 'fits' : 'nofit'}>{fits ? `✓ ${t('fit.yes')}` : `✗ ${t('fit.no')}`}</span>;
}
