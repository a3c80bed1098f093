import { expect, test } from 'vitest';
import { importMemoryHistory } from '../../../src/core/allocator/history-import';
import { findPreset } from '../../../src/core/allocator/presets';
import { parseTrace } from '../../../src/core/allocator/trace';
import { packTrace, unpackTrace } from '../../../src/core/allocator/trace-pack';

const MiB = 2 ** 20;

test('a preset with every kind of event and its settings comes back unchanged', () => {
  const p = parseTrace(`capacity 1GiB\nconf max_split_size_mb:128\n${findPreset('classic')!.text}empty_cache\n`);
  if (!p.ok) throw new Error('does not parse');
  const packed = packTrace(p.trace);
  expect(packed.count).toBe(17);
  // ten distinct tensors and big: names stored once each
  expect(packed.names.split('\0')).toHaveLength(11);
  expect(unpackTrace(packed)).toEqual(p.trace);
});

test('an import keeps its frames and its recorded OOM through the packing', () => {
  const json = JSON.stringify({
    device_traces: [
      [
        { action: 'alloc', addr: 0x7000000000, size: 4 * MiB, frames: [{ filename: '/w/train.py', line: 3, name: 'step' }] },
        { action: 'free_completed', addr: 0x7000000000, size: 4 * MiB },
        { action: 'alloc', addr: 0x7000000000, size: 2 * MiB },
        { action: 'oom', size: 64 * MiB, device_free: MiB, frames: [{ filename: '/w/train.py', line: 9, name: 'step' }] },
      ],
    ],
  });
  const r = importMemoryHistory(json);
  if (!r.ok) throw new Error(r.error.text);
  expect(r.value.trace.events).toEqual([
    { op: 'alloc', name: '0x7000000000', size: 4 * MiB, line: 1, frame: 'train.py:3 step' },
    { op: 'free', name: '0x7000000000', line: 2 },
    { op: 'alloc', name: '0x7000000000', size: 2 * MiB, line: 3 },
    { op: 'alloc', name: 'oom-3', size: 64 * MiB, line: 4, frame: 'train.py:9 step', oom: true },
  ]);
  expect(unpackTrace(packTrace(r.value.trace))).toEqual(r.value.trace);
});

test('an import keeps the recorded segment addresses through the packing', () => {
  const json = JSON.stringify({
    device_traces: [
      [
        { action: 'segment_alloc', addr: 0x7fb400000000, size: 20 * MiB },
        { action: 'alloc', addr: 0x7fb400000000, size: 4 * MiB },
        { action: 'alloc', addr: 0x7fb400400000, size: 4 * MiB },
      ],
    ],
  });
  const r = importMemoryHistory(json);
  if (!r.ok) throw new Error(r.error.text);
  const back = unpackTrace(packTrace(r.value.trace));
  expect(back.events.map((e) => (e.op === 'alloc' ? e.segmentAt : null))).toEqual([0x7fb400000000, undefined]);
  expect(back).toEqual(r.value.trace);
});
