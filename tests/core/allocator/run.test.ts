import { describe, expect, it } from 'vitest';
import { parseTrace } from '../../../src/core/allocator/trace';
import { simulateTrace, stepAt, viewAt, type SimRun } from '../../../src/core/allocator/run';
import { findPreset, TRACE_PRESETS } from '../../../src/core/allocator/presets';
import { compareConfs } from '../../../src/core/allocator/compare';

const runPreset = (id: string, conf?: string): SimRun => {
  const p = parseTrace(findPreset(id)?.text ?? '');
  if (!p.ok) throw new Error(p.errors[0].message);
  const r = simulateTrace(p.trace, conf === undefined ? {} : { conf });
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value;
};

describe('presets reproduce docs/reference/allocator.md §9', () => {
  it('every preset parses and simulates', () => {
    for (const p of TRACE_PRESETS) expect(runPreset(p.id).timeline.reserved.length).toBeGreaterThan(0);
  });
  it('classic: reserved 104 MiB, allocated 84 MiB (§9 i step C); 20 MiB cached in 4 MiB holes', () => {
    const r = runPreset('classic');
    expect(r.final.cachedFree).toBe(20 * 2 ** 20);
    expect(r.final.largestFreeBlock).toBe(4 * 2 ** 20);
    expect(r.final.stats['reserved_bytes.all.current']).toBe(109_051_904);
    expect(r.final.stats['allocated_bytes.all.current']).toBe(88_080_384);
    expect(r.oomSteps).toEqual([]);
  });
  it('classic-followup with max_split_size_mb:64: 150,994,944 reserved (§9 i step D)', () => {
    expect(runPreset('classic-followup', 'max_split_size_mb:64').final.stats['reserved_bytes.all.current']).toBe(150_994_944);
    expect(runPreset('classic-followup').final.stats['reserved_bytes.all.current']).toBe(176_160_768);
  });
  it('fragmentation-oom fails on the last line with the 2.4 text; the two cures succeed', () => {
    const r = runPreset('fragmentation-oom');
    expect(r.oomSteps).toEqual([r.events.length - 1]);
    expect(stepAt(r, r.events.length - 1)?.oomMessage).toMatch(
      /^torch\.OutOfMemoryError: CUDA out of memory\. Tried to allocate 200\.00 MiB\. GPU 0 has a total capacity of 1024\.00 MiB of which 124\.00 MiB is free\./,
    );
    for (const id of ['fragmentation-max-split', 'fragmentation-expandable']) {
      const ok = runPreset(id);
      expect(ok.oomSteps).toEqual([]);
      expect(ok.final.stats['reserved_bytes.all.current']).toBe(734_003_200);
    }
  });
  it('rounding preset: 1024 B small block, unsplit 20 MiB and 5 MiB blocks', () => {
    const r = runPreset('rounding');
    expect(r.events.map((_, i) => stepAt(r, i)?.blockSize)).toEqual([1024, 20_971_520, 5_242_880, 15_728_640, undefined, 5_242_880]);
  });
});

describe('simulateTrace settings and stepping', () => {
  it('options override trace settings; bad conf is a named error', () => {
    const p = parseTrace('capacity 1GiB\nalloc a 10MiB\n');
    if (!p.ok) throw new Error('parse');
    const r = simulateTrace(p.trace, { conf: 'max_split_size_mb:10' });
    expect(r).toEqual({ ok: false, errors: [{ key: 'conf', code: 'conf-max-split-small', message: 'CachingAllocator option max_split_size_mb too small, must be > 20' }] });
    const big = simulateTrace(p.trace, { capacity: 2 ** 31 });
    expect(big.ok && big.value.final.capacity).toBe(2 ** 31);
  });

  it('viewAt rebuilds any step, equal to simulating the prefix', () => {
    const lines = ['capacity 4GiB'];
    for (let i = 0; i < 300; i++) {
      lines.push(`alloc x${i} ${((i * 7919) % 50) + 1}MiB`);
      if (i % 3 === 2) lines.push(`free x${i - 1}`);
    }
    const p = parseTrace(lines.join('\n'));
    if (!p.ok) throw new Error('parse');
    const full = simulateTrace(p.trace, { checkpointEvery: 64 });
    if (!full.ok) throw new Error('sim');
    expect(full.value.checkpoints.length).toBeGreaterThan(1);
    for (const k of [-1, 0, 63, 64, 65, 200, p.trace.events.length - 1]) {
      const prefix = simulateTrace({ ...p.trace, events: p.trace.events.slice(0, k + 1) });
      if (!prefix.ok) throw new Error('sim');
      expect(viewAt(full.value, k)).toEqual(prefix.value.final);
    }
  });

  it('a free after a failed alloc is skipped with a note', () => {
    const p = parseTrace('capacity 100MiB\nalloc big 200MiB\nfree big\n');
    if (!p.ok) throw new Error('parse');
    const r = simulateTrace(p.trace, { version: '2.1' });
    if (!r.ok) throw new Error('sim');
    const steps = [0, 1, 2, -1].map((i) => stepAt(r.value, i));
    expect(steps.map((s) => s?.outcome)).toEqual(['oom', 'skipped', undefined, undefined]);
    expect(steps[0]?.oomMessage).toContain('total capacty of 100.00 MiB');
    expect(steps[1]?.note?.code).toBe('free-not-live');
    expect(Array.from(r.value.timeline.reserved)).toEqual([0, 0]);
  });
});

describe('compareConfs', () => {
  it('§9 (ii): default OOMs on the last line; max_split_size_mb:128 and expandable segments do not', () => {
    const p = parseTrace(findPreset('fragmentation-oom')?.text ?? '');
    if (!p.ok) throw new Error('parse');
    const r = compareConfs(p.trace);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.map((x) => [x.conf, x.ooms, x.firstOomLine, x.finalReserved, x.retries, x.deviceAllocs])).toEqual([
      ['', 1, p.trace.events.at(-1)?.line, 943_718_400, 1, 1],
      ['max_split_size_mb:128', 0, null, 734_003_200, 1, 11],
      ['expandable_segments:True', 0, null, 734_003_200, 1, 2],
    ]);
    expect(r.value[1].peakReserved).toBe(1_048_576_000);
  });
  it('names the conf that failed to parse', () => {
    const r = compareConfs({ settings: { capacity: null, overhead: null, fraction: null, conf: null }, events: [] }, ['max_split_size_mb:1']);
    expect(r.ok || r.errors[0].params).toEqual({ conf: 'max_split_size_mb:1' });
  });
});

describe('expandable segments on a card smaller than a page', () => {
  // ExpandableSegment reserves numSegments(total + total / 8) pages, rounded UP (CUDACachingAllocator.cpp),
  // so even a 1-byte card gets one 2 MiB page of address space; mapping it fails, which is an OOM, not a crash
  it('a 1-byte card: each allocation is an OOM and the run finishes', () => {
    const p = parseTrace('capacity 1\nconf expandable_segments:True\nalloc t0 219991326\nfree t0\nalloc t1 720 MiB\nalloc t2 6959x1753 float64\nempty_cache');
    if (!p.ok) throw new Error(p.errors[0].message);
    const r = simulateTrace(p.trace);
    if (!r.ok) throw new Error(r.errors[0].message);
    expect(r.value.oomSteps).toEqual([0, 2, 3]);
    expect(r.value.final.stats['reserved_bytes.all.current']).toBe(0);
  });
});
