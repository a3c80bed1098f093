import { expect, test } from 'vitest';
import { axisMax, barSummary, niceAxis, powersOfTwo, sweepAxis } from '../../../src/ui/charts/chart-data';

test('value axis: the tallest stack or capacity line plus 8 %, for bars and sweep points alike', () => {
  const bars = [
    { label: 'A', weights: 2, 'kv-cache': 3 },
    { label: 'B', weights: 1 },
  ];
  const sweep = [
    { x: 1, weights: 0.25, 'kv-cache': 0.125 },
    { x: 2, weights: 0.25, 'kv-cache': 0.25 },
  ];
  expect(axisMax(bars, [{ label: '24 GiB', value: 4 }], ['weights', 'kv-cache'])).toBeCloseTo(5 * 1.08, 12);
  expect(axisMax(bars, [{ label: '80 GiB', value: 6 }], ['weights', 'kv-cache'])).toBeCloseTo(6 * 1.08, 12);
  // a sweep below one display unit keeps its own scale (0.5 GiB tallest point)
  expect(axisMax(sweep, [], ['weights', 'kv-cache'])).toBeCloseTo(0.5 * 1.08, 12);
  expect(axisMax([], [], [])).toBe(1);
});

test('powers of two from lo, always ending at hi', () => {
  expect(powersOfTwo(1, 512)).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 512]);
  expect(powersOfTwo(256, 1000)).toEqual([256, 512, 1000]);
});

test('nice ticks: steps of 1, 2, 2.5 or 5 x 10^k, the axis ending on a step at or above the top', () => {
  // top 25.9 (a 24 GiB card plus 8 %): 25.9 / 5 = 5.18 -> step 10 (first of 1,2,2.5,5,10 x 1 >= 5.18) -> 0..30
  expect(niceAxis(25.9)).toEqual({ max: 30, ticks: [0, 10, 20, 30] });
  // top 17.4: 3.48 -> step 5 -> 0, 5, 10, 15, 20
  expect(niceAxis(17.4)).toEqual({ max: 20, ticks: [0, 5, 10, 15, 20] });
  // top 1089: 217.8 -> step 250 -> 0..1250
  expect(niceAxis(1089).ticks).toEqual([0, 250, 500, 750, 1000, 1250]);
  // below one unit: 0.54 / 5 = 0.108 -> step 0.2
  expect(niceAxis(0.54)).toEqual({ max: 0.6, ticks: [0, 0.2, 0.4, 0.6] });
  // exactly on a step: 20 / 5 = 4 -> step 5, four steps, no empty fifth
  expect(niceAxis(20).ticks).toEqual([0, 5, 10, 15, 20]);
  expect(niceAxis(0).max).toBe(1);
  expect(niceAxis(Number.NaN).max).toBe(1);
});

test('sweep axis: bounded at 1.5 x the largest capacity when the curve runs far above it, the points past the top listed', () => {
  // a 24 GiB card, totals 10, 20, 40, 80, 1089 GiB along batch 1..16
  const rows = [1, 2, 4, 8, 16].map((x, i) => ({ x, weights: [10, 20, 40, 80, 1089][i] }));
  const a = sweepAxis(rows, [{ label: '4090', value: 24 }], ['weights']);
  // 1.5 x 24 = 36 -> 36 / 5 = 7.2 -> step 10 -> 0..40; 80 and 1089 lie above 40
  expect(a.max).toBe(40);
  expect(a.clipped).toEqual([8, 16]);
  // no GPU: the whole curve, 1089 x 1.08 = 1176.1 -> step 250 -> 1250
  expect(sweepAxis(rows, [], ['weights']).max).toBe(1250);
  // a curve that stays within 1.5 x the card: the full range, nothing clipped (30 x 1.08 = 32.4 -> step 10 -> 40)
  const low = sweepAxis([{ x: 1, weights: 30 }], [{ label: '4090', value: 24 }], ['weights']);
  expect(low).toEqual({ max: 40, ticks: [0, 10, 20, 30, 40], clipped: [] });
});

test('the term chart in words: every drawn term with its value, the stack, each capacity line; an empty bar left out', () => {
  // Llama-2-7B fp16 weights 13,476,831,232 B = 12.55 GiB; KV cache 32 x 2 x 32 x 128 x 2 B x 2304 tokens = 1.125 GiB
  const rows = [{ label: 'A', weights: 13_476_831_232 / 2 ** 30, 'kv-cache': 1.125 }, { label: 'B' }, { label: 'C', weights: 0.5 }];
  const words = {
    term: (id: string) => ({ weights: 'Weights', 'kv-cache': 'KV cache' })[id] ?? id,
    value: (v: number) => `${v.toFixed(2)} GiB`,
    bar: (label: string, parts: string, total: string) => `${label}: ${parts} (stacked: ${total})`,
    line: (gpu: string, cap: string) => `${gpu} holds ${cap}`,
    listSep: ', ',
  };
  // an RTX 4090: 24564 MiB = 23.99 GiB
  expect(barSummary('Memory by term', rows, ['weights', 'kv-cache'], [{ label: 'RTX 4090', value: 24564 / 1024 }], words)).toBe(
    'Memory by term — A: Weights 12.55 GiB, KV cache 1.13 GiB (stacked: 13.68 GiB) — C: Weights 0.50 GiB (stacked: 0.50 GiB) — RTX 4090 holds 23.99 GiB',
  );
  expect(barSummary('Memory by term', [{ label: 'A' }], [], [], words)).toBe('Memory by term');
});
