import { describe, expect, it } from 'vitest';
import { CUBLAS_WORKSPACE_BYTES, cublasWorkspaceBytes, roundSize, segmentSize, segmentWaste, TRAINING_CUBLAS_HANDLES } from '../../../src/core/runtime';

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
  it('cuBLAS workspace (CublasHandlePool.cpp parseChosenWorkspaceSize): :4096:2:16:8 before Hopper, 4096·8 KiB from sm90 on; the estimate counts the larger', () => {
    // Ampere (8.0) / Ada (8.9): 2 buffers of 4096 KiB + 8 of 16 KiB
    expect(cublasWorkspaceBytes(8)).toBe(2 * 4096 * 1024 + 8 * 16 * 1024);
    expect(cublasWorkspaceBytes(8)).toBe(8_519_680);
    // Hopper (9.0), Blackwell (10.0, 12.0): 4096 KiB · 8 = 32 MiB, the blocks our H200 traces hold
    expect(cublasWorkspaceBytes(9)).toBe(32 * MiB);
    expect(cublasWorkspaceBytes(12)).toBe(33_554_432);
    expect(CUBLAS_WORKSPACE_BYTES).toBe(cublasWorkspaceBytes(9));
    expect(TRAINING_CUBLAS_HANDLES).toBe(2);
  });
});
