import { expect, test } from 'vitest';
import { tabKeyTarget } from '../../../src/ui/forms/tab-keys';

// WAI-ARIA Authoring Practices, Tabs pattern: Right/Left wrap around, Home/End go to the ends
test('arrow keys wrap, Home and End reach the ends, other keys do nothing', () => {
  expect(tabKeyTarget('ArrowRight', 0, 4)).toBe(1);
  expect(tabKeyTarget('ArrowRight', 3, 4)).toBe(0);
  expect(tabKeyTarget('ArrowLeft', 0, 4)).toBe(3);
  expect(tabKeyTarget('ArrowLeft', 2, 4)).toBe(1);
  expect(tabKeyTarget('Home', 2, 4)).toBe(0);
  expect(tabKeyTarget('End', 1, 4)).toBe(3);
  expect(tabKeyTarget('ArrowRight', 0, 2)).toBe(1);
  expect(tabKeyTarget('ArrowLeft', 0, 2)).toBe(1);
  expect(tabKeyTarget('Enter', 1, 4)).toBeNull();
  expect(tabKeyTarget('ArrowDown', 1, 4)).toBeNull();
});
