/**
 * Accuracy (issue 6, "Accuracy in the open"): every published measurement the estimator is
 * checked against, our estimate and the error, with filters, a predicted-vs-measured chart,
 * error by kind of scenario, the rows we cannot score with their reasons, and the llama.cpp /
 * vLLM start-up log checks. The numbers come
 * from src/validation, the code the test suite runs. Default export: loaded lazily
 * (?view=accuracy); recharts loads in a further chunk when the chart renders.
 */
import { lazy, Suspense, useMemo, useState } from 'react';
import { validationReport } from '../../validation/report';
import { accuracyData, ALL, filterRows, type Filters } from './accuracy-data';
import { useAT } from './accuracy-i18n';
import { FilterBar } from './filter-bar';
import { SummaryTables } from './summary-tables';
import { AccuracyTable } from './accuracy-table';
import { SkippedRows, SourceList } from './skipped-rows';
import { RuntimeLogTable } from './runtime-log-table';
import './accuracy.css';

const AccuracyChart = lazy(() => import('./accuracy-chart'));

export default function AccuracyView() {
  const t = useAT();
  const data = useMemo(() => accuracyData(validationReport()), []);
  const [filters, setFilters] = useState<Filters>({ source: ALL, mode: ALL, model: ALL });
  const rows = useMemo(() => filterRows(data.rows, filters), [data, filters]);
  return (
    <div className="acc-view">
      <h2 className="visually-hidden">{t('title')}</h2>
      <p className="muted acc-intro">{t('intro')}</p>
      <SummaryTables data={data} />
      <section className="panel" aria-labelledby="acc-rows-h">
        <h2 id="acc-rows-h">{t('table.title')}</h2>
        <FilterBar data={data} filters={filters} onChange={setFilters} shown={rows} />
        <Suspense fallback={<p className="chart-fallback">{t('chart.loading')}</p>}>
          <AccuracyChart rows={rows} sources={data.sources} />
        </Suspense>
        <AccuracyTable rows={rows} />
      </section>
      <SkippedRows data={data} />
      <RuntimeLogTable />
      <SourceList citations={data.citations} />
    </div>
  );
}
