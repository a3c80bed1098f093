import { describe, expect, test } from 'vitest';
import { importMemoryHistory } from '../../../src/core/allocator/history-import';
import { oomLeadUp } from '../../../src/core/allocator/oom-lead-up';
import { findPreset } from '../../../src/core/allocator/presets';
import { simulateTrace } from '../../../src/core/allocator/run';
import { parseTrace, type Trace } from '../../../src/core/allocator/trace';

const MiB = 2 ** 20;
const simulate = (trace: Trace) => {
  const r = simulateTrace(trace);
  if (!r.ok) throw new Error('does not simulate');
  return r.value;
};

describe('the events before an OOM', () => {
  test('docs/reference/allocator.md §9 (ii): the frees that leave four 100 MiB holes, then the 200 MiB request that fails', () => {
    const p = parseTrace(findPreset('fragmentation-oom')!.text);
    if (!p.ok) throw new Error('preset does not parse');
    const lead = oomLeadUp(simulate(p.trace), 5)!;
    expect(lead.source).toBe('simulated');
    // lines: 3 alloc a, 4 free a, 5–13 B1–B9, 14–17 free B1 B3 B5 B7, 18 alloc c
    expect(lead.rows.map((r) => [r.line, r.op, r.name, r.size, r.block, r.outcome])).toEqual([
      [13, 'alloc', 'B9', 100 * MiB, 100 * MiB, 'ok'],
      [14, 'free', 'B1', undefined, 100 * MiB, 'ok'],
      [15, 'free', 'B3', undefined, 100 * MiB, 'ok'],
      [16, 'free', 'B5', undefined, 100 * MiB, 'ok'],
      [17, 'free', 'B7', undefined, 100 * MiB, 'ok'],
      [18, 'alloc', 'c', 200 * MiB, undefined, 'oom'],
    ]);
    expect(lead.step).toBe(15);
  });

  test("a snapshot's own oom entry is the one shown, with each event's frame", () => {
    const f = (line: number, name: string) => [{ filename: '/w/train.py', line, name }];
    const json = JSON.stringify({
      device_traces: [
        [
          { action: 'segment_alloc', addr: 0x7000000000, size: 20 * MiB },
          { action: 'alloc', addr: 0x7000000000, size: 4 * MiB, frames: f(10, 'forward') },
          { action: 'alloc', addr: 0x7000400000, size: 2 * MiB, frames: f(11, 'forward') },
          { action: 'free_completed', addr: 0x7000000000, size: 4 * MiB, frames: f(12, 'forward') },
          { action: 'oom', size: 64 * MiB, device_free: 10 * MiB, frames: f(13, 'backward') },
        ],
      ],
    });
    const imported = importMemoryHistory(json);
    if (!imported.ok) throw new Error(imported.error.text);
    // capacity from the OOM entry: reserved 20 MiB + device_free 10 MiB, so 64 MiB fails again in the replay
    const lead = oomLeadUp(simulate(imported.value.trace))!;
    expect(lead.source).toBe('recorded');
    expect(lead.rows.map((r) => [r.line, r.op, r.size, r.block, r.frame, r.outcome])).toEqual([
      [2, 'alloc', 4 * MiB, 4 * MiB, 'train.py:10 forward', 'ok'],
      [3, 'alloc', 2 * MiB, 2 * MiB, 'train.py:11 forward', 'ok'],
      // a free is shown with the frame that allocated the tensor
      [4, 'free', undefined, 4 * MiB, 'train.py:10 forward', 'ok'],
      [5, 'alloc', 64 * MiB, undefined, 'train.py:13 backward', 'oom'],
    ]);
  });

  test('a run without an OOM has no lead-up', () => {
    const p = parseTrace(findPreset('classic')!.text);
    if (!p.ok) throw new Error('preset does not parse');
    expect(oomLeadUp(simulate(p.trace))).toBeNull();
  });
});
