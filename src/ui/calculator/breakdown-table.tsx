import { useMemo } from 'react';
import { createColumnHelper, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { DataTable } from '../forms/data-table';
import type { Estimate, Term } from '../../core/types';
import { useApp } from '../../state/store';
import { useT } from '../i18n';
import { formatBytes, formatShare } from '../i18n/format';
import { TERM_COLOR } from './term-colors';

const col = createColumnHelper<Term>();

/** Every term: bytes, share of the device total, and its formula; the term name opens its derivation. */
export function BreakdownTable({ est }: { est: Estimate }) {
  const t = useT();
  const unit = useApp((s) => s.unit);
  const open = useApp((s) => s.openTerm);
  const current = useApp((s) => s.term);
  const columns = useMemo(
    () => [
      col.accessor('id', {
        header: () => t('table.term'),
        cell: (c) => (
          <button type="button" className="linkish" aria-expanded={current === c.getValue()} onClick={() => open(current === c.getValue() ? null : c.getValue())}>
            <span className="swatch" style={{ background: TERM_COLOR[c.getValue()] }} aria-hidden="true" />
            {t(`term.${c.getValue()}`)}
          </button>
        ),
      }),
      col.accessor('level', { header: () => t('table.level'), cell: (c) => t(`level.${c.getValue()}`), meta: { className: 'nowrap' } }),
      col.accessor('bytes', {
        header: () => t('table.bytes'),
        cell: (c) => formatBytes(c.getValue(), unit, t.lang),
        meta: { num: true },
      }),
      col.display({
        id: 'share',
        header: () => t('table.share'),
        cell: (c) => formatShare(est.deviceBytes > 0 ? c.row.original.bytes / est.deviceBytes : 0, t.lang),
        meta: { num: true },
      }),
      // on a phone the formula column is left out (opening a term shows its formula in full)
      col.accessor((r) => r.derivation.formula, { id: 'formula', header: () => t('table.formula'), cell: (c) => <code>{c.getValue()}</code>, meta: { className: 'formula-col' } }),
    ],
    [t, unit, open, current, est.deviceBytes],
  );
  // no pagination: without this, every new estimate resets a page index and renders the table twice
  const table = useReactTable({ data: est.terms, columns, getCoreRowModel: getCoreRowModel(), autoResetPageIndex: false });
  return <DataTable table={table} caption={t('table.caption')} />;
}
