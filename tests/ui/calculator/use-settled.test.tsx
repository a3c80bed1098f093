// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { initialData, selectActive, useApp } from '../../../src/state/store';
import { SETTLE_MS, useSettled } from '../../../src/ui/calculator/use-settled';

let renders = 0;
function SettledBatch() {
  renders++;
  return <p data-testid="batch">{useSettled(selectActive).batch}</p>;
}

beforeEach(() => {
  vi.useFakeTimers();
  useApp.setState(initialData());
  renders = 0;
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('settled views (charts, tables, fit marks) follow the store once it stands still', () => {
  test('steps of a slider do not re-render the view; the last value arrives SETTLE_MS after the last step', () => {
    render(<SettledBatch />);
    expect(screen.getByTestId('batch').textContent).toBe('1');
    const before = renders;
    for (const batch of [2, 3, 4]) {
      act(() => useApp.getState().patch({ batch }));
      act(() => {
        vi.advanceTimersByTime(SETTLE_MS - 1);
      });
    }
    expect(renders).toBe(before);
    expect(screen.getByTestId('batch').textContent).toBe('1');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.getByTestId('batch').textContent).toBe('4');
  });

  test('a settle still unrendered when the store changes again is dropped: the stale value never shows, the next pause shows the last', () => {
    render(<SettledBatch />);
    act(() => useApp.getState().patch({ batch: 2 }));
    // the pause ends the moment the settle goes out, before React renders it (in a browser: between its slices)
    act(() => {
      vi.advanceTimersByTime(SETTLE_MS);
      useApp.getState().patch({ batch: 3 });
    });
    expect(screen.getByTestId('batch').textContent).toBe('1');
    act(() => {
      vi.advanceTimersByTime(SETTLE_MS);
    });
    expect(screen.getByTestId('batch').textContent).toBe('3');
  });

  test('a settle that has rendered stays: the next change alone does not take the view back', () => {
    render(<SettledBatch />);
    act(() => useApp.getState().patch({ batch: 2 }));
    act(() => {
      vi.advanceTimersByTime(SETTLE_MS);
    });
    expect(screen.getByTestId('batch').textContent).toBe('2');
    const before = renders;
    act(() => useApp.getState().patch({ batch: 3 }));
    expect(screen.getByTestId('batch').textContent).toBe('2');
    expect(renders).toBe(before);
  });

  test('no timer is left once no view reads settled values', () => {
    render(<SettledBatch />);
    cleanup();
    act(() => useApp.getState().patch({ batch: 8 }));
    expect(vi.getTimerCount()).toBe(0);
  });
});
