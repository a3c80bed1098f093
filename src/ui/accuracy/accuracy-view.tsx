/**
 * Accuracy (issue 6, "Accuracy in the open"): the development set — every published measurement
 * kept in the repository, our estimate and the signed error (over / under), with filters, a
 * predicted-vs-measured chart, error by kind of scenario, the rows we cannot score with their
 * reasons — then the independent check's latest figures, how often the 80 % bands hold, and
 * our own Trainer runs on a GPU and the llama.cpp / vLLM start-up log checks. The numbers come
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
import { GpuRunTable } from './gpu-run-table';
import { BandCoverage, IndependentCheck } from './independent-check-table';
import './accuracy.css';

const AccuracyChart = lazy(() => import('./accuracy-chart'));

export default function AccuracyView() {
  const t = useAT();
  const report = validationReport();
  const data = useMemo(() => accuracyData(report), [report]);
  const [filters, setFilters] = useState<Filters>({ source: ALL, mode: ALL, model: ALL });
  const rows = useMemo(() => filterRows(data.rows, filters), [data, filters]);
  return (
    <div className="acc-view">
      <h2 className="visually-hidden">{t('title')}</h2>
      <p className="muted acc-intro">{t('intro')}</p>
      <SummaryTables data={data} />
      <IndependentCheck />
      <BandCoverage scored={report.scored} />
      <section className="panel" aria-labelledby="acc-rows-h">
        <h2 id="acc-rows-h">{t('table.title')}</h2>
        <FilterBar data={data} filters={filters} onChange={setFilters} shown={rows} />
        <Suspense fallback={<p className="chart-fallback">{t('chart.loading')}</p>}>
          <AccuracyChart rows={rows} sources={data.sources} />
        </Suspense>
        <p className="field-help">{t('table.sign')}</p>
        <AccuracyTable rows={rows} />
      </section>
      <SkippedRows data={data} />
      <GpuRunTable />
      <RuntimeLogTable />
      <SourceList citations={data.citations} />
    </div>
  );
}
