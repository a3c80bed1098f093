// garbage_collection_threshold, worked by hand from docs/reference/allocator.md §3 (GC needs a memory fraction;
// ages count get_free_block calls of the large pool; blocks at or above the average age go first).
import { describe, expect, it } from 'vitest';
import { CachingAllocator } from '../../../src/core/allocator/allocator';
import { defaultConfig, parseAllocConf } from '../../../src/core/allocator/config';
import { GiB, MiB } from '../../../src/core/units';
import { viewAllocator } from '../../../src/core/allocator/view';

function run(conf: string, fraction: number | null) {
  const c = parseAllocConf(conf);
  const a = new CachingAllocator({ capacity: GiB, overhead: 0, fraction }, c.ok ? c.value : defaultConfig());
  a.malloc('a', 200 * MiB); // get_free_block call 1
  a.free('a'); // cached at clock 1
  a.malloc('b', 300 * MiB); // call 2; reserved 200 ≤ threshold 256: no GC; 500 ≤ 512 allowed
  a.free('b'); // cached at clock 2
  const c3 = a.malloc('c', 400 * MiB); // call 3: ages a = 2, b = 1
  return { ok: c3.ok, s: viewAllocator(a).stats };
}

describe('garbage_collection_threshold (fraction 0.5 of 1 GiB, threshold 0.5 → 256 MiB)', () => {
  it('GC frees the older block, then the other, and the new segment fits without a flush', () => {
    const { ok, s } = run('garbage_collection_threshold:0.5', 0.5);
    expect(ok).toBe(true);
    expect(s['reserved_bytes.all.current']).toBe(400 * MiB);
    expect(s.num_device_free).toBe(2);
    expect(s.num_alloc_retries).toBe(0);
    expect(s.num_sync_all_streams).toBe(0);
  });
  it('without GC the allowed limit forces the full flush and a counted retry', () => {
    const { ok, s } = run('', 0.5);
    expect(ok).toBe(true);
    expect(s['reserved_bytes.all.current']).toBe(400 * MiB);
    expect(s.num_alloc_retries).toBe(1);
    expect(s.num_sync_all_streams).toBe(1);
  });
  it('GC stays off without a memory fraction', () => {
    const { s } = run('garbage_collection_threshold:0.5', null);
    // 200 + 300 + 400 MiB = 900 MiB fit the card: nothing is freed.
    expect(s['reserved_bytes.all.current']).toBe(900 * MiB);
    expect(s.num_device_free).toBe(0);
  });
});
