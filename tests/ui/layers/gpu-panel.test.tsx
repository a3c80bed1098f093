// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import LayersView from '../../../src/ui/layers/layers-view';
import { useNet } from '../../../src/ui/layers/net-store';
import { freshViewEachTest } from './view-setup';

freshViewEachTest();
beforeEach(() => localStorage.setItem('gpumem.gpus', JSON.stringify({ version: 1, items: { 'lab box': { capacityBytes: 24 * 2 ** 30, savedAt: 1 } } })));
afterEach(() => localStorage.clear());

describe('Layer builder GPU panel', () => {
  test('offers the GPUs saved in the calculator and shows a picked one by its name', () => {
    render(<LayersView />);
    const panel = screen.getByRole('heading', { name: 'GPUs to compare' }).closest('section') as HTMLElement;
    const select = within(panel).getByRole<HTMLSelectElement>('combobox');
    // 24 GiB written as the spec parseCapacity reads back to 25,769,803,776 bytes
    fireEvent.change(select, { target: { value: '24gib' } });
    fireEvent.click(within(panel).getByRole('button', { name: 'Add' }));
    expect(useNet.getState().gpus).toContain('24gib');
    expect(within(panel).getByRole('button', { name: 'Remove lab box' })).toBeTruthy();
  });
});
