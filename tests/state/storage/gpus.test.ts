import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { MAX_CUSTOM_CAPACITY, parseCapacity } from '../../../src/core/gpus';
import { capacitySpec, deleteGpu, loadSavedGpus, readSavedGpu, saveGpu } from '../../../src/state/storage/gpus';
import { memoryKv } from './memory-kv';

describe('capacity spec of a saved GPU', () => {
  test('picks the unit that writes the capacity exactly', () => {
    expect(capacitySpec(24 * 2 ** 30)).toBe('24gib');
    expect(capacitySpec(24e9)).toBe('24gb');
    // H100 80GB as nvidia-smi reports it: 81559 MiB (modal-labs/modal-client PR #2797)
    expect(capacitySpec(81559 * 2 ** 20)).toBe('81559mib');
    expect(capacitySpec(2 ** 20 + 1)).toBe('1.048577mb');
  });

  test('parseCapacity reads every spec back to the same bytes (1 MiB .. 64 TiB)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2 ** 20, max: MAX_CUSTOM_CAPACITY }), (b) => parseCapacity(capacitySpec(b)) === b),
      { numRuns: 5000 },
    );
  });
});

describe('saved GPUs', () => {
  test('save, reload, delete', () => {
    const kv = memoryKv();
    expect(saveGpu(kv, 'lab 3090', '24gib', 936, 7)).toBeNull();
    expect(saveGpu(kv, 'cloud box', '80gb', undefined, 8)).toBeNull();
    expect(loadSavedGpus(kv)).toEqual({
      items: [
        { name: 'cloud box', value: { capacityBytes: 80e9, savedAt: 8 } },
        { name: 'lab 3090', value: { capacityBytes: 24 * 2 ** 30, bandwidthGBs: 936, savedAt: 7 } },
      ],
      bad: [],
      state: 'ok',
    });
    expect(JSON.parse(kv.m.get('gpumem.gpus')!).version).toBe(1);
    expect(deleteGpu(kv, 'cloud box')).toBeNull();
    expect(loadSavedGpus(kv).items.map((i) => i.name)).toEqual(['lab 3090']);
  });

  test('capacities and bandwidths outside the accepted ranges are refused or reported', () => {
    const kv = memoryKv();
    expect(saveGpu(kv, 'tiny', '0.5mib')).toBe('invalid');
    expect(saveGpu(kv, 'fast', '24gib', 0)).toBe('invalid');
    expect(saveGpu(kv, 'faster', '24gib', Number.POSITIVE_INFINITY)).toBe('invalid');
    expect(kv.m.size).toBe(0);
    for (const e of [
      { capacityBytes: 2 ** 20 - 1, savedAt: 1 },
      { capacityBytes: 1.5e9 + 0.5, savedAt: 1 },
      { capacityBytes: 2 ** 47, savedAt: 1 },
      { capacityBytes: 2 ** 30, savedAt: 'now' },
      { capacityBytes: 2 ** 30, bandwidthGBs: -1, savedAt: 1 },
      { capacityBytes: '24gib', savedAt: 1 },
      [2 ** 30],
    ]) {
      expect(readSavedGpu(e)).toBeNull();
    }
  });
});
