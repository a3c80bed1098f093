// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ViewTabs } from '../../../src/ui/shell/view-tabs';
import { initialData, useApp, VIEWS } from '../../../src/state/store';

beforeEach(() => useApp.setState(initialData()));
afterEach(() => cleanup());

test('view tabs: End selects and focuses the last view, Home the first, Left from the first wraps to the last', () => {
  render(<ViewTabs />);
  const tab = (i: number) => document.getElementById(`view-tab-${VIEWS[i]}`)!;
  fireEvent.keyDown(tab(0), { key: 'End' });
  expect(useApp.getState().view).toBe(VIEWS[VIEWS.length - 1]);
  expect(document.activeElement).toBe(tab(VIEWS.length - 1));
  fireEvent.keyDown(tab(VIEWS.length - 1), { key: 'Home' });
  expect(useApp.getState().view).toBe(VIEWS[0]);
  fireEvent.keyDown(tab(0), { key: 'ArrowLeft' });
  expect(useApp.getState().view).toBe(VIEWS[VIEWS.length - 1]);
  expect(screen.getAllByRole('tab').filter((b) => b.getAttribute('aria-selected') === 'true')).toHaveLength(1);
});
