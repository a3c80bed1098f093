// Advice per platform. docs/reference/allocator.md §5 "Limits": expandable segments are CUDA only in PyTorch 2.x
// (not ROCm; on unsupported builds PyTorch warns "expandable_segments not supported on this platform"
// and acts as off), so a ROCm OOM must not be told to turn them on. §4/§8: max_split_size_mb is a
// native-allocator option that ROCm builds read too (PYTORCH_HIP_ALLOC_CONF is accepted, §8).
import { describe, expect, it } from 'vitest';
import { diagnoseOom, type OomFigures } from '../../../src/core/allocator/advice';
import { GiB } from '../../../src/core/units';

// 2 GiB asked, 3 GiB cached but unallocated, 2 GiB free: fragmentation alone explains the OOM, and
// 3 + 2 GiB ≥ 2 × 2 GiB leaves room, so no smaller batch is advised.
const fragmented: OomFigures = { requested: 2 * GiB, free: 2 * GiB, allocated: 20 * GiB, unallocated: 3 * GiB, reserved: 23 * GiB, others: null, nonPyTorch: null, allowed: null, backend: 'cuda' };

describe('fragmentation advice by platform (docs/reference/allocator.md §5 Limits)', () => {
  it('CUDA: expandable segments first, max_split_size_mb as the alternative', () => {
    const d = diagnoseOom(fragmented);
    expect(d.code).toBe('fragmentation');
    expect(d.advice.map((a) => a.code)).toEqual(['expandable-segments', 'max-split-size']);
    expect(d.advice[0].params).toEqual({ env: 'PYTORCH_CUDA_ALLOC_CONF', value: 'expandable_segments:True' });
  });

  it('ROCm: never recommends expandable_segments:True; says why, and offers max_split_size_mb instead', () => {
    const d = diagnoseOom({ ...fragmented, backend: 'hip' });
    expect(d.code).toBe('fragmentation');
    expect(d.advice.map((a) => a.code)).toEqual(['expandable-unsupported', 'max-split-size']);
    // nothing to export for the unsupported option: no `value` param (the lab prints `export env=value`)
    expect(d.advice.some((a) => a.params.value === 'expandable_segments:True')).toBe(false);
    expect(d.advice[0].why).toContain('expandable_segments not supported on this platform');
    // 2 GiB = 2048 MiB, a power of two: requests of ≥ 2048 MiB are oversize and never split
    expect(d.advice[1]).toMatchObject({ variant: 'rocm', params: { env: 'PYTORCH_HIP_ALLOC_CONF', value: 'max_split_size_mb:2048' } });
    expect(d.advice[1].text).not.toMatch(/^Or /);
  });

  it('ROCm, request too small for max_split_size_mb (20 MiB < 32 MiB): only the note', () => {
    const MiB = 2 ** 20;
    const d = diagnoseOom({ ...fragmented, backend: 'hip', requested: 20 * MiB, unallocated: 53 * MiB, free: 3 * MiB });
    expect(d.advice.map((a) => a.code)).toEqual(['expandable-unsupported']);
  });
});

describe('one action, two reasons: a smaller batch', () => {
  it('fragmentation with a nearly full card and a real shortage carry different variants and reasons', () => {
    // 1.5 GiB cached + 1 GiB free < 2 × 2 GiB asked: even perfectly packed, the card is nearly full
    const tight = diagnoseOom({ ...fragmented, free: GiB, unallocated: 1.5 * GiB, reserved: 21.5 * GiB });
    const short = diagnoseOom({ ...fragmented, free: 0, unallocated: 0, reserved: 20 * GiB });
    const a = tight.advice.find((x) => x.code === 'smaller-batch');
    const b = short.advice.find((x) => x.code === 'smaller-batch');
    expect(tight.code).toBe('fragmentation');
    expect(short.code).toBe('real-shortage');
    expect(a?.variant).toBe('fragmentation');
    expect(b?.variant).toBeUndefined();
    expect(a?.why).not.toBe(b?.why);
    // shortage: 2 GiB asked − 0 free − 0 cached = the whole 2 GiB must go
    expect(b?.params.shortBytes).toBe(2 * GiB);
  });
});
