/**
 * The lab simulator's message protocol (sim-engine.ts), called directly as sim.worker.ts calls it,
 * against docs/reference/allocator.md §9 worked examples.
 */
import { describe, expect, test } from 'vitest';
import { findPreset } from '../../../src/core/allocator/presets';
import { parseTrace } from '../../../src/core/allocator/trace';
import { packTrace } from '../../../src/core/allocator/trace-pack';
import { createSimEngine, resultOf, type SimResponse } from '../../../src/ui/lab/sim-engine';

const MiB = 2 ** 20;
const preset = (id: string) => {
  const p = parseTrace(findPreset(id)!.text);
  if (!p.ok) throw new Error('preset does not parse');
  return packTrace(p.trace);
};
/** The response's result, checked to answer in kind. */
function result<K extends SimResponse['kind']>(res: SimResponse, kind: K) {
  expect(res.kind).toBe(kind);
  return resultOf(res, kind);
}

describe('simulator engine protocol', () => {
  test('before a run, steps and comparisons answer null', () => {
    const e = createSimEngine();
    expect(e.handle({ kind: 'step', step: 0 })).toEqual({ kind: 'step', result: null });
    expect(e.handle({ kind: 'compare', confs: [''] })).toEqual({ kind: 'compare', result: null });
  });

  test('§9 (i): the run summary, then any step on request (null: the last; clamped to the run)', () => {
    const e = createSimEngine();
    const load = result(e.handle({ kind: 'load', trace: preset('classic') }), 'load');
    if (!load?.ok) throw new Error('load failed');
    expect(load.summary).toMatchObject({ events: 16, capacity: 80 * 2 ** 30, peakReserved: 104 * MiB, peakAllocated: 84 * MiB, oomCount: 0, firstOomLine: null, leadUp: null, byFrame: null });
    expect(load.summary.timeline).toHaveLength(17);
    // step B (after the five frees, index 14): reserved 40 MiB, allocated 20 MiB, largest hole 4 MiB
    const b = result(e.handle({ kind: 'step', step: 14 }), 'step')!;
    expect(b.step).toBe(14);
    expect(b.view.stats['reserved_bytes.all.current']).toBe(40 * MiB);
    expect(b.view.stats['allocated_bytes.all.current']).toBe(20 * MiB);
    expect(b.view.largestFreeBlock).toBe(4 * MiB);
    expect(b.rec).toMatchObject({ op: 'free', name: 't8', outcome: 'ok' });
    const end = result(e.handle({ kind: 'step', step: null }), 'step')!;
    expect(end.step).toBe(15);
    expect(end.view.stats['reserved_bytes.all.current']).toBe(104 * MiB);
    expect(result(e.handle({ kind: 'step', step: 99 }), 'step')!.step).toBe(15);
    const start = result(e.handle({ kind: 'step', step: -5 }), 'step')!;
    expect([start.step, start.rec, start.view.segments]).toEqual([-1, null, []]);
  });

  test('§9 (ii): the OOM and its lead-up in the summary; the comparison shows both cures', () => {
    const e = createSimEngine();
    const load = result(e.handle({ kind: 'load', trace: preset('fragmentation-oom') }), 'load');
    if (!load?.ok) throw new Error('load failed');
    expect([load.summary.oomCount, load.summary.firstOomLine, load.summary.leadUp?.rows.at(-1)?.name]).toEqual([1, 18, 'c']);
    const cols = result(e.handle({ kind: 'compare', confs: ['', 'max_split_size_mb:128', 'expandable_segments:True', 'max_split_size_mb:1'] }), 'compare')!;
    expect(cols.map((c) => [c.conf, c.row?.ooms, c.row?.oomLines, c.row?.finalReserved, c.row?.finalAllocated, c.row?.deviceAllocs])).toEqual([
      ['', 1, [18], 900 * MiB, 500 * MiB, 1],
      ['max_split_size_mb:128', 0, [], 700 * MiB, 700 * MiB, 11],
      ['expandable_segments:True', 0, [], 700 * MiB, 700 * MiB, 2],
      ['max_split_size_mb:1', undefined, undefined, undefined, undefined, undefined],
    ]);
    expect(cols[3].errors[0].code).toBe('conf-max-split-small');
  });

  test('a bad setting fails the run by name and forgets the previous one', () => {
    const e = createSimEngine();
    e.handle({ kind: 'load', trace: preset('classic') });
    const bad = result(e.handle({ kind: 'load', trace: preset('classic'), conf: 'max_split_size_mb:1' }), 'load');
    expect(bad).toEqual({ ok: false, errors: [{ key: 'conf', code: 'conf-max-split-small', message: 'CachingAllocator option max_split_size_mb too small, must be > 20' }] });
    expect(e.handle({ kind: 'step', step: 0 })).toEqual({ kind: 'step', result: null });
  });
});
