import { describe, expect, it } from 'vitest';
import { CachingAllocator } from '../../../src/core/allocator/allocator';
import { GiB, MiB } from '../../../src/core/units';
import { formatMemorySummary, parseMemorySummary } from '../../../src/core/allocator/summary';
import { viewAllocator } from '../../../src/core/allocator/view';

/** docs/reference/allocator.md §9 (i) after step C. */
function exampleIStats() {
  const a = new CachingAllocator({ capacity: 80 * GiB, overhead: 0, fraction: null });
  for (let i = 0; i < 10; i++) a.malloc(`t${i}`, 4 * MiB);
  for (const i of [0, 2, 4, 6, 8]) a.free(`t${i}`);
  a.malloc('big', 64 * MiB);
  return viewAllocator(a).stats;
}

describe('formatMemorySummary matches the exact lines of docs/reference/allocator.md §6.2', () => {
  const text = formatMemorySummary(exampleIStats());
  const lines = text.split('\n');
  it('every line is 75 characters between the bars', () => {
    for (const l of lines.filter(Boolean)) expect(l).toMatch(/^\|.{75}\|$/);
  });
  it.each([
    '|===========================================================================|',
    '|                  PyTorch CUDA memory summary, device ID 0                 |',
    '|            CUDA OOMs: 0            |        cudaMalloc retries: 0         |',
    '|        Metric         | Cur Usage  | Peak Usage | Tot Alloc  | Tot Freed  |',
    '| Allocated memory      |  86016 KiB |  86016 KiB | 106496 KiB |  20480 KiB |',
    '|       from large pool |  86016 KiB |  86016 KiB | 106496 KiB |  20480 KiB |',
    '|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 KiB |',
    '| GPU reserved memory   | 106496 KiB | 106496 KiB | 106496 KiB |      0 B   |',
    '|       from large pool | 106496 KiB | 106496 KiB | 106496 KiB |      0 B   |',
    '|       from small pool |      0 KiB |      0 KiB |      0 KiB |      0 B   |',
    '| Non-releasable memory |  20480 KiB |  20480 KiB |  53248 KiB |  32768 KiB |',
    '| Allocations           |       6    |      10    |      11    |       5    |',
    '| Oversize allocations  |       0    |       0    |       0    |       0    |',
    '| Oversize GPU segments |       0    |       0    |       0    |       0    |',
  ])('contains %s', (line) => {
    expect(lines).toContain(line);
  });
  it('switches to MiB at 768 MiB and to K counts at 750,000', () => {
    const s = { ...exampleIStats(), 'allocated_bytes.all.current': 800 * MiB, 'allocation.all.allocated': 800_000 };
    const t = formatMemorySummary(s);
    expect(t).toContain('| Allocated memory      |    800 MiB |');
    expect(t).toMatch(/\| Allocations {11}\| {7}6 {4}\| {6}10 {4}\| {5}800 K {2}\|/);
  });
});

describe('parseMemorySummary', () => {
  it('reads back the table within the printed precision', () => {
    const stats = exampleIStats();
    const r = parseMemorySummary(`noise\n${formatMemorySummary(stats)}trailing`);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.rows).toHaveLength(9 * 3 + 2);
    expect(r.value.numOoms).toBe(0);
    expect(r.value.device).toBe(0);
    expect(r.value.figures).toEqual({
      allocated: 88_080_384,
      reserved: 109_051_904,
      cachedFree: 20_971_520,
      nonReleasable: 20_971_520,
      releasable: 0,
      oversizeSegments: 0,
    });
    const alloc = r.value.rows.find((x) => x.stat === 'allocation' && x.pool === 'all');
    expect(alloc?.peak).toEqual({ value: 10, precision: 1 });
  });
  it('flags fragmentation when holes are large (the 2nd worked example after step 3)', () => {
    const a = new CachingAllocator({ capacity: GiB, overhead: 0, fraction: null });
    a.malloc('a', 900 * MiB);
    a.free('a');
    for (let i = 1; i <= 9; i++) a.malloc(`B${i}`, 100 * MiB);
    for (const i of [1, 3, 5, 7]) a.free(`B${i}`);
    const r = parseMemorySummary(formatMemorySummary(viewAllocator(a).stats, 0, true));
    expect(r.ok && r.value.diagnosis.code).toBe('summary.fragmented');
    expect(r.ok && r.value.figures.nonReleasable).toBe(400 * MiB);
    expect(r.ok && r.value.advice.map((x) => x.code)).toEqual(['expandable-segments']);
  });
  it('names non-summary text', () => {
    expect(parseMemorySummary('hello')).toMatchObject({ ok: false, message: { code: 'summary-not-found' } });
  });
});
