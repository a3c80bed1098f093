// An imported trace keeps its events as columns (src/core/allocator/trace-columns.ts) and the
// replay keys its tensors by number: the run must still name them as the import does (hex
// addresses, oom-<entry>), and a copy of the trace with edited events must replay the edit.
import { describe, expect, it } from 'vitest';
import { importMemoryHistory } from '../../../src/core/allocator/history-import';
import { simulateTrace, stepAt, viewAt } from '../../../src/core/allocator/run';

const MiB = 2 ** 20;
// 0x7f0000000000 = 139,637,976,727,552; entries shaped like torch.cuda.memory._snapshot()["device_traces"]
const A = 0x7f0000000000;
const json = JSON.stringify({
  device_traces: [
    [
      { action: 'alloc', addr: A, size: 4 * MiB, stream: 0 },
      { action: 'alloc', addr: A + 4 * MiB, size: 512, stream: 0 },
      { action: 'free_completed', addr: A, size: 4 * MiB, stream: 0 },
      { action: 'oom', size: 2 * MiB, stream: 0 },
    ],
  ],
});

function imported() {
  const r = importMemoryHistory(json);
  if (!r.ok) throw new Error(r.error.text);
  return r.value.trace;
}

describe('an imported trace as columns', () => {
  it('names each tensor of the run as the import does: its address in hex, or oom-<entry>', () => {
    const run = simulateTrace(imported());
    if (!run.ok) throw new Error('simulation failed');
    expect(run.value.count).toBe(4);
    expect([0, 1, 2, 3].map((i) => stepAt(run.value, i)?.name)).toEqual(['0x7f0000000000', '0x7f0000400000', '0x7f0000000000', 'oom-3']);
    // after step 1 both tensors live: a 4 MiB request takes a 20 MiB large segment (1–10 MiB → kLargeBuffer), 512 B a 2 MiB small one
    const names = viewAt(run.value, 1)
      .segments.flatMap((s) => s.blocks)
      .flatMap((b) => (b.state === 'allocated' ? [b.name] : []));
    expect(names.sort()).toEqual(['0x7f0000000000', '0x7f0000400000']);
    // the replayed oom request (2 MiB, on an 80 GiB card) succeeds: it is live at the end under its entry's name
    expect(run.value.final.segments.flatMap((s) => s.blocks).find((b) => b.state === 'allocated' && b.size === 2 * MiB)?.name).toBe('oom-3');
  });

  it('events read from the trace and edited in place are what the next replay reads', () => {
    const trace = imported();
    const before = simulateTrace(trace);
    const alloc = trace.events[0];
    if (alloc.op !== 'alloc') throw new Error('the first event is the 4 MiB alloc');
    alloc.size = 12 * MiB;
    const after = simulateTrace(trace);
    if (!before.ok || !after.ok) throw new Error('simulation failed');
    // the peak is the first tensor and the 512 B one live together: 4 MiB + 512 B, then 12 MiB + 512 B (both multiples of 512 B)
    expect(after.value.peakAllocated - before.value.peakAllocated).toBe(8 * MiB);
  });

  it('a copy with edited events replays the edit, not the columns', () => {
    const trace = imported();
    const first = { ...trace, events: trace.events.slice(0, 1) };
    const r = simulateTrace(first);
    if (!r.ok) throw new Error('simulation failed');
    // one 4 MiB alloc: a 20 MiB segment (kLargeBuffer for requests of 1–10 MiB), 4 MiB allocated
    expect([r.value.count, r.value.peakAllocated, r.value.peakReserved]).toEqual([1, 4 * MiB, 20 * MiB]);
  });
});
