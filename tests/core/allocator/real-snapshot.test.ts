/**
 * The simulator against a real PyTorch run (tests/fixtures/torch-snapshot/, recorded on an H200 with
 * torch 2.11 by tools/measure/record_snapshot.py: four full fine-tuning steps of a two-block Llama,
 * batch 2, lengths 512, 2048, 1024, 1536). The recorded allocations and frees, replayed through the
 * CUDA caching-allocator model, must give the reserved peak and the cudaMalloc count that
 * torch.cuda.memory_stats() reported at the end of that run.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { importSnapshotPickle } from '../../../src/core/allocator/history-import';
import { simulateTrace } from '../../../src/core/allocator/run';

const dir = new URL('../../fixtures/torch-snapshot/', import.meta.url);
// the pickle torch.cuda.memory._dump_snapshot() wrote, gzip-compressed for the repository
const pickle = new Uint8Array(gunzipSync(readFileSync(new URL('train-varied.pickle.gz', dir))));
const stats = (conf: string) => JSON.parse(readFileSync(new URL(`train-varied.${conf}.stats.json`, dir), 'utf8')) as { conf: string | null; memory_stats: Record<string, number> };

function replay(conf?: string) {
  const imported = importSnapshotPickle(pickle);
  if (!imported.ok) throw new Error(imported.error.text);
  const run = simulateTrace(imported.value.trace, { capacity: 150_109_880_320, ...(conf ? { conf } : {}) });
  if (!run.ok) throw new Error('the trace does not simulate');
  return { run: run.value, imported: imported.value };
}

describe('a recorded PyTorch run replayed through the simulator', () => {
  const real = stats('default').memory_stats;
  const { run, imported } = replay();

  it('reads every allocation of the recording, and the 32 cudaMallocs it made', () => {
    expect(imported.allocs).toBe(real['allocation.all.allocated']);
    expect(imported.recorded.deviceAllocs).toBe(real.num_device_alloc);
    expect(real.num_device_alloc).toBe(32);
    expect(imported.recorded.reservedPeak).toBe(real['reserved_bytes.all.peak']);
  });

  it('default settings: the reserved peak PyTorch reported, to the byte, from as many segments', () => {
    expect(run.peakReserved).toBe(real['reserved_bytes.all.peak']);
    expect(run.peakReserved).toBe(2_931_818_496);
    expect(run.final.stats['num_device_alloc']).toBe(real.num_device_alloc);
  });

  it('the allocated peak within 0.1 % (the import frees a block at free_completed, PyTorch counts it freed at free_requested)', () => {
    const measured = real['allocated_bytes.all.peak'];
    expect(Math.abs(run.peakAllocated - measured) / measured).toBeLessThan(0.001);
  });

  it('the same program run under max_split_size_mb:128 and expandable_segments:True reserved what the replay under those settings gives', () => {
    const split = stats('split128');
    expect(split.conf).toBe('max_split_size_mb:128');
    expect(replay('max_split_size_mb:128').run.peakReserved).toBe(split.memory_stats['reserved_bytes.all.peak']);
    const expandable = stats('expandable');
    expect(expandable.conf).toBe('expandable_segments:True');
    expect(replay('expandable_segments:True').run.peakReserved).toBe(expandable.memory_stats['reserved_bytes.all.peak']);
  });
});
