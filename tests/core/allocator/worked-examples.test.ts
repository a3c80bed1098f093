// Every worked example of docs/reference/allocator.md §9, byte for byte.
import { describe, expect, it } from 'vitest';
import { CachingAllocator } from '../../../src/core/allocator/allocator';
import { parseAllocConf, defaultConfig, type AllocatorConfig } from '../../../src/core/allocator/config';
import { GiB, MiB } from '../../../src/core/units';
import { formatOomMessage } from '../../../src/core/allocator/oom-message';
import { viewAllocator } from '../../../src/core/allocator/view';

const conf = (s: string): AllocatorConfig => {
  const r = parseAllocConf(s);
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value;
};
const make = (capacity: number, c: AllocatorConfig = defaultConfig()) => new CachingAllocator({ capacity, overhead: 0, fraction: null }, c);
const st = (a: CachingAllocator) => viewAllocator(a).stats;

/** Example (i) steps A–C: ten 1024x1024 fp32, free evens, one 4096x4096 fp32. */
function exampleI(a: CachingAllocator, upto: 'A' | 'B' | 'C') {
  for (let i = 0; i < 10; i++) expect(a.malloc(`t${i}`, 4 * MiB).ok).toBe(true);
  if (upto === 'A') return;
  for (const i of [0, 2, 4, 6, 8]) a.free(`t${i}`);
  if (upto === 'B') return;
  expect(a.malloc('big', 64 * MiB).ok).toBe(true);
}

describe('docs/reference/allocator.md §9 (i): 10 × 4 MiB, free every other one, then 64 MiB', () => {
  it('step A: two 20 MiB segments, t4 takes the last 4 MiB without split', () => {
    const a = make(80 * GiB);
    exampleI(a, 'A');
    const s = st(a);
    expect(s['reserved_bytes.all.current']).toBe(41_943_040);
    expect(s['allocated_bytes.all.current']).toBe(41_943_040);
    expect(s['segment.all.current']).toBe(2);
    expect(s.num_device_alloc).toBe(2);
    expect(s['inactive_split.all.current']).toBe(0);
    expect(s['inactive_split.all.peak']).toBe(1);
    expect(s['inactive_split_bytes.all.peak']).toBe(16_777_216);
  });

  it('step B: holes do not merge; 5 inactive splits of 4 MiB; empty_cache frees nothing', () => {
    const a = make(80 * GiB);
    exampleI(a, 'B');
    const v = viewAllocator(a);
    expect(v.segments.map((s) => s.blocks.map((b) => `${b.state[0]}${b.size / MiB}`).join(' '))).toEqual(['f4 a4 f4 a4 f4', 'a4 f4 a4 f4 a4']);
    expect(v.stats['reserved_bytes.all.current']).toBe(41_943_040);
    expect(v.stats['allocated_bytes.all.current']).toBe(20_971_520);
    expect(v.stats['inactive_split.all.current']).toBe(5);
    expect(v.stats['inactive_split_bytes.all.current']).toBe(20_971_520);
    a.emptyCache();
    expect(st(a)['reserved_bytes.all.current']).toBe(41_943_040);
    expect(st(a).num_device_free).toBe(0);
  });

  it('step C: a new unsplit 64 MiB segment and the exact counters', () => {
    const a = make(80 * GiB);
    exampleI(a, 'C');
    const s = st(a);
    expect(s['reserved_bytes.all.current']).toBe(109_051_904);
    expect(s['allocated_bytes.all.current']).toBe(88_080_384);
    expect(s['requested_bytes.all.current']).toBe(88_080_384);
    expect(s['segment.all.current']).toBe(3);
    expect((['current', 'peak', 'allocated', 'freed'] as const).map((f) => s[`allocation.all.${f}`])).toEqual([6, 10, 11, 5]);
    expect((['current', 'peak', 'allocated', 'freed'] as const).map((f) => s[`inactive_split.all.${f}`])).toEqual([5, 5, 7, 2]);
    expect((['current', 'peak', 'allocated', 'freed'] as const).map((f) => s[`inactive_split_bytes.all.${f}`])).toEqual([20_971_520, 20_971_520, 54_525_952, 33_554_432]);
    expect(s['oversize_allocations.current']).toBe(0);
  });

  it('max_split_size_mb:128 and :256 give identical results; max_split_size reports M', () => {
    const base = make(80 * GiB);
    exampleI(base, 'C');
    for (const [mb, bytes] of [
      [128, 134_217_728],
      [256, 268_435_456],
    ] as const) {
      const a = make(80 * GiB, conf(`max_split_size_mb:${mb}`));
      exampleI(a, 'C');
      const s = st(a);
      expect({ ...s, max_split_size: 0 }).toEqual({ ...st(base), max_split_size: 0 });
      expect(s.max_split_size).toBe(bytes);
      expect(s['oversize_segments.current']).toBe(0);
    }
  });

  it('max_split_size_mb:64 only adds one oversize allocation and segment', () => {
    const a = make(80 * GiB, conf('max_split_size_mb:64'));
    exampleI(a, 'C');
    const s = st(a);
    expect(s['reserved_bytes.all.current']).toBe(109_051_904);
    expect(s['oversize_allocations.current']).toBe(1);
    expect(s['oversize_segments.current']).toBe(1);
  });

  const stepD = (c: AllocatorConfig) => {
    const a = make(80 * GiB, c);
    exampleI(a, 'C');
    a.free('big');
    expect(a.malloc('m', 41_943_040).ok).toBe(true);
    const afterM = st(a);
    expect(a.malloc('big2', 67_108_864).ok).toBe(true);
    return { afterM, final: st(a), a };
  };

  // The table of §9 (i) step D: [after m: reserved, allocated, inactive_split, inactive_split_bytes], [after big2: reserved, allocated, segments].
  it.each([
    ['default: m splits the cached 64 MiB block; big2 needs a 4th segment', '', [109_051_904, 62_914_560, 6, 46_137_344], [176_160_768, 130_023_424, 4]],
    ['max_split_size_mb:64: m refuses the oversize block; big2 reuses it (64 < 64 + 20)', 'max_split_size_mb:64', [150_994_944, 62_914_560, 5, 20_971_520], [150_994_944, 130_023_424, 4]],
  ])('step D %s', (_, c, m, big2) => {
    const { afterM, final } = stepD(conf(c));
    const keys = ['reserved_bytes', 'allocated_bytes', 'inactive_split', 'inactive_split_bytes'] as const;
    expect(keys.map((k) => afterM[`${k}.all.current`])).toEqual(m);
    expect((['reserved_bytes', 'allocated_bytes', 'segment'] as const).map((k) => final[`${k}.all.current`])).toEqual(big2);
  });

  it('step D expandable_segments:True: pages mapped at the tail; the segment stat stays 0', () => {
    const c = conf('expandable_segments:True');
    const a = make(80 * GiB, c);
    exampleI(a, 'A');
    expect(st(a)['reserved_bytes.all.current']).toBe(41_943_040);
    const { afterM, final } = stepD(c);
    expect(afterM['reserved_bytes.all.current']).toBe(125_829_120);
    expect(afterM['allocated_bytes.all.current']).toBe(62_914_560);
    expect(final['reserved_bytes.all.current']).toBe(167_772_160);
    expect(final['allocated_bytes.all.current']).toBe(130_023_424);
    expect(final['segment.all.current']).toBe(0);
  });
});

