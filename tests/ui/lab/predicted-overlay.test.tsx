// @vitest-environment happy-dom
/**
 * The lab's "Predicted against recorded" control on a hand-made memory history: its recorded
 * reserved peak comes from the segment entries (two 20 MiB segment_alloc = 41,943,040 B, one freed
 * before the end), its allocated peak from the allocations (4 MiB + 2 MiB = 6,291,456 B, both
 * multiples of 512 B so unrounded; allocator.md §2).
 */
import { expect, test } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import LabView from '../../../src/ui/lab/lab-view';
import { useApp } from '../../../src/state/store';
import { startAt, MiB, exactEn } from './lab-page';

startAt('?view=lab&lab.panel=sim');

const json = JSON.stringify({
  device_traces: [
    [
      { action: 'segment_alloc', addr: 0x7000000000, size: 20 * MiB, stream: 0 },
      { action: 'alloc', addr: 0x7000000000, size: 4 * MiB, stream: 0 },
      { action: 'segment_alloc', addr: 0x7100000000, size: 20 * MiB, stream: 0 },
      { action: 'alloc', addr: 0x7100000000, size: 2 * MiB, stream: 0 },
      { action: 'free_completed', addr: 0x7100000000, size: 2 * MiB, stream: 0 },
      { action: 'segment_free', addr: 0x7100000000, size: 20 * MiB, stream: 0 },
    ],
  ],
});

async function importHistory() {
  render(<LabView />);
  fireEvent.click(screen.getByText('Import a real trace (snapshot pickle or memory history JSON)'));
  fireEvent.change(screen.getByLabelText('Memory history JSON'), { target: { value: json } });
  fireEvent.click(screen.getByRole('button', { name: 'Import' }));
  return screen.findByRole('checkbox', { name: 'Compare with the calculator’s prediction' });
}

test('the recorded peaks come from the history; the scenario is named in words; off until asked', async () => {
  useApp.getState().patch({ model: 'meta-llama/Llama-3.2-1B', mode: 'inference', batch: 1, prompt: 128, gen: 8 });
  const toggle = await importHistory();
  expect(screen.getByText(/^The calculator’s scenario:/).textContent).toBe(
    'The calculator’s scenario: meta-llama/Llama-3.2-1B, Inference on HF Transformers, batch 1 × 128 + 8 tokens. Change it in the Calculator view.',
  );
  expect(screen.queryByTestId('lab-overlay-peaks')).toBeNull();
  fireEvent.click(toggle);
  // the prediction runs after the pending line is drawn (in a worker on the page; here, with none, on a timer)
  expect(screen.getByTestId('lab-overlay-pending').textContent).toBe('Computing the calculator’s prediction…');
  const table = await screen.findByTestId('lab-overlay-peaks');
  expect(screen.queryByTestId('lab-overlay-pending')).toBeNull();
  const cell = (row: string, col: string) => table.querySelector(`tr[data-row="${row}"] td[data-col="${col}"]`)?.textContent ?? '';
  expect(cell('recorded', 'reserved')).toContain(exactEn(40 * MiB));
  expect(cell('recorded', 'allocated')).toContain(exactEn(6 * MiB));
  // a 1B model's weights alone (2.47 GB in bf16) are far above 40 MiB: a large positive error
  expect(cell('error', 'reserved')).toMatch(/^\+[\d,]+(\.\d)? %$/);
  fireEvent.click(toggle);
  expect(screen.queryByTestId('lab-overlay-peaks')).toBeNull();
});

test('a scenario with no PyTorch allocator says why next to the control, and draws nothing', async () => {
  useApp.getState().patch({ mode: 'inference', engine: 'llama.cpp', weights: 'gguf-q4_k_m' });
  fireEvent.click(await importHistory());
  const alert = await screen.findByRole('alert');
  expect(alert.textContent).toContain('llama.cpp does not allocate through PyTorch’s caching allocator');
  expect(screen.queryByTestId('lab-overlay-chart')).toBeNull();
});
