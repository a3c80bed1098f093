import type { BlockView, SegmentView } from '../../core/allocator/view';

export type BlockKind = 'allocated' | 'free' | 'split' | 'unmapped';

/** A free block inside a segment that still has other mapped blocks is "split": non-releasable by empty_cache(). */
export function blockKind(seg: SegmentView, b: BlockView): BlockKind {
  if (b.state !== 'free') return b.state;
  const mapped = seg.blocks.filter((x) => x.state !== 'unmapped').length;
  return mapped > 1 ? 'split' : 'free';
}

/** One drawn piece of a segment bar: a block, or a run of neighbouring blocks when the segment has too many to draw. */
export interface Piece {
  addr: number;
  size: number;
  /** drawn width share (unmapped space is drawn short) */
  weight: number;
  kind: BlockKind;
  /** blocks in the piece (1 = a single block) */
  count: number;
  /** bytes per kind inside a mixed piece */
  bytes: Partial<Record<BlockKind, number>>;
  block?: BlockView;
}

/** Drawn weight: unmapped address space of expandable segments is shown short so mapped pages stay visible. */
function weight(seg: SegmentView, b: BlockView): number {
  return b.state === 'unmapped' ? Math.min(b.size, Math.max(seg.reserved * 0.15, 1)) : b.size;
}

const single = (seg: SegmentView, b: BlockView): Piece => {
  const kind = blockKind(seg, b);
  return { addr: b.addr, size: b.size, weight: weight(seg, b), kind, count: 1, bytes: { [kind]: b.size }, block: b };
};

function join(a: Piece, b: Piece): Piece {
  const bytes = { ...a.bytes };
  for (const [k, v] of Object.entries(b.bytes) as [BlockKind, number][]) bytes[k] = (bytes[k] ?? 0) + v;
  const kind = (Object.entries(bytes) as [BlockKind, number][]).sort((x, y) => y[1] - x[1])[0][0];
  return { addr: a.addr, size: a.size + b.size, weight: a.weight + b.weight, kind, count: a.count + b.count, bytes };
}

/**
 * The pieces of a segment bar, at most `max`: every block when few; else neighbouring blocks of one
 * kind merged; else consecutive pieces merged into equal groups, each drawn as its largest kind.
 */
export function segmentPieces(seg: SegmentView, max = 120): Piece[] {
  const blocks = seg.blocks.map((b) => single(seg, b));
  if (blocks.length <= max) return blocks;
  const runs: Piece[] = [];
  for (const p of blocks) {
    const last = runs[runs.length - 1];
    if (last && last.kind === p.kind && Object.keys(last.bytes).length === 1) runs[runs.length - 1] = join(last, p);
    else runs.push(p);
  }
  if (runs.length <= max) return runs;
  const per = Math.ceil(runs.length / max);
  const out: Piece[] = [];
  for (let i = 0; i < runs.length; i += per) out.push(runs.slice(i, i + per).reduce(join));
  return out;
}

export const segWeight = (seg: SegmentView) => seg.blocks.reduce((s, b) => s + weight(seg, b), 0);