describe('docs/reference/allocator.md §9 (ii): fragmentation OOM on a 1 GiB card', () => {
  const run = (c: AllocatorConfig) => {
    const a = make(GiB, c);
    expect(a.malloc('a', 943_718_400).ok).toBe(true);
    a.free('a');
    for (let i = 1; i <= 9; i++) expect(a.malloc(`B${i}`, 104_857_600).ok).toBe(true);
    const after2 = st(a);
    const peak = after2['reserved_bytes.all.peak'];
    for (const i of [1, 3, 5, 7]) a.free(`B${i}`);
    const after3 = st(a);
    const c4 = a.malloc('c', 209_715_200);
    return { a, peak, after2, after3, c4, final: st(a) };
  };

  it('default: OOM after one counted retry, with the exact 2.2+ and 2.0 messages', () => {
    const { after2, after3, c4, final } = run(defaultConfig());
    expect(after2['inactive_split.all.current']).toBe(0);
    expect(after2['inactive_split.all.peak']).toBe(1);
    expect(after2['inactive_split_bytes.all.peak']).toBe(838_860_800);
    expect(after3['reserved_bytes.all.current']).toBe(943_718_400);
    expect(after3['allocated_bytes.all.current']).toBe(524_288_000);
    expect(after3['inactive_split.all.current']).toBe(4);
    expect(after3['inactive_split_bytes.all.current']).toBe(419_430_400);
    expect(c4.ok).toBe(false);
    expect(final.num_alloc_retries).toBe(1);
    expect(final.num_ooms).toBe(1);
    expect(final['reserved_bytes.all.current']).toBe(943_718_400);
    if (c4.ok) return;
    const ctx = { device: 0, nvml: true, privatePools: 0 };
    expect(formatOomMessage('2.2', c4.oom, ctx)).toBe(
      'CUDA out of memory. Tried to allocate 200.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 124.00 MiB is free. Including non-PyTorch memory, this process has 900.00 MiB memory in use. Of the allocated memory 500.00 MiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)',
    );
    expect(formatOomMessage('2.0', c4.oom, ctx)).toBe(
      'CUDA out of memory. Tried to allocate 200.00 MiB (GPU 0; 1024.00 MiB total capacity; 500.00 MiB already allocated; 124.00 MiB free; 900.00 MiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF',
    );
  });

  it('max_split_size_mb:128: whole-segment holes go back to the driver and c fits', () => {
    const { peak, after3, c4, final } = run(conf('max_split_size_mb:128'));
    expect(peak).toBe(1_048_576_000);
    expect(after3['segment.all.current']).toBe(9);
    expect(after3['reserved_bytes.all.current']).toBe(943_718_400);
    expect(after3['allocated_bytes.all.current']).toBe(524_288_000);
    expect(after3['inactive_split.all.current']).toBe(0);
    expect(c4.ok).toBe(true);
    expect(final['reserved_bytes.all.current']).toBe(734_003_200);
    expect(final['allocated_bytes.all.current']).toBe(734_003_200);
    expect(final['segment.all.current']).toBe(6);
    expect(final.num_device_alloc).toBe(11);
    expect(final.num_device_free).toBe(5);
    expect(final['oversize_allocations.current']).toBe(1);
    expect(final['oversize_segments.current']).toBe(1);
    expect(final.num_alloc_retries).toBe(1);
    expect(final.num_ooms).toBe(0);
  });

  it('expandable_segments:True: the four holes are unmapped and 10 pages map at the tail', () => {
    const { a, c4, final } = run(conf('expandable_segments:True'));
    expect(c4.ok).toBe(true);
    expect(final['reserved_bytes.all.current']).toBe(734_003_200);
    expect(final['allocated_bytes.all.current']).toBe(734_003_200);
    expect(final['segment.all.current']).toBe(0);
    expect(final.num_device_alloc).toBe(2);
    expect(final.num_device_free).toBe(4);
    expect(final.num_alloc_retries).toBe(1);
    expect(final.num_ooms).toBe(0);
    const v = viewAllocator(a);
    expect(v.segments).toHaveLength(1);
    expect(v.segments[0].size).toBe(58 * 20 * MiB);
    expect(v.segments[0].blocks.filter((b) => b.state === 'unmapped').map((b) => b.size / MiB)).toEqual([100, 100, 100, 100, 260 - 200]);
  });
});

