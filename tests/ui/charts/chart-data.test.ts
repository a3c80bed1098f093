import { expect, test } from 'vitest';
import { axisMax, powersOfTwo } from '../../../src/ui/charts/chart-data';

test('value axis: the tallest stack or capacity line plus 8 %, for bars and sweep points alike', () => {
  const bars = [{ label: 'A', weights: 2, 'kv-cache': 3 }, { label: 'B', weights: 1 }];
  const sweep = [{ x: 1, weights: 0.25, 'kv-cache': 0.125 }, { x: 2, weights: 0.25, 'kv-cache': 0.25 }];
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
