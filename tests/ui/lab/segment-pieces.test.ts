import { describe, expect, test } from 'vitest';
import { blockKind, segmentPieces } from '../../../src/ui/lab/segment-pieces';
import type { BlockView, SegmentView } from '../../../src/core/allocator/view';

const MiB = 2 ** 20;

function segment(blocks: Omit<BlockView, 'addr'>[]): SegmentView {
  let addr = 0;
  const placed = blocks.map((b) => {
    const x = { ...b, addr };
    addr += b.size;
    return x;
  });
  return { id: 1, addr: 0, pool: 'large', expandable: false, size: addr, reserved: addr, blocks: placed };
}

describe('segment bar pieces', () => {
  test('a lone free block is a whole free segment; beside a tensor it is split (non-releasable)', () => {
    const whole = segment([{ size: 20 * MiB, state: 'free' }]);
    expect(blockKind(whole, whole.blocks[0])).toBe('free');
    const split = segment([
      { size: 4 * MiB, state: 'allocated', name: 't0' },
      { size: 16 * MiB, state: 'free' },
    ]);
    expect(split.blocks.map((b) => blockKind(split, b))).toEqual(['allocated', 'split']);
  });

  test('few blocks are drawn one by one', () => {
    const s = segment(Array.from({ length: 10 }, (_, i) => ({ size: 4 * MiB, state: i % 2 ? 'allocated' : 'free' })));
    const p = segmentPieces(s);
    expect(p.map((x) => x.count)).toEqual(Array(10).fill(1));
  });

  test('many neighbours of one kind merge into runs that keep every byte', () => {
    // 4096 tensors of 512 B fill a 2 MiB small segment; a free tail follows
    const s = segment([...Array.from({ length: 4095 }, () => ({ size: 512, state: 'allocated' as const })), { size: 512, state: 'free' }]);
    const p = segmentPieces(s, 120);
    expect(p.map((x) => [x.kind, x.count, x.size])).toEqual([
      ['allocated', 4095, 4095 * 512],
      ['split', 1, 512],
    ]);
  });

  test('alternating kinds are grouped to at most the limit, bytes per kind kept', () => {
    const s = segment(Array.from({ length: 1000 }, (_, i) => ({ size: (i % 2 ? 3 : 1) * 512, state: i % 2 ? 'allocated' : 'free' })));
    const p = segmentPieces(s, 100);
    expect(p.length).toBeLessThanOrEqual(100);
    expect(p.reduce((n, x) => n + x.count, 0)).toBe(1000);
    expect(p.reduce((n, x) => n + (x.bytes.allocated ?? 0), 0)).toBe(500 * 3 * 512);
    expect(p.reduce((n, x) => n + (x.bytes.split ?? 0), 0)).toBe(500 * 512);
    expect(p.every((x) => x.kind === 'allocated')).toBe(true);
  });
});
