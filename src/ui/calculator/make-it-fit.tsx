import { useMemo } from 'react';
import type { Estimate, Scenario } from '../../core/types';
import { replayDecidesReserved } from '../../core/timeline/applies';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes } from '../i18n/format';
import { FitMark } from './fit-mark';
import { fitsOf } from './fits';
import { rankFixes } from './fixes';
import { changeAsNewEntry } from '../shell/url-sync';
import { gpuName, resolveAll } from './gpu-list';

/**
 * Ranked changes that lower memory, each with its new total and whether it then fits the first GPU.
 * Whether it fits now is the verdict's (judged from `est`, the shown estimate); the changes are
 * estimated with the fast closed form, which the panel says where the verdict replays the allocator.
 */
export function MakeItFit({ s, est }: { s: Scenario; est: Estimate }) {
  const t = useT();
  const unit = useApp((st) => st.unit);
  const specs = useApp((st) => st.gpus);
  const patch = useApp((st) => st.patch);
  const target = fitsOf(s, resolveAll(specs).slice(0, 1), est)[0];
  const capacity = target ? target.gpu.capacityBytes : null;
  // each candidate is a new scenario object (a fresh estimate): rank once per scenario and capacity, not on every unit or language switch
  const fixes = useMemo(() => rankFixes(s, capacity), [s, capacity]);
  // a new history entry (Back undoes it), then the verdict brought into view with its new answer
  const apply = (x: Scenario) => {
    changeAsNewEntry(() => patch(x));
    document.querySelector('[data-testid="verdict"]')?.scrollIntoView?.({ block: 'nearest' });
  };
  if (fixes.length === 0) return null;
  const list = (
    <ol className="fixes">
      {fixes.map((f, i) => (
        <li key={i}>
          {t(f.key, f.params)}{' '}
          <span className="fix-result">
            → <strong>{formatBytes(f.deviceBytes, unit, t.lang)}</strong>
            {target && (
              <>
                {' '}
                <FitMark mark={f.fits ? 'fits' : 'no'} />
              </>
            )}
          </span>{' '}
          <button type="button" onClick={() => apply(f.scenario)} aria-label={t('fix.applyLabel', { change: t(f.key, f.params) })}>
            {t('fix.apply')}
          </button>
        </li>
      ))}
    </ol>
  );
  const intro = (
    <>
      <p className="small muted">{target ? t(target.fits ? 'fix.introFits' : 'fix.introShort', { gpu: gpuName(target) }) : t('fix.introNoGpu')}</p>
      {replayDecidesReserved(s) && <p className="small muted">{t('fix.fastNote')}</p>}
    </>
  );
  // already fits: the list is a bonus, folded away
  if (target?.fits)
    return (
      <details className="panel">
        <summary>{t('fix.title')}</summary>
        {intro}
        {list}
      </details>
    );
  return (
    <section className="panel" aria-labelledby="fix-h">
      <h2 id="fix-h">{t('fix.title')}</h2>
      {intro}
      {list}
    </section>
  );
}
