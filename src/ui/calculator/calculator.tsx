import { lazy, memo, Suspense } from 'react';
import type { Scenario } from '../../core/types';
import { selectActive, useApp } from '../../state/store';
import { useT } from '../i18n';
import { CheckOnGpu } from './check-on-gpu';
import { DerivationPanel } from './derivation-panel';
import { EmbedWidget } from './embed-widget';
import { GpuPicker } from './gpu-picker';
import { Headline } from './headline';
import { MakeItFit } from './make-it-fit';
import { ModelPicker } from './model-picker';
import { Primer } from './primer';
import { ResultsChart } from './results-chart';
import { RuleOfThumbPanel } from './rule-of-thumb-panel';
import { ScenarioColumns } from './scenario-columns';
import { ScenarioForm } from './scenario-form';
import { SharePanel } from './share-panel';
import { SweepPanel } from './sweep-panel';
import { TimelinePanel } from './timeline-panel';
import { replayedEstimateOf } from './use-replay';
import { useSettled } from './use-settled';
import { Verdict } from './verdict';
import { PanelBoundary as B } from '../shell/panel-boundary';

// the two tables (with @tanstack/table-core) are fetched as soon as this module runs, in parallel
// with the first render, but outside the JS that must arrive before the page can paint
const breakdownModule = import('./breakdown-table');
const compareModule = import('./gpu-compare');
const BreakdownTable = lazy(() => breakdownModule.then((m) => ({ default: m.BreakdownTable })));
const GpuCompare = lazy(() => compareModule.then((m) => ({ default: m.GpuCompare })));

/**
 * The calculator view: the verdict on top of the results on the right, inputs on the left. On a
 * phone the verdict comes first (and stays in view), then the inputs, then the results. Embedded
 * (`?embed=1`), the widget instead.
 */
export function Calculator() {
  const embed = useApp((s) => s.embed);
  if (embed) return <EmbedWidget />;
  return (
    <div className="calc">
      <div className="verdict-slot">
        <B name="verdict">
          <Verdict />
        </B>
      </div>
      <div className="inputs">
        <B name="model">
          <ModelPicker />
        </B>
        <B name="scenario">
          <ScenarioForm />
        </B>
        <B name="gpus">
          <GpuPicker />
        </B>
      </div>
      <div className="results">
        <B name="columns">
          <ScenarioColumns />
        </B>
        <B name="headline">
          <Headline />
        </B>
        <Deferred />
      </div>
    </div>
  );
}

/**
 * Everything below the headline renders from a settled copy of the scenarios: while a slider
 * moves, the field and the totals repaint at once; charts and tables catch up when it pauses.
 */
function Deferred() {
  const s = useSettled(useApp(selectActive));
  const all = useSettled(useApp((st) => st.scenarios));
  return <Details s={s} all={all} />;
}

const Details = memo(function Details({ s, all }: { s: Scenario; all: Scenario[] }) {
  const t = useT();
  // settled: a varied-length replay runs here, after the slider has paused
  const r = replayedEstimateOf(s);
  return (
    <>
      <B name="chart">
        <ResultsChart scenarios={all} />
      </B>
      {r.ok && (
        <B name="breakdown">
          <section className="panel" aria-labelledby="breakdown-h">
            <h2 id="breakdown-h">{t('table.title')}</h2>
            <Suspense fallback={null}>
              <BreakdownTable est={r.value} />
            </Suspense>
          </section>
        </B>
      )}
      {r.ok && (
        <B name="rule-of-thumb">
          <RuleOfThumbPanel s={s} est={r.value} />
        </B>
      )}
      {r.ok && (
        <B name="derivation">
          <DerivationPanel est={r.value} />
        </B>
      )}
      {r.ok && (
        <B name="timeline">
          <TimelinePanel s={s} />
        </B>
      )}
      {/* a scenario that cannot be estimated has no fit to improve, compare or sweep: the verdict says why */}
      {r.ok && (
        <B name="make-it-fit">
          <MakeItFit s={s} />
        </B>
      )}
      {r.ok && (
        <B name="gpu-compare">
          <Suspense fallback={null}>
            <GpuCompare s={s} />
          </Suspense>
        </B>
      )}
      {r.ok && (
        <B name="sweep">
          <SweepPanel s={s} />
        </B>
      )}
      <B name="share">
        <SharePanel s={s} />
      </B>
      {r.ok && (
        <B name="check-on-gpu">
          <CheckOnGpu s={s} est={r.value} />
        </B>
      )}
      <B name="primer">
        <Primer />
      </B>
    </>
  );
});
