/**
 * Active memory stacked by top stack frame, on traces worked by hand from docs/reference/allocator.md
 * §1 (a 1–10 MiB request takes a block of its size rounded to 512 B, carved from a 20 MiB segment;
 * a request ≤ 1 MiB takes a 512 B multiple in the small pool), and on the real H200 snapshot.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { activeByFrame } from '../../../src/core/allocator/frame-series';
import { importSnapshotPickle } from '../../../src/core/allocator/history-import';
import { simulateTrace } from '../../../src/core/allocator/run';
import type { Trace, TraceEvent } from '../../../src/core/allocator/trace';

const MiB = 2 ** 20;
const alloc = (name: string, size: number, frame?: string): TraceEvent => ({ op: 'alloc', name, size, line: 0, ...(frame ? { frame } : {}) });
const free = (name: string): TraceEvent => ({ op: 'free', name, line: 0 });
const run = (events: TraceEvent[]) => {
  const trace: Trace = { settings: { capacity: null, overhead: null, fraction: null, conf: null }, events };
  const r = simulateTrace(trace);
  if (!r.ok) throw new Error('does not simulate');
  return r.value;
};

describe('active memory by top frame', () => {
  test('each tensor counts its block from alloc to free under its frame; no frame is "unknown"', () => {
    const s = activeByFrame(run([alloc('a', 4 * MiB, 'model.py:10 forward'), alloc('b', 4 * MiB, 'loss.py:3 loss'), alloc('c', 1000), free('a'), alloc('d', 8 * MiB, 'model.py:10 forward')]))!;
    expect(s.groups).toEqual([{ kind: 'frame', frame: 'model.py:10 forward' }, { kind: 'frame', frame: 'loss.py:3 loss' }, { kind: 'unknown' }]);
    // 1000 B rounds up to a 1024 B small-pool block
    expect(s.points).toEqual([
      { step: 0, bytes: [0, 0, 0] },
      { step: 1, bytes: [4 * MiB, 0, 0] },
      { step: 2, bytes: [4 * MiB, 4 * MiB, 0] },
      { step: 3, bytes: [4 * MiB, 4 * MiB, 1024] },
      { step: 4, bytes: [0, 4 * MiB, 1024] },
      { step: 5, bytes: [8 * MiB, 4 * MiB, 1024] },
    ]);
    expect(s.peaks).toEqual([8 * MiB, 4 * MiB, 1024]);
  });

  test('beyond the series limit the smallest frames are summed as "other"', () => {
    const s = activeByFrame(run([alloc('x', 2 * MiB, 'c.py:1 small'), alloc('y', 8 * MiB, 'a.py:1 big'), free('x'), alloc('z', 4 * MiB, 'b.py:1 mid'), alloc('u', 1000)]), 3)!;
    // three frames and "unknown" in three series: the biggest frame, then the other two together
    expect(s.groups).toEqual([{ kind: 'frame', frame: 'a.py:1 big' }, { kind: 'other' }, { kind: 'unknown' }]);
    expect(s.points.map((p) => p.bytes)).toEqual([
      [0, 0, 0],
      [0, 2 * MiB, 0],
      [8 * MiB, 2 * MiB, 0],
      [8 * MiB, 0, 0],
      [8 * MiB, 4 * MiB, 0],
      [8 * MiB, 4 * MiB, 1024],
    ]);
    expect(s.peaks).toEqual([8 * MiB, 4 * MiB, 1024]);
  });

  test('a failed allocation holds nothing; a trace without frames has no chart', () => {
    const trace: Trace = { settings: { capacity: 20 * MiB, overhead: null, fraction: null, conf: null }, events: [alloc('a', 4 * MiB, 'm.py:1 f'), alloc('huge', 64 * MiB, 'm.py:2 g')] };
    const r = simulateTrace(trace);
    if (!r.ok) throw new Error('does not simulate');
    expect(r.value.oomSteps).toEqual([1]);
    const s = activeByFrame(r.value)!;
    expect(s.groups).toEqual([{ kind: 'frame', frame: 'm.py:1 f' }]);
    expect(s.points.at(-1)!.bytes).toEqual([4 * MiB]);
    expect(activeByFrame(run([alloc('a', 4 * MiB)]))).toBeNull();
  });

  test('the real H200 run: the stack is allocated_bytes at every point, and peaks where PyTorch did', () => {
    const bytes = gunzipSync(readFileSync(new URL('../../fixtures/torch-snapshot/train-varied.pickle.gz', import.meta.url)));
    const imported = importSnapshotPickle(new Uint8Array(bytes));
    if (!imported.ok) throw new Error(imported.error.text);
    const r = simulateTrace(imported.value.trace);
    if (!r.ok) throw new Error('does not simulate');
    const s = activeByFrame(r.value)!;
    expect(s.groups.length).toBeLessThanOrEqual(8);
    expect(s.groups).toContainEqual({ kind: 'other' });
    expect(s.groups).toContainEqual({ kind: 'unknown' });
    // torch.cuda.memory_stats() of that run (train-varied.default.stats.json): allocated_bytes.all.peak
    const stats = JSON.parse(readFileSync(new URL('../../fixtures/torch-snapshot/train-varied.default.stats.json', import.meta.url), 'utf8')) as { memory_stats: Record<string, number> };
    const stacked = s.points.map((p) => p.bytes.reduce((a, b) => a + b, 0));
    const allocated = r.value.timeline.allocated;
    expect(stacked).toEqual(s.points.map((p) => (p.step === 0 ? 0 : allocated[p.step - 1])));
    // PyTorch's peak is 2,571,257,856 B; the replay's is 512 KiB above it (the replay's own gap, not the chart's)
    const real = stats.memory_stats['allocated_bytes.all.peak'];
    expect(real).toBe(2_571_257_856);
    expect(Math.abs(Math.max(...stacked) - real)).toBeLessThanOrEqual(2 ** 20);
  });
});
