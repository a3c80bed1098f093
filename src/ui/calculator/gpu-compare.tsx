import { useMemo, useState } from 'react';
import { createColumnHelper, getCoreRowModel, getSortedRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { DataTable } from '../forms/data-table';
import { maxBatch, maxContext, minGpus } from '../../core/solve';
import type { Scenario } from '../../core/types';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes, formatNumber } from '../i18n/format';
import { FitMark } from './fit-mark';
import { fitsOf, onGpu } from './fits';
import { gpuName, resolveAll } from './gpu-list';

interface Row {
  name: string;
  capacity: number;
  fits: boolean;
  headroom: number;
  batch: number | null;
  context: number | null;
  gpus: number | null;
}

/** For each chosen GPU: capacity, fit, headroom, and the core's inverse answers (solve.ts). */
function rowsOf(s: Scenario, specs: string[]): Row[] {
  return fitsOf(s, resolveAll(specs)).map((f) => {
    const sc = onGpu(s, f.spec);
    const cap = f.gpu.capacityBytes;
    const b = maxBatch(sc, cap);
    const c = maxContext(sc, cap);
    const g = minGpus(sc, cap);
    return {
      name: gpuName(f),
      capacity: cap,
      fits: f.fits,
      headroom: f.headroom,
      batch: b.ok ? b.value : null,
      context: c.ok ? c.value : null,
      gpus: g.ok && g.value ? g.value.gpus : null,
    };
  });
}

const col = createColumnHelper<Row>();

/** Sortable comparison of the chosen GPUs (rendered from the deferred scenario). */
export function GpuCompare({ s }: { s: Scenario }) {
  const t = useT();
  const specs = useApp((st) => st.gpus);
  const unit = useApp((st) => st.unit);
  const [sorting, setSorting] = useState<SortingState>([]);
  const data = useMemo(() => rowsOf(s, specs), [s, specs]);
  const n = (v: number | null) => (v === null ? '–' : v === 0 ? t('cmp.none') : formatNumber(v, t.lang, 0));
  const columns = useMemo(
    () => [
      col.accessor('name', { header: () => t('cmp.gpu') }),
      col.accessor('capacity', { header: () => t('cmp.capacity'), cell: (c) => formatBytes(c.getValue(), unit, t.lang), meta: { num: true } }),
      col.accessor('fits', {
        header: () => t('cmp.fits'),
        cell: (c) => <FitMark fits={c.getValue()} />,
      }),
      col.accessor('headroom', { header: () => t('cmp.headroom'), cell: (c) => formatBytes(c.getValue(), unit, t.lang), meta: { num: true } }),
      col.accessor('batch', { header: () => t('cmp.batch'), cell: (c) => n(c.getValue()), meta: { num: true }, sortUndefined: 'last' }),
      col.accessor('context', { header: () => t('cmp.context'), cell: (c) => n(c.getValue()), meta: { num: true } }),
      col.accessor('gpus', { header: () => t('cmp.gpus'), cell: (c) => (c.getValue() === null ? t('cmp.tooMany') : n(c.getValue())), meta: { num: true } }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, unit],
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
    </section>
  );
}
