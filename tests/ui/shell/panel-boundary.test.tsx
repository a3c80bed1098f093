// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { PanelBoundary } from '../../../src/ui/shell/panel-boundary';
import { useApp } from '../../../src/state/store';

afterEach(() => {
  cleanup();
  useApp.setState({ lang: 'en' });
});

let broken = true;
function Fragile() {
  if (broken) throw new Error('boom in chart');
  return <p>chart ok</p>;
}

test('a bug in one panel shows a message there and leaves its sibling panels working', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  broken = true;
  render(
    <div>
      <PanelBoundary name="chart">
        <Fragile />
      </PanelBoundary>
      <PanelBoundary name="table">
        <p>table ok</p>
      </PanelBoundary>
    </div>,
  );
  expect(screen.getByRole('alert').textContent).toContain('chart: boom in chart');
  expect(screen.getByText('table ok')).toBeTruthy();
  broken = false;
  fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
  expect(screen.getByText('chart ok')).toBeTruthy();
  expect(screen.queryByRole('alert')).toBeNull();
});

test('the message follows the page language', () => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
  vi.spyOn(console, 'warn').mockImplementation(() => {});
  useApp.setState({ lang: 'zh' });
  broken = true;
  render(
    <PanelBoundary name="lab">
      <Fragile />
    </PanelBoundary>,
  );
  expect(screen.getByRole('alert').textContent).toContain('此面板出错');
});
