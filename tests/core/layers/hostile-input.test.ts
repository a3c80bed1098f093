import { expect, test } from 'vitest';
import { importTorchinfo } from '../../../src/core/layers/torchinfo-import';
import { importTorchRepr } from '../../../src/core/layers/repr-import';
import { parseNetworkJson } from '../../../src/core/layers/validate';

// Regressions found by tests/fuzz (see .tmp notes of the fuzzing work): each must return promptly
// with a clear result, never Infinity and never an endless loop.

test('torchinfo import with a zero input channel and an overflowing number returns at once', () => {
  const text = [
    'Layer (type:depth-idx)  Output Shape  Param #',
    '│    │    └─Conv2d: 3-94                 [1, 256, 14, 14]          262,144',
    '│    │    └─ReLU: 3-96      1e309            : 3-96                   [1, 256, 14, 14]          --',
  ].join('\n');
  const t0 = Date.now();
  const r = importTorchinfo(text, [0, 28, 13]);
  expect(Date.now() - t0).toBeLessThan(2000);
  expect(r.network.layers).toEqual([]);
});

test('print(model) import never puts Infinity into a layer field', () => {
  const r = importTorchRepr('Sequential(\n  (0): Conv2d(3, 8, kernel_size=(1, 1), stride=(1e309, 1), bias=False)\n)', [3, 8, 8]);
  expect(JSON.stringify(r)).not.toContain('null, 1');
  const scan = (v: unknown): boolean => (typeof v === 'number' ? Number.isFinite(v) : Array.isArray(v) ? v.every(scan) : v && typeof v === 'object' ? Object.values(v).every(scan) : true);
  expect(scan(r)).toBe(true);
});

test('layer JSON names must be writable in the layer text form', () => {
  const bad = parseNetworkJson('{"layers":[{"kind":"sequential","name":" stack","body":[{"kind":"linear","in":784,"out":10}]}],"input":[784]}', [784]);
  expect(bad.ok).toBe(false);
  if (!bad.ok) expect(bad.errors[0].message).toMatch(/name/);
  const good = parseNetworkJson('{"layers":[{"kind":"sequential","name":"stack_1","body":[{"kind":"linear","in":784,"out":10}]}],"input":[784]}', [784]);
  expect(good.ok).toBe(true);
});
