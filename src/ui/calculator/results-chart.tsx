import { useMemo } from 'react';
import type { Scenario } from '../../core/types';
import { barsOf } from '../charts/chart-data';
import { TermChart } from '../charts/term-chart';
import { useChartKit } from '../charts/use-chart-kit';
import { columnLabel } from './scenario-columns';
import { shownEstimateOf, useReplayVersion } from './use-replay';

/** The stacked term chart for every scenario column, with a capacity line per chosen GPU. */
export function ResultsChart({ scenarios }: { scenarios: Scenario[] }) {
  const { t, unit, unitBytes, lines, termName, format } = useChartKit();
  // the estimates the headline shows (replayed once ready): bars and verdict against the same lines
  const replays = useReplayVersion();
  const { rows, terms } = useMemo(() => {
    const cols = scenarios.map((s, i) => {
      const r = shownEstimateOf(s);
      return { label: columnLabel(i), est: r.ok ? r.value : null };
    });
    return barsOf(cols, unitBytes);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- replays: shownEstimateOf reads the replay cache it counts
  }, [scenarios, unitBytes, replays]);
  return (
    <section className="panel" aria-labelledby="chart-h">
      <h2 id="chart-h">{t('chart.title')}</h2>
      <TermChart rows={rows} terms={terms} lines={lines} unit={unit} title={t('chart.title')} termName={termName} format={format} />
    </section>
  );
}
