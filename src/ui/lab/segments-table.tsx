import type { SegmentView } from '../../core/allocator/view';
import { useLabT, type LabKey } from './lab-i18n';
import { blockKind } from './segment-pieces';

/** Most rows the table view renders (an imported history can leave thousands of blocks). */
const MAX_ROWS = 2000;

/** Every block of the drawn segments as a table: the text alternative of the bars. */
export function SegmentsTable({ segments }: { segments: readonly SegmentView[] }) {
  const t = useLabT();
  const rows = segments.flatMap((s) => s.blocks.map((b) => ({ s, b })));
  return (
    <div className="table-wrap">
      <table>
        <thead>
          <tr>
            {(['segment', 'pool', 'offset', 'size', 'state', 'tensor', 'requested'] as const).map((c) => (
              <th key={c} scope="col" className={c === 'offset' || c === 'size' || c === 'requested' ? 'num' : undefined}>
                {t(`seg.col.${c}` as LabKey)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.slice(0, MAX_ROWS).map(({ s, b }) => (
            <tr key={`${s.id}-${b.addr}`}>
              <td>{s.id}</td>
              <td>
                {t(`seg.pool.${s.pool}` as LabKey)}
                {s.expandable ? t('seg.expandable') : ''}
              </td>
              <td className="num">{t.exact(b.addr - s.addr)}</td>
              <td className="num">{t.exact(b.size)}</td>
              <td>{t(`seg.state.${blockKind(s, b)}` as LabKey)}</td>
              <td>{b.name ?? ''}</td>
              <td className="num">{b.requested === undefined ? '' : t.exact(b.requested)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {rows.length > MAX_ROWS && <p className="muted small">{t('seg.tableCap', { n: t.num(MAX_ROWS), total: t.num(rows.length) })}</p>}
    </div>
  );
}
