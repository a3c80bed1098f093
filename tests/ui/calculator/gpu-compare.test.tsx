// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { GpuCompare } from '../../../src/ui/calculator/gpu-compare';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Result, Scenario } from '../../../src/core/types';
import { initialData, useApp } from '../../../src/state/store';
import { estimate } from '../../../src/core/estimate';

beforeEach(() => {
  localStorage.clear();
  useApp.setState(initialData());
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

/** The value of a result that must be ok. */
function ok<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value;
}

const sc = (over: Partial<Scenario>): Scenario => ({ ...defaultScenario(), model: 'meta-llama/Llama-3.1-8B', ...over });

/** The cells of the row whose GPU cell is `name`, keyed by column header. */
function row(name: string): Record<string, string> {
  const table = screen.getByRole('table');
  const heads = within(table)
    .getAllByRole('columnheader')
    .map((h) => (h.textContent ?? '').trim());
  const tr = within(table).getByText(name, { selector: 'td' }).closest('tr')!;
  const cells = [...tr.querySelectorAll('th, td')].map((c) => c.textContent ?? '');
  return Object.fromEntries(heads.map((h, i) => [h, cells[i]]));
}

// Llama-3.1-8B: 8,030,261,248 parameters, 32 layers, 8 KV heads × 128, 32 heads. RTX 4090: 1,008 GB/s,
// 165.2 dense bf16 TFLOPS, 24,564 MiB; Tesla T4: 15,360 MiB (nvidia-smi).
describe('the GPU comparison shows the speed bound the core computes', () => {
  test('inference: decode at most bandwidth / (weights + KV at the mean context); a typed capacity has no bound', () => {
    useApp.getState().setGpus(['rtx-4090', 't4', '24gib']);
    const s = sc({ weights: 'bf16', prompt: 2048, gen: 256, batch: 1 });
    render(<GpuCompare s={s} est={ok(estimate(s))} />);
    const decode = 1008e9 / (8_030_261_248 * 2 + (2048 + 128) * 2 * 32 * 8 * 128 * 2);
    expect(Math.round(decode)).toBe(62);
    expect(row('GeForce RTX 4090')['Decode, at most (tokens/s)']).toBe('62');
    expect(row('24 GiB')['Decode, at most (tokens/s)']).toBe('–');
    // weights 14.96 GiB + KV 2,304 · 131,072 B + prefill outputs (3·2048·14336 + 4·2048·4096) · 2 B + 500 MiB
    // CUDA context = 15.95 GiB at least: over the T4's 15 GiB
    expect(row('Tesla T4').Fits).toBe('✗ does not fit');
  });

  test('training: the column is the optimizer step, at least (k·P + attention) · tokens / (peak · MFU)', () => {
    useApp.getState().setGpus(['rtx-4090']);
    const s = sc({ mode: 'training', method: 'lora', precision: 'amp-bf16', batch: 1, seq: 2048, mfu: 0.4 });
    render(<GpuCompare s={s} est={ok(estimate(s))} />);
    const seconds = ((4 * 8_030_261_248 + 2 * 32 * 32 * 128 * 1024 * 3) * 2048) / (165.2e12 * 0.4);
    expect(seconds.toFixed(2)).toBe('1.02');
    expect(row('GeForce RTX 4090')['Optimizer step, at least (s)']).toBe('1.02');
  });
});
