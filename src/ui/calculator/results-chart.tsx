import { lazy, memo, Suspense, useCallback, useMemo } from 'react';
import type { Scenario, TermId } from '../../core/types';
import { useApp } from '../../state/store';
import { barsOf, type CapacityLine } from '../charts/chart-data';
import { useT } from '../i18n';
import { formatNumber, UNIT_BYTES } from '../i18n/format';
import { gpuName, resolveAll } from './gpu-list';
import { columnLabel } from './scenario-columns';
import { estimateOf } from './use-estimate';

const TermChart = memo(lazy(() => import('../charts/term-chart')));

/** The stacked term chart for every scenario column, with a capacity line per chosen GPU. */
export function ResultsChart({ scenarios }: { scenarios: Scenario[] }) {
  const t = useT();
  const unit = useApp((s) => s.unit);
  const specs = useApp((s) => s.gpus);
  const { rows, terms } = useMemo(() => {
    const cols = scenarios.map((s, i) => {
      const r = estimateOf(s);
      return { label: columnLabel(i), est: r.ok ? r.value : null };
    });
    return barsOf(cols, UNIT_BYTES[unit]);
  }, [scenarios, unit]);
  const lines: CapacityLine[] = useMemo(
    () => resolveAll(specs).map((c) => ({ label: gpuName(c), value: c.gpu.capacityBytes / UNIT_BYTES[unit] })),
    [specs, unit],
  );
  const termName = useCallback((id: TermId) => t(`term.${id}`), [t]);
  const format = useCallback((v: number) => formatNumber(v, t.lang, v < 10 ? 2 : v < 100 ? 1 : 0), [t]);
  return (
    <section className="panel" aria-labelledby="chart-h">
      <h2 id="chart-h">{t('chart.title')}</h2>
      <Suspense fallback={<div className="chart-fallback">{t('chart.loading')}</div>}>
        <TermChart
          rows={rows}
          terms={terms}
          lines={lines}
          unit={unit}
          title={t('chart.title')}
          termName={termName}
          format={format}
        />
      </Suspense>
    </section>
  );
}
