import { describe, expect, it } from 'vitest';
import { importMemoryHistory } from '../../../src/core/allocator/history-import';
import { simulateTrace } from '../../../src/core/allocator/run';

const MiB = 2 ** 20;
/** A device trace of TraceEntry dicts, one stream, from [action, addr, size] rows. */
const history = (rows: [string, number, number][]) => JSON.stringify({ device_traces: [rows.map(([action, addr, size]) => ({ action, addr, size, stream: 0 }))] });
const ops = (json: string) => {
  const r = importMemoryHistory(json);
  if (!r.ok) throw new Error(r.error.text);
  return r.value.trace.events.map((e) => e.op);
};

// Entries shaped like torch.cuda.memory._snapshot()["device_traces"] (TraceEntry dicts).
const sample = {
  total_memory: 17_179_869_184,
  allocator_settings: 'expandable_segments:True',
  device_traces: [
    [
      { action: 'segment_alloc', addr: 139_637_976_727_552, size: 20_971_520, stream: 0 },
      { action: 'alloc', addr: 139_637_976_727_552, size: 4_194_304, stream: 0 },
      { action: 'alloc', addr: 139_637_980_921_856, size: 4_194_304, stream: 0 },
      { action: 'free_requested', addr: 139_637_976_727_552, size: 4_194_304, stream: 0 },
      { action: 'free_completed', addr: 139_637_976_727_552, size: 4_194_304, stream: 0 },
      { action: 'free_completed', addr: 1_000_000, size: 512, stream: 0 },
      { action: 'oom', addr: 0, size: 2_097_152, stream: 0 },
    ],
  ],
};

