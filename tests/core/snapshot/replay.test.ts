// Snapshots written by CPython's pickle (fixtures/make_fixtures.py) replayed through the allocator
// model. Expected figures are the hand-worked examples of docs/reference/allocator.md §9, which
// the fixture script's docstrings derive step by step from the allocator's rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareConfs } from '../../../src/core/allocator/compare';
import { importSnapshot, importSnapshotPickle, type HistoryImport } from '../../../src/core/allocator/history-import';
import { replayFidelity } from '../../../src/core/allocator/replay-fidelity';
import { simulateTrace } from '../../../src/core/allocator/run';
import { unpickle } from '../../../src/core/snapshot/pickle';

const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, 'fixtures', name)));
const MiB = 2 ** 20;

function load(name: string, device?: number): HistoryImport {
  const h = importSnapshotPickle(fixture(name), device);
  if (!h.ok) throw new Error(h.error.text);
  return h.value;
}

describe('classic trace (§9 i, steps A–C) recorded as a snapshot', () => {
  it.each(['classic.p2.pickle', 'classic.p4.pickle', 'classic.p5.pickle'])('%s: the recorded figures', (name) => {
    const h = load(name);
    expect(h.device).toBe(0);
    // ten allocs + the 64 MiB one; five frees (free_completed)
    expect([h.allocs, h.frees, h.unmatchedFrees]).toEqual([11, 5, 0]);
    // three segment_alloc entries, 20 + 20 + 64 MiB, recorded from the first event: nothing reserved before
    expect(h.recorded).toEqual({ deviceAllocs: 3, deviceFrees: 0, reservedStart: 0, reservedPeak: 109_051_904, reservedEnd: 109_051_904, allocatedEnd: 88_080_384, ooms: 0 });
    expect(h.trace.settings).toEqual({ capacity: null, overhead: null, fraction: null, conf: null });
  });
  it('the default replay reproduces it: 3 device allocations, 104 MiB reserved, 84 MiB allocated', () => {
    const h = load('classic.p4.pickle');
    const r = simulateTrace(h.trace);
    if (!r.ok) throw new Error(r.errors[0].message);
    expect(r.value.final.stats['allocated_bytes.all.current']).toBe(88_080_384);
    const f = replayFidelity(h.recorded, r.value);
    expect(f).toEqual({
      conf: '',
      recorded: { deviceAllocs: 3, reservedPeak: 109_051_904, ooms: 0 },
      replayed: { deviceAllocs: 3, reservedPeak: 109_051_904, ooms: 0 },
      reservedPeakError: 0,
      notes: [],
    });
  });
  it('a recording that begins late: the reserved start comes from `segments`, and the fidelity says so', () => {
    const p = unpickle(fixture('classic.p4.pickle'));
    if (!p.ok) throw new Error(p.error.text);
    const snap = p.value as { device_traces: unknown[][]; segments: unknown[] };
    // drop the first segment_alloc and t0's alloc: the window opens with S1 (20 MiB) reserved
    const late = { ...snap, device_traces: [snap.device_traces[0].slice(2)] };
    const h = importSnapshot(late);
    if (!h.ok) throw new Error(h.error.text);
    expect(h.value.recorded).toMatchObject({ deviceAllocs: 2, reservedStart: 20 * MiB, reservedPeak: 104 * MiB });
    // t0's free refers to an alloc before the window
    expect(h.value.unmatchedFrees).toBe(1);
    expect(h.value.notes.map((n) => n.code)).toEqual(['history-window']);
    const r = simulateTrace(h.value.trace);
    if (!r.ok) throw new Error(r.errors[0].message);
    expect(replayFidelity(h.value.recorded, r.value).notes.map((n) => n.code)).toEqual(['fidelity-window']);
  });
});

describe('fragmentation OOM (§9 ii) recorded as a snapshot: the three settings differ', () => {
  it('recorded: one 900 MiB segment, one OOM; the card size comes from the OOM entry', () => {
    const h = load('fragmentation.p4.pickle');
    expect(h.recorded).toMatchObject({ deviceAllocs: 1, reservedPeak: 943_718_400, ooms: 1 });
    // reserved 900 MiB + device_free 124 MiB
    expect(h.trace.settings.capacity).toBe(1024 * MiB);
    expect(h.notes.map((n) => n.code)).toContain('history-capacity-from-oom');
  });
  it('default reproduces the OOM; max_split_size_mb:128 and expandable_segments:True avoid it (§9 ii figures)', () => {
    const r = compareConfs(load('fragmentation.p4.pickle').trace);
    if (!r.ok) throw new Error(r.errors[0].message);
    expect(r.value.map((x) => [x.conf, x.ooms, x.peakReserved, x.finalReserved, x.deviceAllocs])).toEqual([
      ['', 1, 943_718_400, 943_718_400, 1],
      // the cached 900 MiB block is oversize: B1 gets its own 100 MiB segment beside it (peak 1000 MiB); B2 needs
      // room, the 900 MiB block is released; each 100 MiB tensor has a segment, the flush frees four for c
      ['max_split_size_mb:128', 0, 1000 * MiB, 734_003_200, 11],
      ['expandable_segments:True', 0, 943_718_400, 734_003_200, 2],
    ]);
  });
  it('the default replay against the recorded run: same segment count, peak and OOM', () => {
    const h = load('fragmentation.p4.pickle');
    const r = simulateTrace(h.trace);
    if (!r.ok) throw new Error(r.errors[0].message);
    expect(replayFidelity(h.recorded, r.value)).toMatchObject({ recorded: { deviceAllocs: 1, reservedPeak: 943_718_400, ooms: 1 }, replayed: { deviceAllocs: 1, reservedPeak: 943_718_400, ooms: 1 } });
  });
});

describe('snapshot structure', () => {
  it('the recorded PYTORCH_CUDA_ALLOC_CONF becomes the replay setting', () => {
    const h = importSnapshot({ device_traces: [[]], allocator_settings: { PYTORCH_CUDA_ALLOC_CONF: 'expandable_segments:True' } });
    expect(h.ok && h.value.trace.settings.conf).toBe('expandable_segments:True');
  });
  it('picks the first device with entries, and names the devices when asked for one without', () => {
    const two = { device_traces: [[], [{ action: 'alloc', addr: 4096, size: 512 }]] };
    const h = importSnapshot(two);
    expect(h.ok && h.value.device).toBe(1);
    expect(importSnapshot(two, 2)).toMatchObject({ ok: false, error: { code: 'history-no-device', text: 'no trace for device 2 (devices with entries: 1)' } });
  });
  it('segment_map / segment_unmap (expandable segments) count as device allocations and frees', () => {
    const h = importSnapshot({
      device_traces: [
        [
          { action: 'segment_map', addr: 0, size: 20 * MiB },
          { action: 'segment_map', addr: 20 * MiB, size: 20 * MiB },
          { action: 'segment_unmap', addr: 0, size: 20 * MiB },
        ],
      ],
    });
    expect(h.ok && h.value.recorded).toMatchObject({ deviceAllocs: 2, deviceFrees: 1, reservedStart: 0, reservedPeak: 40 * MiB, reservedEnd: null });
  });
  it('a pickle that is not a snapshot, and a broken one, are named errors', () => {
    expect(importSnapshotPickle(fixture('ordered-dict.p4.pickle'))).toMatchObject({ ok: false, error: { code: 'pickle-code' } });
    expect(importSnapshotPickle(fixture('plain.p4.pickle'))).toMatchObject({ ok: false, error: { code: 'history-no-traces' } });
  });
});
