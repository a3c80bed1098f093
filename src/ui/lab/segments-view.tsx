import { useState } from 'react';
import type { BlockView, SegmentView } from '../../core/allocator/view';
import { useLabT, type LabKey, type LabT } from './lab-i18n';

/** At most this many segments are drawn (imported traces can hold thousands). */
export const MAX_DRAWN_SEGMENTS = 64;
/** Above this many drawn blocks, blocks leave the tab order (the table view lists them all). */
const MAX_TAB_STOPS = 200;

export type BlockKind = 'allocated' | 'free' | 'split' | 'unmapped';

/** A free block inside a segment that still has other mapped blocks is "split": non-releasable by empty_cache(). */
export function blockKind(seg: SegmentView, b: BlockView): BlockKind {
  if (b.state !== 'free') return b.state;
  const mapped = seg.blocks.filter((x) => x.state !== 'unmapped').length;
  return mapped > 1 ? 'split' : 'free';
}

/** Drawn weight: unmapped address space of expandable segments is shown short so mapped pages stay visible. */
function weight(seg: SegmentView, b: BlockView): number {
  return b.state === 'unmapped' ? Math.min(b.size, Math.max(seg.reserved * 0.15, 1)) : b.size;
}

const segWeight = (seg: SegmentView) => seg.blocks.reduce((s, b) => s + weight(seg, b), 0);

export function blockLabel(t: LabT, seg: SegmentView, b: BlockView): string {
  const kind = blockKind(seg, b);
  const name = b.name ? ` “${b.name}”${b.requested !== undefined && b.requested !== b.size ? t('seg.requested', { requested: t.bytes(b.requested) }) : ''}` : '';
  return `${t(`seg.state.${kind}` as LabKey, {})} ${t.bytes(b.size)}${name} · ${t('sim.block', { size: t.exact(b.size), offset: t.bytes(b.addr - seg.addr) })}`;
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
  const drawn = segments.slice(0, MAX_DRAWN_SEGMENTS);
  const maxW = Math.max(1, ...drawn.map(segWeight));
  const focusable = drawn.reduce((s, x) => s + x.blocks.length, 0) <= MAX_TAB_STOPS;
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
        {drawn.map((s) => {
          const total = segWeight(s);
          return (
            <div key={s.id} className="lab-seg">
              <div className="lab-seg-name small">{segLabel(t, s)}</div>
              <div className="lab-bar" role="list" aria-label={segLabel(t, s)} style={{ width: `${Math.max(6, (100 * total) / maxW)}%` }}>
                {s.blocks.map((b) => {
                  const label = blockLabel(t, s, b);
                  const share = weight(s, b) / total;
                  return (
                    <span
                      key={b.addr}
                      role="listitem"
                      tabIndex={focusable ? 0 : undefined}
                      className={`blk blk-${blockKind(s, b)}`}
                      style={{ flexGrow: weight(s, b), flexBasis: 0 }}
                      title={label}
                      aria-label={label}
                      onMouseEnter={() => setInfo(label)}
                      onFocus={() => setInfo(label)}
                    >
                      {share > 0.05 && b.name ? b.name : ''}
                    </span>
                  );
                })}
              </div>
            </div>
          );
        })}
      </div>
      {segments.length > drawn.length && <p className="muted small">{t('seg.more', { n: segments.length - drawn.length })}</p>}
      <p className="lab-block-info small" aria-hidden="true">{info ?? '\u00a0'}</p>
      <details>
        <summary>{t('seg.table')}</summary>
        <SegmentsTable segments={drawn} />
      </details>
    </section>
  );
}

function SegmentsTable({ segments }: { segments: readonly SegmentView[] }) {
  const t = useLabT();
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
          {segments.flatMap((s) =>
            s.blocks.map((b) => (
              <tr key={`${s.id}-${b.addr}`}>
                <td>{s.id}</td>
                <td>{t(`seg.pool.${s.pool}` as LabKey)}{s.expandable ? t('seg.expandable') : ''}</td>
                <td className="num">{t.exact(b.addr - s.addr)}</td>
                <td className="num">{t.exact(b.size)}</td>
                <td>{t(`seg.state.${blockKind(s, b)}` as LabKey)}</td>
                <td>{b.name ?? ''}</td>
                <td className="num">{b.requested === undefined ? '' : t.exact(b.requested)}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
    </div>
  );
}
