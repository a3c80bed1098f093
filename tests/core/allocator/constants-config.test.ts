// Rounding, segment sizes and format_size (docs/reference/allocator.md §1, §7.1); PYTORCH_CUDA_ALLOC_CONF (§8).
import { describe, expect, it } from 'vitest';
import { allocationSize, formatSize, poolFor, roundSize } from '../../../src/core/allocator/constants';
import { GiB, MiB } from '../../../src/core/units';
import { parseAllocConf } from '../../../src/core/allocator/config';

const table = (d: number) => new Array<number>(16).fill(d);

describe('round_size (docs/reference/allocator.md §1 examples)', () => {
  it('512 B multiples by default', () => {
    expect(roundSize(1, table(0))).toBe(512);
    expect(roundSize(1000, table(0))).toBe(1024);
    expect(roundSize(4 * MiB + 1, table(0))).toBe(4 * MiB + 512);
  });
  it('power-of-two divisions', () => {
    expect(roundSize(1200, table(4))).toBe(1536);
    expect(roundSize(5_000_000, table(4))).toBe(5_242_880);
    expect(roundSize(300 * MiB + 1, table(4))).toBe(320 * MiB);
    expect(roundSize(300 * MiB + 1, table(2))).toBe(384 * MiB);
    expect(roundSize(700 * MiB, table(8))).toBe(704 * MiB);
    expect(roundSize(256 * MiB, table(8))).toBe(256 * MiB);
  });
});

describe('pools and segment sizes', () => {
  it('exactly 1 MiB is small; segment sizes 2 MiB / 20 MiB / 2 MiB-rounded', () => {
    expect(poolFor(MiB)).toBe('small');
    expect(poolFor(MiB + 512)).toBe('large');
    expect(allocationSize(1024)).toBe(2 * MiB);
    expect(allocationSize(4 * MiB)).toBe(20 * MiB);
    expect(allocationSize(10 * MiB)).toBe(10 * MiB);
    expect(allocationSize(20.5 * MiB)).toBe(22 * MiB);
    expect(allocationSize(64 * MiB)).toBe(64 * MiB);
  });
});

describe('format_size (docs/reference/allocator.md §7.1 edge cases)', () => {
  it.each([
    [0, '0 bytes'],
    [1024, '1024 bytes'],
    [1025, '1.00 KiB'],
    [MiB, '1024.00 KiB'],
    [GiB, '1024.00 MiB'],
    [200 * MiB, '200.00 MiB'],
    [2 ** 55, '33554432.00 GiB'],
    [1152, '1.12 KiB'], // 1.125 is an exact tie: printf rounds half to even
  ])('%i → %s', (n, s) => expect(formatSize(n)).toBe(s));
});

describe('parseAllocConf', () => {
  it('reads every native option', () => {
    const r = parseAllocConf(
      'PYTORCH_CUDA_ALLOC_CONF="max_split_size_mb:128, expandable_segments:True,garbage_collection_threshold:0.6,roundup_power2_divisions:[64:8,256:4,>:1],max_non_split_rounding_mb:40"',
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.maxSplitSize).toBe(128 * MiB);
    expect(r.value.expandableSegments).toBe(true);
    expect(r.value.garbageCollectionThreshold).toBe(0.6);
    expect(r.value.maxNonSplitRounding).toBe(40 * MiB);
    // [64:8]: first entry fills intervals 0..6; 256 → index 8; '>' fills after the last key.
    expect(r.value.roundupPower2Divisions).toEqual([8, 8, 8, 8, 8, 8, 8, 0, 4, 1, 1, 1, 1, 1, 1, 1]);
  });
  it('defaults: unlimited split size, no rounding, GC off', () => {
    const r = parseAllocConf('');
    expect(r.ok && [r.value.maxSplitSize, r.value.roundupPower2Divisions.every((d) => d === 0), r.value.garbageCollectionThreshold]).toEqual([null, true, 0]);
  });
  it.each([
    ['max_split_size_mb:20', 'CachingAllocator option max_split_size_mb too small, must be > 20'],
    ['max_non_split_rounding_mb:10', 'CachingAllocator option max_non_split_rounding_mb too small, must be >= 20'],
    ['expandable_segments:true', 'Expected a single True/False argument for expandable_segments'],
    ['garbage_collection_threshold:1.0', 'garbage_collect_threshold is invalid, set it in (0.0, 1.0)'],
    ['roundup_power2_divisions:3', 'For roundups, the divisons has to be power of 2'],
    ['roundup_power2_divisions:[100:4]', 'For roundups, the intervals have to be power of 2'],
    ['pinned_num_register_threads:256', 'Number of register threads should be less than or equal to 128'],
    ['backend:magic', 'Unknown allocator backend, options are native and cudaMallocAsync'],
    ['max_split_size', 'Error parsing CachingAllocator settings, expected :'],
    ['foo:1', 'Unrecognized CachingAllocator option: foo'],
  ])('%s → %s', (conf, message) => {
    expect(parseAllocConf(conf)).toEqual({ ok: false, errors: [expect.objectContaining({ key: 'conf', message })] });
  });
});
