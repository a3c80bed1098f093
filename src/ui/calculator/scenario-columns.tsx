import { useMemo } from 'react';
import { MAX_SCENARIOS, selectScenarios, useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes } from '../i18n/format';
import { optionLabel } from '../i18n/scenario-labels';
import { markText } from './fit-mark';
import { fitsOf } from './fits';
import { resolveAll } from './gpu-list';
import { differingFields, MAX_SHOWN_DIFFERENCES, valueWords } from './scenario-diff';
import { shownEstimateOf, useReplayVersion } from './use-replay';

/** Column letters A–D. */
export function columnLabel(i: number): string {
  return String.fromCharCode(65 + i);
}

/**
 * Up to four scenarios side by side: pick the one to edit, add a copy, remove one. With two or more,
 * each chip names what sets its scenario apart ("bf16" / "AWQ int4") and shows its total and its
 * verdict on the first chosen GPU, so every scenario's answer is in view at once.
 */
export function ScenarioColumns() {
  const t = useT();
  const scenarios = useApp(selectScenarios);
  const active = useApp((s) => s.active);
  const unit = useApp((s) => s.unit);
  const specs = useApp((s) => s.gpus);
  const { setActive, addScenario, removeScenario } = useApp.getState();
  // each tab's total is the headline's (replayed once ready)
  useReplayVersion();
  const diffs = useMemo(() => differingFields(scenarios), [scenarios]);
  const several = scenarios.length > 1;
  const main = several ? resolveAll(specs)[0] : undefined;
  return (
    <div className="columns" role="group" aria-label={t('cols.label')}>
      {scenarios.map((s, i) => {
        const r = shownEstimateOf(s);
        const words = diffs.slice(0, MAX_SHOWN_DIFFERENCES).map((f) => valueWords(t.lang, s, f));
        if (diffs.length > MAX_SHOWN_DIFFERENCES) words.push('…');
        const name = [`${columnLabel(i)}: ${s.model || t('model.bare')}`, optionLabel(t.lang, 'mode', s.mode), ...words].join(' · ');
        const fit = r.ok && main ? fitsOf(s, [main], r.value)[0] : undefined;
        return (
          <div className="col" key={i}>
            <button type="button" aria-pressed={i === active} onClick={() => setActive(i)} title={t('cols.edit', { name })}>
              {name} · {r.ok ? formatBytes(r.value.deviceBytes, unit, t.lang) : '–'}
              {fit && (
                <>
                  {' · '}
                  <span className={fit.fits ? 'fits' : 'nofit'}>{markText(t, fit.fits ? 'fits' : 'no')}</span>
                </>
              )}
            </button>
            {scenarios.length > 1 && (
              <button type="button" aria-label={t('cols.remove', { name: columnLabel(i) })} onClick={() => removeScenario(i)}>
                ×
              </button>
            )}
          </div>
        );
      })}
      <button type="button" onClick={addScenario} disabled={scenarios.length >= MAX_SCENARIOS}>
        {t('cols.add')}
      </button>
    </div>
  );
}