describe('importMemoryHistory', () => {
  it('turns alloc / free_completed entries into a trace, and the oom entry into the request that failed', () => {
    const r = importMemoryHistory(JSON.stringify(sample));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.trace.settings).toEqual({ capacity: 17_179_869_184, overhead: null, fraction: null, conf: 'expandable_segments:True' });
    expect(r.value.trace.events.map((e) => e.op + (e.op === 'empty_cache' ? '' : ` ${e.name}`))).toEqual(['alloc 0x7f0000000000', 'alloc 0x7f0000400000', 'free 0x7f0000000000', 'alloc oom-6']);
    expect(r.value).toMatchObject({ allocs: 2, frees: 1, unmatchedFrees: 1, recorded: { deviceAllocs: 1, ooms: 1 } });
    expect(r.value.notes.map((n) => n.code)).toEqual(['history-window']);
  });
  it('uses free_requested when a trace has no free_completed', () => {
    const t = {
      device_traces: [
        [
          { action: 'alloc', addr: 4096, size: 100 },
          { action: 'free_requested', addr: 4096, size: 100 },
        ],
      ],
    };
    const r = importMemoryHistory(JSON.stringify(t));
    expect(r.ok && r.value.trace.events.map((e) => e.op)).toEqual(['alloc', 'free']);
  });
  it('names bad input', () => {
    expect(importMemoryHistory('{oops')).toMatchObject({ ok: false, error: { code: 'history-not-json' } });
    expect(importMemoryHistory('{"segments": []}')).toMatchObject({ ok: false, error: { code: 'history-no-traces' } });
    expect(importMemoryHistory('{"device_traces": [[{"action": "alloc", "addr": "x", "size": 1}]]}')).toMatchObject({ ok: false, error: { code: 'history-bad-entry' } });
  });
  describe('segments given back outside an allocation (torch.cuda.empty_cache())', () => {
    // A 4 MiB request is large (> 1 MiB) and under kMinLargeAlloc (10 MiB), so PyTorch cudaMallocs a
    // kLargeBuffer (20 MiB) segment for it (get_allocation_size); a 512 B request gets a kSmallBuffer
    // (2 MiB) segment of the small pool. Freed, the 20 MiB segment is cached whole; empty_cache()
    // (release_cached_blocks) cudaFrees it and keeps the small segment, in use. The freeing of the
    // small tensor comes next, so the release was no malloc's. The next 4 MiB request needs a second
    // 20 MiB cudaMalloc: 3 in all, peak 22 MiB. Without the empty_cache the cached segment would
    // serve it: 2 cudaMallocs.
    const A = 0x7f0000000000;
    const B = 0x7f0002000000;
    const S = 0x7f0004000000;
    const run = history([
      ['segment_alloc', S, 2 * MiB],
      ['alloc', S, 512],
      ['segment_alloc', A, 20 * MiB],
      ['alloc', A, 4 * MiB],
      ['free_completed', A, 4 * MiB],
      ['segment_free', A, 20 * MiB],
      ['free_completed', S, 512],
      ['segment_alloc', B, 20 * MiB],
      ['alloc', B, 4 * MiB],
    ]);

    it('replays the release as empty_cache, so the next request cudaMallocs again as the run did', () => {
      const r = importMemoryHistory(run);
      if (!r.ok) throw new Error(r.error.text);
      expect(r.value.trace.events.map((e) => e.op)).toEqual(['alloc', 'alloc', 'free', 'empty_cache', 'free', 'alloc']);
      expect(r.value.trace.events[3]).toMatchObject({ line: 6 });
      expect(r.value.notes.map((n) => n.code)).toEqual(['history-empty-cache']);
      expect(r.value.notes[0]?.params).toEqual({ calls: 1 });
      expect(r.value.recorded).toMatchObject({ deviceAllocs: 3, deviceFrees: 1, reservedPeak: 22 * MiB });
      const sim = simulateTrace(r.value.trace);
      if (!sim.ok) throw new Error('simulation refused');
      expect(sim.value.final.stats.num_device_alloc).toBe(3);
      expect(sim.value.final.stats.num_device_free).toBe(1);
      expect(sim.value.peakReserved).toBe(22 * MiB);
    });

    /** a 4 MiB tensor in its own 20 MiB segment, freed, and the segment given back */
    const released: [string, number, number][] = [
      ['segment_alloc', A, 20 * MiB],
      ['alloc', A, 4 * MiB],
      ['free_completed', A, 4 * MiB],
      ['segment_free', A, 20 * MiB],
    ];

    it('leaves a release followed by a new segment to the replay: malloc’s own retry looks so', () => {
      // malloc(): release_available_cached_blocks / release_cached_blocks, then alloc_block (SEGMENT_ALLOC);
      // an empty_cache() right before a request that needs a new segment reads the same
      const retry = history([...released, ['segment_alloc', B, 64 * MiB], ['alloc', B, 64 * MiB]]);
      expect(ops(retry)).toEqual(['alloc', 'free', 'alloc']);
    });

    it('reads a release followed by an oom entry as the failed malloc’s, and one at the end as a call', () => {
      const failed = history([...released, ['oom', 0, 64 * MiB]]);
      expect(ops(failed)).toEqual(['alloc', 'free', 'alloc']);
      const atEnd = history([...released, ['segment_free', B, 2 * MiB]]);
      expect(ops(atEnd)).toEqual(['alloc', 'free', 'empty_cache']);
    });
  });

  it('gives an alloc that made a segment the segment’s recorded address, and no other alloc', () => {
    // alloc_block records SEGMENT_ALLOC, then alloc_found_block the ALLOC of the block at the
    // segment's start (CUDACachingAllocator.cpp): the two entries are adjacent, with one address
    const A = 0x7fb400000000;
    const r = importMemoryHistory(
      history([
        ['segment_alloc', A, 20 * MiB],
        ['alloc', A, 4 * MiB],
        ['alloc', A + 4 * MiB, 4 * MiB],
        ['segment_alloc', A - 20 * MiB, 20 * MiB],
        ['alloc', A + 8 * MiB, 4 * MiB],
      ]),
    );
    if (!r.ok) throw new Error(r.error.text);
    expect(r.value.trace.events.map((e) => (e.op === 'alloc' ? e.segmentAt : null))).toEqual([A, undefined, undefined]);
  });
});