describe('docs/reference/allocator.md §9 extra unit vectors', () => {
  it('a 1000 B request takes 1024 B from a new 2 MiB small segment', () => {
    const a = make(GiB);
    a.malloc('x', 1000);
    const s = st(a);
    expect(s['reserved_bytes.small_pool.current']).toBe(2_097_152);
    expect(s['allocated_bytes.small_pool.current']).toBe(1024);
    expect(s['reserved_bytes.large_pool.current']).toBe(0);
  });

  it('19.5 MiB: 20 MiB segment, 0.5 MiB remainder not split off', () => {
    const a = make(GiB);
    a.malloc('x', 20_447_232);
    const s = st(a);
    expect(s['allocated_bytes.all.current']).toBe(20_971_520);
    expect(s['requested_bytes.all.current']).toBe(20_447_232);
    expect(viewAllocator(a).segments[0].blocks).toHaveLength(1);
  });

  it('4 MiB on a cached free 5 MiB block: remaining 1 MiB is not > 1 MiB, whole block allocated', () => {
    const a = make(GiB);
    a.malloc('p', 5 * MiB);
    a.malloc('q', 15 * MiB);
    a.free('p');
    a.malloc('r', 4 * MiB);
    expect(a.live.get('r')?.size).toBe(5 * MiB);
  });

  it('M = 21 MiB: a 20.5 MiB request still splits its fresh 22 MiB segment (1.5 MiB remainder)', () => {
    const a = make(GiB, conf('max_split_size_mb:21'));
    a.malloc('x', 20.5 * MiB);
    expect(viewAllocator(a).segments[0].blocks.map((b) => [b.state, b.size])).toEqual([
      ['allocated', 20.5 * MiB],
      ['free', 1.5 * MiB],
    ]);
  });
});
