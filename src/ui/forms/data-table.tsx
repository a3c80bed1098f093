import { flexRender, type Table } from '@tanstack/react-table';

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
                const label = flexRender(h.column.columnDef.header, h.getContext());
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
