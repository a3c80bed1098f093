// @vitest-environment happy-dom
import { afterEach, beforeEach, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { App } from '../../../src/ui/app';
import { initialData, useApp } from '../../../src/state/store';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { formatBytes } from '../../../src/ui/i18n/format';

beforeEach(() => useApp.setState(initialData()));
afterEach(() => cleanup());

// Llama-2-7b (config.json: h 4096, i 11008, L 32), 6,738,415,616 parameters
const P = 6_738_415_616;

test('the page shows the guides\u2019 rule of thumb beside the estimate, term by term with the reasons, in en and zh', async () => {
  const s = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', mode: 'training' as const, batch: 50, seq: 2048 };
  useApp.setState({ ...initialData(), scenarios: [s], unit: 'GB' });
  render(<App />);
  const panel = (await screen.findByRole('heading', { name: 'Rule of thumb beside the estimate' }, { timeout: 8000 })).closest('section')!;
  // int8: 4·P + 50·(4096 + 11008)·2048·32 B = 76.4 GB
  const total = 4 * P + 50 * (4096 + 11008) * 2048 * 32;
  const shown = (b: number) => `Rule of thumb: ${formatBytes(b, 'GB', 'en')} (`;
  expect(shown(total)).toBe('Rule of thumb: 76.4 GB (');
  expect(within(panel).getByText((t) => t.startsWith(shown(total)))).toBeTruthy();
  const table = within(panel).getByRole('table', { name: /term by term/ });
  expect(within(table).getByRole('rowheader', { name: 'Optimizer state' })).toBeTruthy();
  expect(within(table).getByText(/fp32 master copy/)).toBeTruthy();
  // the width is the user's to pick: fp16 doubles every rule term
  fireEvent.change(within(panel).getByRole('combobox'), { target: { value: 'fp16' } });
  expect(within(panel).getByText((t) => t.startsWith(shown(2 * total)))).toBeTruthy();
  useApp.setState({ lang: 'zh' });
  const zh = (await screen.findByRole('heading', { name: '经验法则与完整估算对照' })).closest('section')!;
  expect(within(zh).getByText(/混合精度还有一份 fp32 主权重/)).toBeTruthy();
});
