/**
 * The calculator's 80 % error bands (src/validation/bands): "(80 %: lo–hi)" under each total, and
 * one line saying what the bands rest on — development rows of the scenario's kind, or "not
 * validated" with the independent check's wider spread, or a guessed shape — with the details
 * in its tooltip and a link to the Accuracy view.
 * The headline loads this module lazily, so the fixture rows stay out of the main bundle.
 */
import type { MouseEvent } from 'react';
import type { Scenario } from '../../core/types';
import { useApp } from '../../state/store';
import { formatBytes, formatNumber, signedPct } from '../i18n/format';
import { applyBand, bandBasis, variedBasis, type BandBasis } from '../../validation/bands';
import { expectedErrorBand, kindKeys } from '../../validation/error-band';
import { type AT, useAT } from './accuracy-i18n';

/** "(80 %: 16.9–19.8)" for one total, in the page's unit. */
export function BandRange({ s, bytes, testId }: { s: Scenario; bytes: number; testId?: string }) {
  const t = useAT();
  const unit = useApp((st) => st.unit);
  const [lo, hi] = applyBand(bytes, bandBasis(s).signedPct);
  const n = (b: number) => formatBytes(b, unit, t.lang).replace(` ${unit}`, '');
  return (
    <div className="v-band small muted" data-testid={testId}>
      {t('band.range', { lo: n(lo), hi: n(hi) })}
    </div>
  );
}

/** The tooltip: how the band was built, sentence by sentence. */
function why(t: AT, s: Scenario, b: BandBasis): string {
  const pct = (x: number) => formatNumber(x, t.lang, 1);
  const sp = (x: number) => signedPct(x, t.lang).replace(' %', '');
  const parts: string[] = [];
  const dev = b.development;
  const stats = expectedErrorBand(s);
  if (b.kind === 'validated' && dev && stats) {
    parts.push(
      t('band.devWhy', {
        basis: t.kind(dev.key),
        n: dev.rows,
        median: pct(stats.medianPct),
        p90: pct(stats.p90Pct),
        p10: sp(dev.p10!),
        p90s: sp(dev.p90!),
        k: formatNumber(dev.widen!, t.lang, 2),
        devLo: sp(dev.signedPct[0]),
        devHi: sp(dev.signedPct[1]),
      }),
    );
  } else if (dev) {
    parts.push(t('band.fewWhy', { n: dev.rows, lo: sp(dev.signedPct[0]), hi: sp(dev.signedPct[1]) }));
  } else {
    parts.push(t('band.noneWhy', { basis: t.kind(kindKeys(s)[1]) }));
  }
  const ind = b.independent;
  parts.push(ind.signedPct ? t('band.indWhy', { date: ind.date, commit: ind.commit, lo: sp(ind.signedPct[0]), hi: sp(ind.signedPct[1]) }) : t('band.indNone', { date: ind.date }));
  // the band of a varied-length estimate also spans the orders of its lengths (bands.ts bandsFor)
  const v = variedBasis(s);
  if (v) parts.push(t('band.variedWhy', { orders: v.orders, within: v.ordersWithin, n: v.rows, rowsWithin: v.within, above: v.above, below: v.rows - v.within - v.above }));
  parts.push(t('band.sign'));
  return parts.join(' ');
}

const LINE = { validated: 'band.validated', 'not-validated': 'band.notValidated', 'guessed-shape': 'band.guessed' } as const;

/** What the bands rest on, with the details in the tooltip and a link to the Accuracy view. */
export default function ErrorBand({ s }: { s: Scenario }) {
  const t = useAT();
  const setView = useApp((st) => st.setView);
  const b = bandBasis(s);
  const sp = (x: number) => signedPct(x, t.lang).replace(' %', '');
  const go = (e: MouseEvent) => {
    e.preventDefault();
    setView('accuracy');
    window.scrollTo(0, 0);
  };
  const key = b.reason === 'multi-gpu' ? 'band.multiGpu' : LINE[b.kind];
  return (
    <p className="small muted" data-testid="error-band" data-basis={b.kind} title={why(t, s, b)}>
      {t(key, { lo: sp(b.signedPct[0]), hi: sp(b.signedPct[1]) })}{' '}
      <a href="?view=accuracy" onClick={go}>
        {t('band.link')}
      </a>
    </p>
  );
}
