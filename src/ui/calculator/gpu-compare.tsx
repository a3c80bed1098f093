import { useMemo, useState } from 'react';
import { createColumnHelper, getCoreRowModel, getSortedRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { DataTable } from '../forms/data-table';
import { fitMark, type FitMark as Mark } from '../../core/deploy/fit-mark';
import { rooflineSpeed, type Speed } from '../../core/deploy/speed';
import { resolveModel } from '../../core/estimate';
import { maxBatch, maxContext, minGpus } from '../../core/solve';
import type { Estimate, Scenario } from '../../core/types';
import { replayDecidesReserved } from '../../core/timeline/applies';
import { bandHigh } from '../../validation/bands';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBound, formatBytes, formatNumber } from '../i18n/format';
import { FitMark } from './fit-mark';
import { fitsOf, onGpu } from './fits';
import { gpuName, resolveAll } from './gpu-list';

interface Row {
  name: string;
  capacity: number;
  mark: Mark;
  headroom: number;
  batch: number | null;
  context: number | null;
  gpus: number | null;
  /** roofline bound (core/deploy/speed.ts): decode tokens/s at most, or training step seconds at least */
  speed: number | null;
}

/** The bound the table shows: decode tokens/s for inference, seconds per optimizer step for training. */
const boundOf = (sp: Speed) => (sp.stepSeconds ?? sp.decodeTokensPerSecond)?.value ?? null;

/**
 * For each chosen GPU: capacity, fit mark (tight at the upper end of the 80 % band), headroom, the
 * core's inverse answers (solve.ts) and the speed bound (catalogue cards only: a typed capacity has
 * no bandwidth or peak), all judged from `shown`, the estimate the headline shows.
 */
function rowsOf(s: Scenario, specs: string[], shown: Estimate): Row[] {
  const high = bandHigh(s);
  const model = resolveModel(s);
  return fitsOf(s, resolveAll(specs), shown).map((f) => {
    const sc = onGpu(s, f.spec);
    const cap = f.gpu.capacityBytes;
    // the fast estimate's search, held to this row's verdict at the scenario's own batch and context
    const given = f.est ?? undefined;
    const b = maxBatch(sc, cap, given);
    const c = maxContext(sc, cap, given);
    const g = minGpus(sc, cap, given);
    return {
      name: gpuName(f),
      capacity: cap,
      mark: f.est ? fitMark(sc, f.est, cap, high) : 'no',
      headroom: f.headroom,
      batch: b.ok ? b.value : null,
      context: c.ok ? c.value : null,
      gpus: g.ok && g.value ? g.value.gpus : null,
      speed: f.est && model.ok && f.gpu.category !== 'custom' ? boundOf(rooflineSpeed(sc, f.est, model.value.arch, f.gpu, s.mfu)) : null,
    };
  });
}

const col = createColumnHelper<Row>();
const RANK: Record<Mark, number> = { fits: 0, tight: 1, no: 2 };

/** Sortable comparison of the chosen GPUs (rendered from the settled scenario and its shown estimate). */
export function GpuCompare({ s, est }: { s: Scenario; est: Estimate }) {
  const t = useT();
  const specs = useApp((st) => st.gpus);
  const unit = useApp((st) => st.unit);
  const [sorting, setSorting] = useState<SortingState>([]);
  const data = useMemo(() => rowsOf(s, specs, est), [s, specs, est]);
  const training = s.mode === 'training';
  const n = (v: number | null) => (v === null ? '–' : v === 0 ? t('cmp.none') : formatNumber(v, t.lang, 0));
  const columns = useMemo(
    () => [
      col.accessor('name', { header: () => t('cmp.gpu') }),
      col.accessor('capacity', { header: () => t('cmp.capacity'), cell: (c) => formatBytes(c.getValue(), unit, t.lang), meta: { num: true } }),
      col.accessor('mark', { header: () => t('cmp.fits'), cell: (c) => <FitMark mark={c.getValue()} />, sortingFn: (a, b) => RANK[a.original.mark] - RANK[b.original.mark] }),
      col.accessor('headroom', { header: () => t('cmp.headroom'), cell: (c) => formatBytes(c.getValue(), unit, t.lang), meta: { num: true } }),
      col.accessor('batch', { header: () => t('cmp.batch'), cell: (c) => n(c.getValue()), meta: { num: true }, sortUndefined: 'last' }),
      col.accessor('context', { header: () => t('cmp.context'), cell: (c) => n(c.getValue()), meta: { num: true } }),
      col.accessor('gpus', { header: () => t('cmp.gpus'), cell: (c) => (c.getValue() === null ? t('cmp.tooMany') : n(c.getValue())), meta: { num: true } }),
      col.accessor('speed', {
        header: () => t(training ? 'cmp.step' : 'cmp.decode'),
        cell: (c) => {
          const v = c.getValue();
          return v === null ? '–' : formatBound(v, t.lang);
        },
        meta: { num: true },
        sortUndefined: 'last',
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the cell formatters are rebuilt each render from t (and unit): those are the inputs
    [t, unit, training],
  );
  // no pagination: without autoResetPageIndex off, every new scenario resets a page index and renders the table twice
  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    autoResetPageIndex: false,
  });
  if (data.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="cmp-h">
      <h2 id="cmp-h">{t('cmp.title')}</h2>
      <DataTable table={table} caption={t('cmp.caption')} sortable />
      <p className="field-help">{t('cmp.help')}</p>
      {replayDecidesReserved(s) && (
        <p className="field-help" data-testid="cmp-fast">
          {t('solve.fast')}
        </p>
      )}
    </section>
  );
}
