// The printed dict of torch.cuda.memory_stats(). Fixtures: tests/fixtures/memory-stats/make.py prints them with
// Python's own repr / pprint, keys as torch/cuda/memory.py documents them (docs/reference/allocator.md §6.1),
// values chosen by hand; every expected figure below is worked out by hand from those values.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAllocConf } from '../../../src/core/allocator/config';
import { parseMemoryStats, type StatsReading } from '../../../src/core/allocator/stats-dict';

const MiB = 2 ** 20;
const GiB = 2 ** 30;
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/memory-stats/${name}`, import.meta.url), 'utf8');

function ok(text: string, conf: Parameters<typeof parseMemoryStats>[1] = null): StatsReading {
  const r = parseMemoryStats(text, conf);
  if (!r.ok) throw new Error(r.message.text);
  return r.value;
}

describe('memory_stats() after the fragmentation OOM of docs/reference/allocator.md §9 (ii), printed as OrderedDict([...])', () => {
  const r = ok(fixture('fragmentation-oom.txt'));

  it('reads every documented key (9 stats × 3 pools × 4 + 2 oversize × 4 + 6 counters = 122)', () => {
    expect(r.form).toBe('OrderedDict');
    expect(r.entries).toBe(122);
    expect(r.more).toBe(false);
  });

  it('allocated / reserved current and peak; fragmentation from inactive_split_bytes', () => {
    // five live 100 MiB tensors in one 900 MiB segment; four 100 MiB holes between them
    expect(r.figures).toMatchObject({ allocated: 524_288_000, allocatedPeak: 943_718_400, reserved: 943_718_400, reservedPeak: 943_718_400 });
    expect(r.figures.cachedFree).toBe(400 * MiB);
    expect(r.figures.nonReleasable).toBe(419_430_400);
    // every cached byte is a hole inside the partly used segment: empty_cache() frees nothing
    expect(r.figures.releasable).toBe(0);
    // max_split_size −1 is SIZE_MAX cast to int64: unlimited
    expect(r.figures.maxSplitSize).toBeNull();
  });

  it('holes of 400 MiB in a 900 MiB reserve are fragmentation; expandable segments advised; the OOM and the retry are noted', () => {
    expect(r.diagnosis.code).toBe('summary.fragmented');
    expect(r.advice.map((a) => a.code)).toEqual(['expandable-segments']);
    expect(r.counters).toEqual({ numAllocRetries: 1, numOoms: 1, numSyncAllStreams: 1, numDeviceAlloc: 1, numDeviceFree: 0 });
    // one synchronisation, and it was the retry's flush: no empty_cache() note
    expect(r.notes.map((n) => n.code)).toEqual(['stats.note.ooms', 'stats.note.retries']);
  });

  it('a user who already runs expandable_segments:True is not told to set it', () => {
    const conf = parseAllocConf('expandable_segments:True');
    if (!conf.ok) throw new Error('conf');
    const again = ok(fixture('fragmentation-oom.txt'), { text: 'expandable_segments:True', value: conf.value });
    expect(again.advice.map((a) => a.code)).toEqual(['already-set']);
    expect(again.advice[0].params.settings).toBe('expandable_segments:True');
  });
});

describe('memory_stats() of a run at the card limit with max_split_size_mb:128, pprint-ed as a plain dict', () => {
  const r = ok(fixture('retries-pprint.txt'));

  it('reads the multi-line pprint form', () => {
    expect(r.form).toBe('dict');
    expect(r.entries).toBe(122);
  });

  it('figures: 1 GiB cached, 100 MiB of it in holes, the rest releasable; max_split_size 128 MiB', () => {
    expect(r.figures.cachedFree).toBe(GiB);
    expect(r.figures.nonReleasable).toBe(100 * MiB);
    expect(r.figures.releasable).toBe(GiB - 100 * MiB);
    expect(r.figures.requested).toBe(19 * GiB - 3 * MiB);
    expect(r.figures.maxSplitSize).toBe(128 * MiB);
  });

  it('37 retries without fragmentation: cache thrash at the limit; expandable segments keep the run’s own max_split_size_mb', () => {
    expect(r.diagnosis).toMatchObject({ code: 'stats.retries', params: { retries: 37 } });
    expect(r.advice.map((a) => a.code)).toEqual(['expandable-segments', 'lower-peak']);
    // the dict's max_split_size is the run's setting: the export line keeps it
    expect(r.advice[0].params.value).toBe('max_split_size_mb:128,expandable_segments:True');
  });

  it('notes: 40 synchronisations − 37 retry flushes = 3 empty_cache() calls; 2 oversize allocations in 3 oversize segments', () => {
    expect(r.notes).toEqual([
      expect.objectContaining({ code: 'stats.note.syncs', params: { syncs: 3 } }),
      expect.objectContaining({ code: 'stats.note.oversize', params: { mb: 128, allocations: 2, segments: 3 } }),
    ]);
  });
});

describe('other printed forms and bad input', () => {
  it('Python 3.12 prints OrderedDict({...}); json.dumps uses double quotes', () => {
    const py312 = "OrderedDict({'allocated_bytes.all.current': 1024, 'allocated_bytes.all.peak': 4096, 'reserved_bytes.all.current': 2097152, 'num_alloc_retries': 0})";
    const r = ok(py312);
    expect(r.form).toBe('OrderedDict');
    expect(r.figures).toMatchObject({ allocated: 1024, allocatedPeak: 4096, reserved: 2 * MiB, cachedFree: 2 * MiB - 1024 });
    expect(ok('{"reserved_bytes.all.current": 20971520, "allocated_bytes.all.current": 4194304}').figures.cachedFree).toBe(16 * MiB);
  });

  it('only the first dict of a log is read, and the log says there is more', () => {
    const one = "{'allocated_bytes.all.current': 1, 'reserved_bytes.all.current': 2097152}";
    const r = ok(`step 1 ${one}\nstep 2 ${one.replace(': 1,', ': 7,')}`);
    expect(r.figures.allocated).toBe(1);
    expect(r.more).toBe(true);
  });

  it('an uninitialised device prints an empty dict: said so, not "not found"', () => {
    for (const t of ['OrderedDict()', 'OrderedDict([])', '{}']) {
      const r = parseMemoryStats(t);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message.code).toBe('stats-empty');
    }
  });

  it('text without the allocator keys is not a memory_stats() dict', () => {
    const r = parseMemoryStats("{'loss': 3, 'step': 10}");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message.code).toBe('stats-not-found');
  });

  it('a 400-digit value is an error naming the key, never Infinity', () => {
    const r = parseMemoryStats(`{'allocated_bytes.all.current': 1, 'reserved_bytes.all.peak': ${'9'.repeat(400)}}`);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message.code).toBe('stats-out-of-range');
      expect(r.message.params?.key).toBe('reserved_bytes.all.peak');
      expect(JSON.stringify(r)).not.toMatch(/Infinity|NaN/);
    }
  });
});
