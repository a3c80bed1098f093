import { Fragment, useEffect, useMemo, useRef, useState } from 'react';
import { createColumnHelper, flexRender, getCoreRowModel, getExpandedRowModel, useReactTable, type ExpandedState } from '@tanstack/react-table';
import type { LayerSpec } from '../../core/layers/spec';
import { useApp } from '../../state/store';
import { formatNumber } from '../i18n/format';
import { useLT, type LT } from './layers-i18n';
import { argOf, CLASS_NAME, fieldText, isEditable, KIND_FIELDS, newLayer, torchArg } from './layer-fields';
import { LayerEditor } from './layer-editor';
import { useNet } from './net-store';
import { addrText, type EditOp, type Step } from './net-edits';
import { flatten, type TreeNode } from './net-tree';
import type { NetResult } from './use-network';
import { problemWords } from './layer-core-zh';
import { formatBytesAuto, formatFlops, nodeName, shapeLabel } from './net-format';

const POSITIONAL = new Set(['in', 'out', 'features', 'num', 'dim', 'shape', 'p']);

/** print(model)-style summary of a layer: positional sizes, then keyword arguments. */
function argsText(spec: LayerSpec): string {
  const parts = (KIND_FIELDS[spec.kind] ?? []).flatMap(([f]) => {
    const v = argOf(spec, f);
    if (v === undefined) return [];
    // Python spelling of booleans, as print(model) shows them
    const text = typeof v === 'boolean' ? (v ? 'True' : 'False') : fieldText(v);
    return [POSITIONAL.has(f) ? text : `${torchArg(spec.kind, f)}=${text}`];
  });
  const name = CLASS_NAME[spec.kind] ?? spec.kind;
  return parts.length > 0 ? `${name}(${parts.join(', ')})` : name;
}

function kindText(n: TreeNode, t: LT): string {
  if (!n.spec) return t('table.merge', { op: CLASS_NAME[n.kind] ?? n.kind });
  if (n.spec.kind === 'block') return `${t('table.block')} (${CLASS_NAME[n.spec.merge]})`;
  if (n.spec.kind === 'repeat') return `Sequential ${t('table.repeat', { n: n.copies })}`;
  return n.spec.kind === 'sequential' ? 'Sequential' : argsText(n.spec);
}

const sibling = (at: Step[], i: number): Step[] => [...at.slice(0, -1), { ...at[at.length - 1], i }];
const ancestors = (id: string) =>
  id
    .split('.')
    .slice(0, -1)
    .map((_, i, a) => a.slice(0, i + 1).join('.'));

const col = createColumnHelper<TreeNode>();

