import { memo, Suspense } from 'react';
import type { Scenario } from '../../core/types';
import { selectActive, selectScenarios, useApp } from '../../state/store';
import { lazyRetry } from '../shell/lazy-retry';
import { PanelBoundary as B } from '../shell/panel-boundary';
import { EmbedWidget } from './embed-widget';
import { GpuPicker } from './gpu-picker';
import { Headline } from './headline';
import { ModelPicker } from './model-picker';
import { ResultsChart } from './results-chart';
import { ScenarioColumns } from './scenario-columns';
import { ScenarioForm } from './scenario-form';
import { replayedEstimateOf, useReplayVersion } from './use-replay';
import { useSettled } from './use-settled';
import { Verdict } from './verdict';

// the panels under the term chart (and the tables' @tanstack/table-core) are fetched as soon as
// this module runs, in parallel with the first render, but outside the JS that must arrive before
// the page can paint; a failed download retries on "Try again"
let early: ReturnType<typeof load> | null = load();
function load() {
  return import('./below-fold');
}
const BelowFold = lazyRetry(() => {
  const p = early ?? load();
  early = null;
  return p;
});

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
  const s = useSettled(selectActive);
  const all = useSettled(selectScenarios);
  return <Details s={s} all={all} />;
}

const Details = memo(function Details({ s, all }: { s: Scenario; all: Scenario[] }) {
  // settled: the replays run here, after the slider has paused (and once their code is in), for
  // every column, so the chart's bars and the tabs show what the headline shows
  useReplayVersion();
  for (const x of all) replayedEstimateOf(x);
  const r = replayedEstimateOf(s);
  return (
    <>
      <B name="chart">
        <ResultsChart scenarios={all} />
      </B>
      <B name="details">
        <Suspense fallback={null}>
          <BelowFold s={s} r={r} />
        </Suspense>
      </B>
    </>
  );
});
