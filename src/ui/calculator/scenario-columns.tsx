import { MAX_SCENARIOS, selectScenarios, useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes } from '../i18n/format';
import { optionLabel } from '../i18n/scenario-labels';
import { shownEstimateOf, useReplayVersion } from './use-replay';

/** Column letters A–D. */
export function columnLabel(i: number): string {
  return String.fromCharCode(65 + i);
}

/** Up to four scenarios side by side: pick the one to edit, add a copy, remove one. */
export function ScenarioColumns() {
  const t = useT();
  const scenarios = useApp(selectScenarios);
  const active = useApp((s) => s.active);
  const unit = useApp((s) => s.unit);
  const { setActive, addScenario, removeScenario } = useApp.getState();
  // each tab's total is the headline's (replayed once ready)
  useReplayVersion();
  return (
    <div className="columns" role="group" aria-label={t('cols.label')}>
      {scenarios.map((s, i) => {
        const r = shownEstimateOf(s);
        const name = `${columnLabel(i)}: ${s.model || t('model.bare')} · ${optionLabel(t.lang, 'mode', s.mode)}`;
        return (
          <div className="col" key={i}>
            <button type="button" aria-pressed={i === active} onClick={() => setActive(i)} title={t('cols.edit', { name })}>
              {name} · {r.ok ? formatBytes(r.value.deviceBytes, unit, t.lang) : '–'}
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
