// @vitest-environment node
/**
 * The lab's file reader (src/ui/lab/snapshot-read.ts), on Node's own Blob and DecompressionStream:
 * the real _dump_snapshot() pickle of tests/fixtures/torch-snapshot (torch 2.11 on an H200, its
 * memory_stats beside it), gzipped as committed and plain, gives the counts PyTorch reported.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { gunzipCapped, readSnapshotFile, type ReadPhase } from '../../../src/ui/lab/snapshot-read';
import { MAX_SNAPSHOT_BYTES } from '../../../src/core/snapshot/sniff';

const dir = new URL('../../fixtures/torch-snapshot/', import.meta.url);
const gz = new Uint8Array(readFileSync(new URL('train-varied.pickle.gz', dir)));
const real = (JSON.parse(readFileSync(new URL('train-varied.default.stats.json', dir), 'utf8')) as { memory_stats: Record<string, number> }).memory_stats;

async function read(bytes: Uint8Array) {
  const phases: ReadPhase[] = [];
  const r = await readSnapshotFile(new Blob([bytes as BlobPart]), (p) => phases.push(p));
  return { r, phases };
}

describe('reading a snapshot file', () => {
  it('the gzipped pickle torch wrote: every allocation and the 32 cudaMallocs memory_stats counted', async () => {
    const { r, phases } = await read(gz);
    if (!r.ok) throw new Error(r.error.text);
    expect(phases).toEqual(['reading', 'decompressing', 'parsing']);
    expect(r.value.allocs).toBe(real['allocation.all.allocated']);
    expect(r.value.recorded.deviceAllocs).toBe(real.num_device_alloc);
  });

  it('the same pickle uncompressed gives the same trace, without the decompressing step', async () => {
    const { r, phases } = await read(new Uint8Array(gunzipSync(gz)));
    const { r: z } = await read(gz);
    if (!r.ok || !z.ok) throw new Error('not read');
    expect(phases).toEqual(['reading', 'parsing']);
    expect(r.value.trace).toEqual(z.value.trace);
  });

  it('memory-history JSON, with a byte-order mark, is read as JSON', async () => {
    const json = JSON.stringify({ device_traces: [[{ action: 'alloc', addr: 4096, size: 512, stream: 0 }]] });
    const { r } = await read(new TextEncoder().encode('\uFEFF' + json));
    if (!r.ok) throw new Error(r.error.text);
    expect(r.value.allocs).toBe(1);
  });

  it('refuses by name: text that is not a snapshot, a truncated pickle, a broken gzip', async () => {
    const text = await read(new TextEncoder().encode('alloc a 1MiB'));
    expect(!text.r.ok && text.r.error.code).toBe('snapshot-unknown');
    const whole = gunzipSync(gz);
    const cut = await read(new Uint8Array(whole.subarray(0, whole.length >> 1)));
    expect(!cut.r.ok && cut.r.error.code).toBe('pickle-truncated');
    const bad = await read(new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3, 4, 5, 6]));
    expect(!bad.r.ok && bad.r.error.code).toBe('snapshot-bad-gzip');
  });

  it('a file over the limit is refused before a byte is read', async () => {
    const huge = { size: MAX_SNAPSHOT_BYTES + 1, arrayBuffer: () => Promise.reject(new Error('read')) } as unknown as Blob;
    const r = await readSnapshotFile(huge);
    expect(!r.ok && r.error.code).toBe('snapshot-too-big');
  });

  it('decompression stops at the cap: 1 MiB of zeros (about 1 KiB gzipped) against a 64 KiB cap', async () => {
    const bomb = new Uint8Array(gzipSync(new Uint8Array(1 << 20)));
    expect(bomb.length).toBeLessThan(4096);
    expect(await gunzipCapped(bomb, 64 * 1024)).toBeNull();
    expect((await gunzipCapped(bomb, 1 << 20))?.length).toBe(1 << 20);
  });
});
