/**
 * A real allocation history through our allocator model: t028 of fixtures/measured-gpu.json
 * (Llama-3.2-1B, full fine-tuning in bf16, checkpointing, 3 Trainer steps of two 1024-token
 * micro-steps) recorded on our H200 by
 * `python3 tools/measure/measure_trainer.py --trace --only t028` (torch 2.11,
 * torch.cuda.memory._record_memory_history): tests/fixtures/torch-trace/t028.trace.json.gz holds
 * every event as [action, addr, size, stream, stack] (free_requested left out). The run's own
 * torch.cuda.max_memory_reserved() was 12,077,498,368 B and max_memory_allocated()
 * 11,621,262,848 B.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importSnapshot } from '../../src/core/allocator/history-import';
import { replayFidelity } from '../../src/core/allocator/replay-fidelity';
import { simulateTrace } from '../../src/core/allocator/run';

interface Compact {
  events: [string, number, number, number, number][];
}
const raw = JSON.parse(gunzipSync(readFileSync(new URL('../fixtures/torch-trace/t028.trace.json.gz', import.meta.url))).toString('utf8')) as Compact;
const snapshot = { segments: [], device_traces: [raw.events.map(([action, addr, size, stream]) => ({ action, addr, size, stream, frames: [] }))] };

describe('a recorded Trainer run replayed through the caching-allocator model', () => {
  const imported = importSnapshot(snapshot);
  if (!imported.ok) throw new Error(imported.error.text);
  const run = simulateTrace(imported.value.trace, { capacity: 140 * 2 ** 30 });
  if (!run.ok) throw new Error('simulation refused');

  it('reads the run whole: 220 cudaMallocs recorded, every allocation and free matched', () => {
    expect(imported.value.recorded.deviceAllocs).toBe(220);
    expect(imported.value.recorded.reservedPeak).toBe(12_077_498_368);
    expect(imported.value.unmatchedFrees).toBe(0);
  });

  it('replays the Trainer’s empty_cache() and then makes the run’s 220 cudaMallocs', () => {
    // the trace's one segment_free (entry 240, 526,385,152 B: the untied LM head built with the
    // model) comes between two allocs: _inner_training_loop's accelerator.free_memory()
    expect(imported.value.recorded.deviceFrees).toBe(1);
    expect(imported.value.trace.events.filter((e) => e.op === 'empty_cache').map((e) => e.line)).toEqual([240]);
    expect(run.value.final.stats.num_device_alloc).toBe(220);
  });

  it('gives the run’s max_memory_reserved and max_memory_allocated to the byte', () => {
    expect(replayFidelity(imported.value.recorded, run.value).reservedPeakError).toBe(0);
    expect(run.value.peakReserved).toBe(12_077_498_368);
    expect(run.value.peakAllocated).toBe(11_621_262_848);
  });

  it('puts every one of its 15,982 allocations at the address the run gave it', () => {
    // each new segment goes where the driver put the run's (history-import.ts segmentAt); from
    // there best fit, splitting and merging choose every block as PyTorch did
    const at = new Map(raw.events.map((e, i) => [i + 1, e[1]]));
    const allocs = imported.value.trace.events.flatMap((e, i) => (e.op === 'alloc' ? [[run.value.timeline.addr[i], at.get(e.line)]] : []));
    expect(allocs).toHaveLength(15_982);
    expect(allocs.filter(([got, recorded]) => got !== recorded)).toEqual([]);
  });
});