/** The layer table: tree rows (containers open), per-row figures, inline shape errors, row actions. */
export function LayerTable({ r }: { r: NetResult }) {
  const t = useLT();
  const unit = useApp((s) => s.unit);
  const training = useNet((s) => s.mode === 'training');
  const edit = useNet((s) => s.edit);
  const [expanded, setExpanded] = useState<ExpandedState>({});
  const [editing, setEditing] = useState<string | null>(null);
  const tableRef = useRef<HTMLTableElement>(null);
  /** after a move, keyboard focus follows the moved layer to its new row */
  const [follow, setFollow] = useState<{ id: string; act: 'up' | 'down' } | null>(null);
  useEffect(() => {
    if (!follow) return;
    const q = (act: string) => tableRef.current?.querySelector<HTMLButtonElement>(`button[data-row="${follow.id}"][data-act="${act}"]`);
    const b = q(follow.act);
    (b && !b.disabled ? b : q(follow.act === 'up' ? 'down' : 'up'))?.focus();
    setFollow(null);
  }, [follow]);
  const errId = r.error?.nodeId ?? null;
  const open = useMemo(() => {
    const e: Record<string, boolean> = typeof expanded === 'object' ? { ...expanded } : {};
    for (const a of [...(errId ? ancestors(errId) : []), ...(editing ? ancestors(editing) : [])]) e[a] = true;
    return expanded === true ? true : e;
  }, [expanded, errId, editing]);
  /** apply a move; focus and an open editor follow the layer to its new address */
  const moved = (from: string, op: EditOp, to: string, act: 'up' | 'down') => {
    edit(op);
    setFollow({ id: to, act });
    setEditing((e) => (e === from ? to : e));
  };
  const known = r.estimate !== null;
  const bytes = (b: number) => (known ? formatBytesAuto(b, unit, t.lang) : '–');
  const columns = useMemo(
    () => [
      col.display({
        id: 'layer',
        header: t('table.layer'),
        cell: ({ row }) => {
          const n = row.original;
          const name = nodeName(n, t);
          return (
            <span className="net-name" style={{ paddingLeft: `${row.depth * 1.1}rem` }}>
              {row.getCanExpand() ? (
                <button
                  type="button"
                  className="net-tog"
                  aria-expanded={row.getIsExpanded()}
                  aria-label={t(row.getIsExpanded() ? 'table.collapse' : 'table.expand', { name: n.path || name })}
                  onClick={row.getToggleExpandedHandler()}
                >
                  {row.getIsExpanded() ? '▾' : '▸'}
                </button>
              ) : (
                <span className="net-tog-space" aria-hidden="true" />
              )}
              <code>{name}</code>
              {n.branch !== 'body' && <span className="net-tag">{t(n.branch === 'shortcut' ? 'table.shortcut' : 'table.post')}</span>}
            </span>
          );
        },
      }),
      col.display({ id: 'kind', header: t('table.kind'), cell: ({ row }) => <code className="net-args-text">{kindText(row.original, t)}</code> }),
      col.display({ id: 'out', header: t('table.out'), cell: ({ row }) => shapeLabel(row.original.outShape) }),
      col.display({ id: 'params', header: t('table.params'), meta: 'num', cell: ({ row }) => (known ? formatNumber(row.original.totals.params, t.lang) : '–') }),
      col.display({ id: 'act', header: t(training ? 'table.saved' : 'table.output'), meta: 'num', cell: ({ row }) => bytes(training ? row.original.totals.saved : row.original.totals.output) }),
      col.display({ id: 'flops', header: t('table.flops'), meta: 'num', cell: ({ row }) => formatFlops(row.original.totals.flops, t.lang) }),
      col.display({
        id: 'actions',
        header: t('table.actions'),
        cell: ({ row }) => {
          const n = row.original;
          if (!n.at) return null;
          const at = n.at;
          const name = n.path || nodeName(n, t);
          const i = at[at.length - 1].i;
          return (
            <span className="net-actions">
              <button
                type="button"
                aria-label={t('act.up', { name })}
                title={t('act.up', { name })}
                disabled={i === 0}
                data-row={n.id}
                data-act="up"
                onClick={() => moved(n.id, { op: 'up', at }, addrText(sibling(at, i - 1)), 'up')}
              >
                ↑
              </button>
              <button
                type="button"
                aria-label={t('act.down', { name })}
                title={t('act.down', { name })}
                disabled={i >= n.siblings - 1}
                data-row={n.id}
                data-act="down"
                onClick={() => moved(n.id, { op: 'up', at: sibling(at, i + 1) }, addrText(sibling(at, i + 1)), 'down')}
              >
                ↓
              </button>
              {n.spec && isEditable(n.spec.kind) && (
                <button type="button" aria-label={t('act.edit', { name })} title={t('act.edit', { name })} aria-pressed={editing === n.id} onClick={() => setEditing(editing === n.id ? null : n.id)}>
                  ✎
                </button>
              )}
              <button
                type="button"
                aria-label={t('act.insert', { name })}
                title={t('act.insert', { name })}
                onClick={() => {
                  const next = sibling(at, i + 1);
                  edit({ op: 'ins', at: next, fields: newLayer('relu', n.outShape ?? []) });
                  setEditing(addrText(next));
                }}
              >
                +
              </button>
              <button
                type="button"
                aria-label={t('act.remove', { name })}
                title={t('act.remove', { name })}
                disabled={n.siblings <= 1 && at.length === 1}
                onClick={() => {
                  edit({ op: 'del', at });
                  setEditing(null);
                }}
              >
                ✕
              </button>
            </span>
          );
        },
      }),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps -- bytes() and moved() are rebuilt each render from these inputs
    [t, unit, training, editing, edit, known],
  );
  const table = useReactTable({
    data: r.tree,
    columns,
    state: { expanded: open },
    onExpandedChange: setExpanded,
    getRowId: (n) => n.id,
    getSubRows: (n) => n.children,
    getCoreRowModel: getCoreRowModel(),
    getExpandedRowModel: getExpandedRowModel(),
  });
  const sum = r.tree.reduce((a, n) => ({ params: a.params + n.totals.params, saved: a.saved + n.totals.saved, output: a.output + n.totals.output, flops: a.flops + n.totals.flops }), {
    params: 0,
    saved: 0,
    output: 0,
    flops: 0,
  });
  const editNode = editing ? flatten(r.tree).find((n) => n.id === editing) : undefined;
  const span = columns.length;
  return (
    <div className="table-wrap">
      <div className="net-table-tools">
        <button type="button" onClick={() => setExpanded(true)}>
          {t('table.expandAll')}
        </button>
        <button type="button" onClick={() => setExpanded({})}>
          {t('table.collapseAll')}
        </button>
      </div>
      <table className="net-table" ref={tableRef}>
        <caption className="visually-hidden">{t('table.caption')}</caption>
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => (
                <th key={h.id} scope="col" className={h.column.columnDef.meta === 'num' ? 'num' : undefined}>
                  {flexRender(h.column.columnDef.header, h.getContext())}
                </th>
              ))}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => {
            const bad = row.original.id === errId;
            return (
              <Fragment key={row.id}>
                <tr className={`${bad ? 'net-bad' : ''}${row.original.spec ? '' : ' net-merge'}`} aria-invalid={bad || undefined}>
                  {row.getVisibleCells().map((c) => (
                    <td key={c.id} className={c.column.columnDef.meta === 'num' ? 'num' : undefined}>
                      {flexRender(c.column.columnDef.cell, c.getContext())}
                    </td>
                  ))}
                </tr>
                {bad && r.error && (
                  <tr className="net-err-row">
                    <td colSpan={span}>
                      <span role="alert">{t('err.row', { msg: problemWords(t.lang, r.error.problem) })}</span>
                    </td>
                  </tr>
                )}
                {editNode && editNode.id === row.original.id && editNode.at && editNode.spec && (
                  <tr className="net-edit-row">
                    <td colSpan={span}>
                      <LayerEditor at={editNode.at} spec={editNode.spec} inShape={editNode.inShape} label={editNode.path || nodeName(editNode, t)} onClose={() => setEditing(null)} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
        {known && (
          <tfoot>
            <tr>
              <th scope="row" colSpan={3}>
                {t('table.total')}
              </th>
              <td className="num" data-testid="net-sum-params">
                {formatNumber(sum.params, t.lang)}
              </td>
              <td className="num" data-testid="net-sum-act" data-value={training ? sum.saved : sum.output}>
                {bytes(training ? sum.saved : sum.output)}
              </td>
              <td className="num">{formatFlops(sum.flops, t.lang)}</td>
              <td />
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
