import { useState } from 'react';
import type { SegmentView } from '../../core/allocator/view';
import { useLabT, type LabKey, type LabT } from './lab-i18n';
import { segmentPieces, segWeight, type BlockKind, type Piece } from './segment-pieces';
import { SegmentsTable } from './segments-table';

/** At most this many segments are drawn (imported traces can hold thousands). */
export const MAX_DRAWN_SEGMENTS = 64;
/** Above this many drawn pieces, pieces leave the tab order (the table view lists every block). */
const MAX_TAB_STOPS = 200;

function pieceLabel(t: LabT, seg: SegmentView, p: Piece): string {
  const state = t(`seg.state.${p.kind}` as LabKey);
  const at = t('sim.block', { size: t.exact(p.size), offset: t.bytes(p.addr - seg.addr) });
  if (!p.block) return `${t('seg.run', { count: t.num(p.count), state, size: t.bytes(p.size) })} · ${at}`;
  const b = p.block;
  const req = b.requested !== undefined && b.requested !== b.size ? t('seg.requested', { requested: t.bytes(b.requested) }) : '';
  return `${state} ${t.bytes(b.size)}${b.name ? ` “${b.name}”${req}` : ''} · ${at}`;
}

function segLabel(t: LabT, s: SegmentView): string {
  return t('seg.label', {
    id: s.id,
    pool: t(`seg.pool.${s.pool}` as LabKey),
    expandable: s.expandable ? t('seg.expandable') : '',
    size: t.bytes(s.size),
    reserved: t.bytes(s.reserved),
  });
}

const KINDS: BlockKind[] = ['allocated', 'split', 'free', 'unmapped'];

/** Segments as bars of their blocks, with a legend, a details line for the hovered/focused block and a table view. */
export function SegmentsView({ segments }: { segments: readonly SegmentView[] }) {
  const t = useLabT();
  const [info, setInfo] = useState<string | null>(null);
  const [table, setTable] = useState(false);
  const drawn = segments.slice(0, MAX_DRAWN_SEGMENTS).map((s) => ({ s, pieces: segmentPieces(s), w: segWeight(s) }));
  const maxW = Math.max(1, ...drawn.map((d) => d.w));
  const focusable = drawn.reduce((n, d) => n + d.pieces.length, 0) <= MAX_TAB_STOPS;
  return (
    <section className="panel lab-segments" aria-labelledby="lab-seg-h">
      <h3 id="lab-seg-h">{t('seg.title')}</h3>
      <p className="field-help">{t('seg.help')}</p>
      <ul className="lab-legend" aria-label={t('seg.legend')}>
        {KINDS.map((k) => (
          <li key={k}>
            <span className={`swatch blk-${k}`} aria-hidden="true" />
            {t(`seg.state.${k}` as LabKey)}
          </li>
        ))}
      </ul>
      {segments.length === 0 && <p className="muted">{t('seg.none')}</p>}
      <div className="lab-seglist">
        {drawn.map(({ s, pieces, w }) => (
          <div key={s.id} className="lab-seg">
            <div className="lab-seg-name small">{segLabel(t, s)}</div>
            <div className="lab-bar" role="list" aria-label={segLabel(t, s)} style={{ width: `${Math.max(6, (100 * w) / maxW)}%` }}>
              {pieces.map((p) => {
                const label = pieceLabel(t, s, p);
                return (
                  <span
                    key={p.addr}
                    role="listitem"
                    // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- keyboard users step through the blocks to read each one's label (at most MAX_TAB_STOPS stops)
                    tabIndex={focusable ? 0 : undefined}
                    className={`blk blk-${p.kind}${p.block ? '' : ' run'}`}
                    style={{ flexGrow: p.weight, flexBasis: 0 }}
                    title={label}
                    aria-label={label}
                    onMouseEnter={() => setInfo(label)}
                    onFocus={() => setInfo(label)}
                  >
                    {p.weight / w > 0.05 && p.block?.name ? p.block.name : ''}
                  </span>
                );
              })}
            </div>
          </div>
        ))}
      </div>
      {segments.length > drawn.length && <p className="muted small">{t('seg.more', { n: segments.length - drawn.length })}</p>}
      <p className="lab-block-info small" aria-hidden="true">
        {info ?? '\u00a0'}
      </p>
      <details onToggle={(e) => setTable(e.currentTarget.open)}>
        <summary>{t('seg.table')}</summary>
        {table && <SegmentsTable segments={drawn.map((d) => d.s)} />}
      </details>
    </section>
  );
}
