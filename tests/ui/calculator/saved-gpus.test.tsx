// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { GpuPicker } from '../../../src/ui/calculator/gpu-picker';
import { initialData, useApp } from '../../../src/state/store';

beforeEach(() => {
  localStorage.clear();
  useApp.setState(initialData());
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

const panel = () => screen.getByRole('group', { name: 'Saved GPUs' });
/** The save form is closed until asked for (#12 §11). */
const openForm = () => fireEvent.click(within(panel()).getByRole('button', { name: 'Save a custom GPU under a name…' }));

describe('saved custom GPUs in the GPU picker', () => {
  test('the save form is closed until asked for; the button opens it', () => {
    render(<GpuPicker />);
    expect(within(panel()).queryByLabelText('GPU name')).toBeNull();
    const open = within(panel()).getByRole('button', { name: 'Save a custom GPU under a name…' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    openForm();
    expect(within(panel()).getByLabelText('GPU name')).toBeTruthy();
    expect(within(panel()).queryByRole('button', { name: 'Save a custom GPU under a name…' })).toBeNull();
  });

  test('save a typed capacity under a name, reload, pick it again: it is compared and shown by name', () => {
    const first = render(<GpuPicker />);
    fireEvent.change(screen.getByLabelText('Custom capacity'), { target: { value: '24' } });
    openForm();
    fireEvent.change(within(panel()).getByLabelText('GPU name'), { target: { value: 'lab box' } });
    fireEvent.change(within(panel()).getByLabelText('Memory bandwidth, GB/s (optional)'), { target: { value: '936' } });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save GPU' }));
    first.unmount();
    useApp.setState(initialData());
    render(<GpuPicker />);
    // 24 GiB = 25,769,803,776 bytes, written as the whole-GiB spec
    expect(JSON.parse(localStorage.getItem('gpumem.gpus')!)).toEqual({ version: 1, items: { 'lab box': { capacityBytes: 24 * 2 ** 30, bandwidthGBs: 936, savedAt: expect.any(Number) } } });
    expect(within(panel()).getByText('24.0 GiB, 936 GB/s')).toBeTruthy();
    fireEvent.click(within(panel()).getByRole('button', { name: 'lab box' }));
    expect(useApp.getState().gpus).toContain('24gib');
    const chosen = screen.getByRole('list', { name: 'Chosen GPUs' });
    expect(within(chosen).getByText('lab box')).toBeTruthy();
    expect(within(chosen).getByRole('button', { name: 'Remove lab box' })).toBeTruthy();
  });

  test('save needs a capacity that parses and a sane bandwidth', () => {
    render(<GpuPicker />);
    openForm();
    fireEvent.change(within(panel()).getByLabelText('GPU name'), { target: { value: 'x' } });
    const save = within(panel()).getByRole<HTMLButtonElement>('button', { name: 'Save GPU' });
    expect(save.disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('Custom capacity'), { target: { value: '80' } });
    expect(save.disabled).toBe(false);
    fireEvent.change(within(panel()).getByLabelText('Memory bandwidth, GB/s (optional)'), { target: { value: '-5' } });
    expect(save.disabled).toBe(true);
    expect(within(panel()).getByRole('alert').textContent).toContain('Enter a bandwidth above 0');
  });

  test('unreadable saved GPUs: a notice beside the list, the picker keeps working, the blob is copied aside on save', () => {
    localStorage.setItem('gpumem.gpus', '["not", "ours"]');
    render(<GpuPicker />);
    expect(within(panel()).getByRole('alert').textContent).toContain('could not be read. Nothing was deleted');
    fireEvent.change(screen.getByLabelText('Custom capacity'), { target: { value: '16' } });
    openForm();
    fireEvent.change(within(panel()).getByLabelText('GPU name'), { target: { value: 'v100' } });
    fireEvent.click(within(panel()).getByRole('button', { name: 'Save GPU' }));
    expect(localStorage.getItem('gpumem.gpus.unreadable')).toBe('["not", "ours"]');
    expect(within(panel()).getByRole('button', { name: 'v100' })).toBeTruthy();
  });

  test('GPUs saved by a newer page are listed read-only and never overwritten', () => {
    const newer = JSON.stringify({ version: 2, items: { future: { capacityBytes: 2 ** 35, savedAt: 1 } } });
    localStorage.setItem('gpumem.gpus', newer);
    render(<GpuPicker />);
    expect(within(panel()).getByRole('alert').textContent).toContain('newer version of this page');
    expect(within(panel()).getByRole('button', { name: 'future' })).toBeTruthy();
    expect(within(panel()).queryByRole('button', { name: 'Delete future' })).toBeNull();
    openForm();
    expect(within(panel()).getByRole<HTMLButtonElement>('button', { name: 'Save GPU' }).disabled).toBe(true);
    expect(localStorage.getItem('gpumem.gpus')).toBe(newer);
  });

  test('storage that throws SecurityError on access: a notice, the picker still works', () => {
    const own = Object.getOwnPropertyDescriptor(window, 'localStorage');
    Object.defineProperty(window, 'localStorage', {
      configurable: true,
      get: () => {
        throw Object.assign(new Error('denied'), { name: 'SecurityError' });
      },
    });
    try {
      render(<GpuPicker />);
      expect(within(panel()).getByRole('alert').textContent).toContain('does not let the page store anything');
      fireEvent.change(screen.getByLabelText('Custom capacity'), { target: { value: '48' } });
      fireEvent.click(screen.getByRole('button', { name: 'Add custom' }));
      expect(useApp.getState().gpus).toContain('48gib');
    } finally {
      if (own) Object.defineProperty(window, 'localStorage', own);
      else delete (window as { localStorage?: Storage }).localStorage;
    }
  });
});
