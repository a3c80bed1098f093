import { memo } from 'react';
import type { Scenario } from '../../core/types';
import { selectActive, useApp } from '../../state/store';
import { useT } from '../i18n';
import { BreakdownTable } from './breakdown-table';
import { CheckOnGpu } from './check-on-gpu';
import { DerivationPanel } from './derivation-panel';
import { GpuCompare } from './gpu-compare';
import { GpuPicker } from './gpu-picker';
import { Headline } from './headline';
import { MakeItFit } from './make-it-fit';
import { ModelPicker } from './model-picker';
import { Primer } from './primer';
import { ResultsChart } from './results-chart';
import { ScenarioColumns } from './scenario-columns';
import { ScenarioForm } from './scenario-form';
import { SharePanel } from './share-panel';
import { SweepPanel } from './sweep-panel';
import { estimateOf } from './use-estimate';
import { useSettled } from './use-settled';

/** The calculator view: inputs on the left, results on the right (stacked when narrow). */
export function Calculator() {
  const embed = useApp((s) => s.embed);
  return (
    <div className="calc">
      <div className="inputs">
        <ModelPicker />
        <ScenarioForm />
        <GpuPicker />
      </div>
      <div className="results">
        {!embed && <ScenarioColumns />}
        <Headline />
        <Deferred embed={embed} />
      </div>
    </div>
  );
}

/**
 * Everything below the headline renders from a settled copy of the scenarios: while a slider
 * moves, the field and the totals repaint at once; charts and tables catch up when it pauses.
 */
function Deferred({ embed }: { embed: boolean }) {
  const s = useSettled(useApp(selectActive));
  const all = useSettled(useApp((st) => st.scenarios));
  return <Details s={s} all={all} embed={embed} />;
}

const Details = memo(function Details({ s, all, embed }: { s: Scenario; all: Scenario[]; embed: boolean }) {
  const t = useT();
  const r = estimateOf(s);
  return (
    <>
      <ResultsChart scenarios={all} />
      {r.ok && (
        <section className="panel" aria-labelledby="breakdown-h">
          <h2 id="breakdown-h">{t('table.title')}</h2>
          <BreakdownTable est={r.value} />
        </section>
      )}
      {r.ok && <DerivationPanel est={r.value} />}
      <MakeItFit s={s} />
      {!embed && <GpuCompare s={s} />}
      {!embed && <SweepPanel s={s} />}
      {!embed && <SharePanel />}
      {!embed && r.ok && <CheckOnGpu s={s} est={r.value} />}
      {!embed && <Primer />}
    </>
  );
});
