/**
 * The calculator's error band: "± x % typical (p90 y %, n rows)" for the active scenario's kind,
 * from the published measurements (src/validation/error-band), with a link to the Accuracy view;
 * the kind the rows share is in the tooltip.
 * Default export: the headline loads it lazily, so the fixture rows stay out of the main bundle.
 */
import type { MouseEvent } from 'react';
import type { Scenario } from '../../core/types';
import { useApp } from '../../state/store';
import { formatNumber } from '../i18n/format';
import { expectedErrorBand, kindKeys } from '../../validation/error-band';
import { useAT } from './accuracy-i18n';

export default function ErrorBand({ s }: { s: Scenario }) {
  const t = useAT();
  const setView = useApp((st) => st.setView);
  const band = expectedErrorBand(s);
  const pct = (x: number) => formatNumber(x, t.lang, 1);
  const go = (e: MouseEvent) => {
    e.preventDefault();
    setView('accuracy');
    window.scrollTo(0, 0);
  };
  const text = band ? t('band.line', { median: pct(band.medianPct), p90: pct(band.p90Pct), n: band.n }) : t('band.none');
  const why = band ? t('band.basis', { basis: t.kind(band.basis) }) : t('band.noneWhy', { basis: t.kind(kindKeys(s)[1]) });
  return (
    <p className="small muted" data-testid="error-band" title={why}>
      {text}{' '}
      <a href="?view=accuracy" onClick={go}>{t('band.link')}</a>
    </p>
  );
}
