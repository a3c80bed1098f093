import { describe, expect, it } from 'vitest';
import { CUBLAS_WORKSPACE_BYTES, roundSize, segmentSize, segmentWaste } from '../../../src/core/runtime';

const MiB = 2 ** 20;

describe('caching-allocator rounding (docs/reference/allocator.md §1)', () => {
  it('requests round to 512 B, minimum 512', () => {
    expect(roundSize(1)).toBe(512);
    expect(roundSize(1200)).toBe(1536);
    expect(roundSize(0)).toBe(512);
  });
  it('segments: ≤ 1 MiB → 2 MiB, 1–10 MiB → 20 MiB, ≥ 10 MiB → multiple of 2 MiB', () => {
    expect(segmentSize(MiB)).toBe(2 * MiB);
    expect(segmentSize(4 * MiB)).toBe(20 * MiB);
    expect(segmentSize(10 * MiB + 512)).toBe(12 * MiB);
  });
  it('waste: a 4 MiB tensor alone wastes 16 MiB of its 20 MiB segment; five share one segment', () => {
    expect(segmentWaste([{ bytes: 4 * MiB, count: 1 }])).toBe(16 * MiB);
    expect(segmentWaste([{ bytes: 4 * MiB, count: 5 }])).toBe(0);
  });
  it('large tensors waste their 2 MiB tail only', () => {
    expect(segmentWaste([{ bytes: 11 * MiB, count: 3 }])).toBe(3 * MiB);
  });
  it('cuBLAS workspace is 2·4 MiB + 8·16 KiB', () => {
    expect(CUBLAS_WORKSPACE_BYTES).toBe(2 * 4 * MiB + 8 * 16 * 1024);
  });
});
