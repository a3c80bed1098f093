import type { ReactNode } from 'react';
import type { Table } from '@tanstack/react-table';

/** Column meta the tables use: right-aligned numbers, and a class of the column's own (e.g. to hide it on phones). */
export interface ColumnMeta {
  num?: boolean;
  className?: string;
}

const numClass = (meta: unknown) => {
  const m = meta as ColumnMeta | undefined;
  return [m?.num ? 'num' : '', m?.className ?? ''].filter(Boolean).join(' ') || undefined;
};

/**
 * A header or cell definition applied to its context. Called as a plain function, not mounted as a
 * component the way flexRender does it: the tables build their definitions in a useMemo that
 * changes with every new estimate, and a new component type each time would unmount and remount
 * every cell's contents on each redraw. The definitions use no hooks.
 */
function renderDef<C>(def: ReactNode | ((ctx: C) => unknown), ctx: C): ReactNode {
  return (typeof def === 'function' ? def(ctx) : def) as ReactNode;
}

/**
 * A @tanstack/react-table table as plain HTML with a caption for screen readers. With `sortable`,
 * headers are buttons and carry aria-sort.
 */
export function DataTable<T>({ table, caption, sortable }: { table: Table<T>; caption: string; sortable?: boolean }) {
  return (
    <div className="table-wrap">
      <table>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          {table.getHeaderGroups().map((g) => (
            <tr key={g.id}>
              {g.headers.map((h) => {
                const label = renderDef(h.column.columnDef.header, h.getContext());
                const dir = h.column.getIsSorted();
                return (
                  <th key={h.id} scope="col" className={numClass(h.column.columnDef.meta)} aria-sort={sortable ? (dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none') : undefined}>
                    {sortable ? (
                      <button type="button" onClick={h.column.getToggleSortingHandler()}>
                        {label} {dir === 'asc' ? '▲' : dir === 'desc' ? '▼' : ''}
                      </button>
                    ) : (
                      label
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((r) => (
            <tr key={r.id}>
              {r.getVisibleCells().map((c) => (
                <td key={c.id} className={numClass(c.column.columnDef.meta)}>
                  {renderDef(c.column.columnDef.cell, c.getContext())}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
