// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';

afterEach(() => cleanup());

test('Chinese before its tables arrive: English meanwhile, one stable translator, then Chinese on the next render', async () => {
  // a fresh copy of the modules: the setup file has already loaded the tables into the shared one
  vi.resetModules();
  const { useApp } = await import('../../../src/state/store');
  const i18n = await import('../../../src/ui/i18n');
  const loader = await import('../../../src/ui/i18n/zh-loader');
  const labels = await import('../../../src/ui/i18n/scenario-labels');
  useApp.setState({ lang: 'zh' });
  const waiting = i18n.translator('zh');
  expect(waiting('chart.title')).toBe('Memory by term');
  expect(waiting.lang).toBe('zh');
  expect(i18n.translator('zh')).toBe(waiting);
  expect(labels.fieldLabel('zh', 'batch')).toBe('Batch size');
  expect(i18n.translateCore('zh', { code: 'unknown-gpu', text: 'unknown GPU' })).toBe('unknown GPU');
  function Title() {
    const t = i18n.useT();
    return <h2>{t('chart.title')}</h2>;
  }
  render(<Title />);
  expect(screen.getByRole('heading').textContent).toBe('Memory by term');
  await act(() => loader.loadZh());
  expect(screen.getByRole('heading').textContent).toBe('各项显存占用');
  expect(i18n.translator('zh')).not.toBe(waiting);
  expect(labels.fieldLabel('zh', 'batch')).toBe('批大小');
  expect(i18n.translateCore('zh', { code: 'unknown-gpu', text: 'unknown GPU' })).toBe('未知的 GPU');
  // English never waits and never changes
  expect(i18n.translator('en')('chart.title')).toBe('Memory by term');
});
