import { useMemo, useState } from 'react';
import { createColumnHelper, flexRender, getCoreRowModel, getSortedRowModel, useReactTable, type SortingState } from '@tanstack/react-table';
import { useApp } from '../../state/store';
import { formatBytes, formatNumber, signedPct } from '../i18n/format';
import type { AccuracyRow } from './accuracy-data';
import { useAT } from './accuracy-i18n';

const col = createColumnHelper<AccuracyRow>();

/** Every measured row with its setting, the measurement, our estimate and the error; sortable. */
export function AccuracyTable({ rows }: { rows: AccuracyRow[] }) {
  const t = useAT();
  const unit = useApp((s) => s.unit);
  const [sorting, setSorting] = useState<SortingState>([]);
  const columns = useMemo(() => {
    const b = (n: number) => formatBytes(n, unit, t.lang);
    const n = (x: number | null) => (x === null ? '–' : formatNumber(x, t.lang, 0));
    return [
      col.accessor('id', { header: () => t('col.id'), cell: (c) => <span title={c.row.original.note}>{c.getValue()}</span> }),
      col.accessor('model', { header: () => t('col.model'), meta: { wrap: true } }),
      col.accessor('measured', { header: () => t('col.measured'), cell: (c) => b(c.getValue()), meta: { num: true } }),
      col.accessor('predicted', { header: () => t('col.estimate'), cell: (c) => b(c.getValue()), meta: { num: true } }),
      col.accessor('errPct', {
        header: () => t('col.error'),
        meta: { num: true },
        cell: (c) => (
          <span className={Math.abs(c.getValue()) > 15 ? 'acc-bad' : undefined} title={t(c.getValue() < 0 ? 'sign.under' : 'sign.over')}>
            {signedPct(c.getValue(), t.lang)}
          </span>
        ),
      }),
      col.accessor('mode', { header: () => t('col.mode'), cell: (c) => t(`mode.${c.getValue()}`) }),
      col.accessor('precision', { header: () => t('col.precision'), meta: { wrap: true } }),
      col.accessor('batch', { header: () => t('col.batch'), cell: (c) => n(c.getValue()), meta: { num: true }, sortUndefined: 'last' }),
      col.accessor((r) => (r.seqIn ?? 0) + (r.seqOut ?? 0), {
        id: 'seq',
        header: () => t('col.seq'),
        meta: { num: true },
        cell: (c) => (c.row.original.seqOut === null ? n(c.row.original.seqIn) : `${n(c.row.original.seqIn)} → ${n(c.row.original.seqOut)}`),
      }),
      col.accessor('gpus', { header: () => t('col.gpus'), meta: { num: true } }),
      col.accessor('what', { header: () => t('col.what'), cell: (c) => t(`what.${c.getValue()}`) }),
      col.accessor('source', { header: () => t('col.source'), cell: (c) => <span title={c.row.original.citation}>{c.getValue()}</span> }),
    ];
  }, [t, unit]);
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getRowId: (r) => r.id,
  });
  const num = (meta: unknown) => {
    const m = meta as { num?: boolean; wrap?: boolean } | undefined;
    return m?.num ? 'num' : m?.wrap ? 'acc-wrap' : undefined;
  };
  return (
    <div className="table-wrap acc-table">
      <table data-testid="acc-rows">
        <caption className="visually-hidden">{t('table.caption')}</caption>
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => {
                const dir = h.column.getIsSorted();
                return (
                  <th key={h.id} scope="col" className={num(h.column.columnDef.meta)} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
                    <button type="button" className="acc-sort" onClick={h.column.getToggleSortingHandler()}>
                      {flexRender(h.column.columnDef.header, h.getContext())} {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : ''}
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => (
            <tr key={r.id} data-row={r.id}>
              {r.getVisibleCells().map((c) => (
                <td key={c.id} className={num(c.column.columnDef.meta)}>
                  {flexRender(c.column.columnDef.cell, c.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
