import { useMemo } from 'react';
import { SCENARIO_FIELDS } from '../../core/scenario/schema';
import type { Scenario } from '../../core/types';
import { selectScenarios, useApp } from '../../state/store';
import { useT } from '../i18n';
import { PanelBoundary as B } from '../shell/panel-boundary';
import { shareLink } from '../shell/url-sync';
import { ScenarioField } from './scenario-field';
import { Headline } from './headline';
import { ModelPicker } from './model-picker';
import { ResultsChart } from './results-chart';
import { useSettled } from './use-settled';
import { Verdict } from './verdict';
import { replayedEstimateOf, useReplayVersion } from './use-replay';

type Prop = Exclude<keyof Scenario, 'arch'>;
const BY_NAME = new Map(SCENARIO_FIELDS.map((f) => [f.name, f]));

/** One control of the widget, by its URL key: the model picker, a select or a number (`gpu`: in the verdict). */
function Control({ name }: { name: string }) {
  const f = BY_NAME.get(name);
  if (!f || f.prop === 'arch') return null;
  const prop: Prop = f.prop;
  switch (f.kind.type) {
    case 'model':
      return <ModelPicker />;
    case 'gpu':
      return null; // the verdict's own GPU select
    case 'enum':
    case 'int':
    case 'float':
    case 'ratios':
      return (
        <div className="panel">
          <ScenarioField prop={prop} />
        </div>
      );
    default:
      return null;
  }
}

/**
 * `?embed=1`: a widget, result first. The verdict, the totals and the chart, then only the inputs
 * the link names in `controls=` (none by default), and a link to the full calculator. The tables,
 * derivations and planning panels stay on the full page, so the frame stays short.
 */
export function EmbedWidget() {
  const t = useT();
  const controls = useApp((s) => s.controls);
  const all = useSettled(selectScenarios);
  // settled: the replays run here, as under the full page's chart, so the widget shows what the full page shows
  useReplayVersion();
  for (const x of all) replayedEstimateOf(x);
  // the link follows the settled scenarios and the language
  const full = useMemo(
    () =>
      shareLink()
        .replace(/([?&])embed=1&?/, '$1')
        .replace(/[?&]$/, ''),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- read through shareLink(), not by name
    [all, t],
  );
  return (
    <div className="embed-widget">
      <B name="verdict">
        <Verdict />
      </B>
      <B name="headline">
        <Headline />
      </B>
      <B name="chart">
        <ResultsChart scenarios={all} />
      </B>
      {controls.length > 0 && (
        <div className="embed-controls" data-testid="embed-controls">
          {controls.map((c) => (
            <B key={c} name={c}>
              <Control name={c} />
            </B>
          ))}
        </div>
      )}
      <p className="small embed-open">
        <a href={full} target="_blank" rel="noopener">
          {t('embed.open')}
        </a>
      </p>
    </div>
  );
}
