// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Primer } from '../../../src/ui/calculator/primer';
import { initialData, useApp } from '../../../src/state/store';

beforeEach(() => useApp.setState(initialData()));
afterEach(() => cleanup());

test('primer: 7B weights at 4 / 2 / 1 / 0.5 bytes per parameter, in the page unit', () => {
  useApp.setState({ unit: 'GB' });
  render(<Primer />);
  // 7e9 × 4 B = 28 GB, × 2 = 14 GB, × 1 = 7 GB, × 0.5 = 3.5 GB
  for (const v of ['28.0 GB', '14.0 GB', '7.00 GB', '3.50 GB']) expect(screen.getByText(v)).toBeTruthy();
  cleanup();
  useApp.setState({ unit: 'GiB' });
  render(<Primer />);
  // 28e9 / 2^30 = 26.077 GiB
  expect(screen.getByText('26.1 GiB')).toBeTruthy();
});
