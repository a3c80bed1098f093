// @vitest-environment happy-dom
import { afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { GpuPicker } from '../../../src/ui/calculator/gpu-picker';
import { GPUS } from '../../../src/core/gpus';
import { initialData, useApp } from '../../../src/state/store';

const GIB = 2 ** 30;
// the marks module is a lazy chunk: transform it once up front
beforeAll(() => import('../../../src/ui/calculator/fit-marks'), 30_000);
beforeEach(() => {
  localStorage.clear();
  useApp.setState(initialData());
  // Llama-3.1-8B bf16, HF transformers, 8,192 prompt + 256 generated tokens (the example)
  useApp.getState().patch({ model: 'meta-llama/Llama-3.1-8B', mode: 'inference', weights: 'bf16', prompt: 8192, gen: 256, batch: 1 });
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// By hand: weights 8,030,261,248 · 2 B, KV 8,448 tokens · 131,072 B, prefill outputs
// 3 · 8192 · 14336 · 2 B + 4 · 8192 · 4096 · 2 B, CUDA context 500 MiB: 17.38 GiB at least.
const LOWER = 8_030_261_248 * 2 + 8448 * 131_072 + (3 * 8192 * 14_336 + 4 * 8192 * 4096) * 2 + 500 * 2 ** 20;

describe('the GPU picker marks every catalogue card for the scenario', () => {
  test('cards under 17.38 GiB say "does not fit" in words; the cheapest card that fits is the RTX 4090', async () => {
    expect(LOWER / GIB).toBeCloseTo(17.38, 2);
    render(<GpuPicker />);
    const picker = screen.getByRole('combobox', { name: 'Catalogue' });
    // the accessible name of each option carries its mark
    const t4 = await within(picker).findByRole('option', { name: /^✗ does not fit — Tesla T4 — 16 GB$/ }, { timeout: 5000 });
    expect(t4).toBeTruthy();
    for (const g of GPUS.filter((x) => x.capacityBytes < LOWER)) {
      expect(within(picker).getByRole('option', { name: new RegExp(`^✗ does not fit — ${g.name.replace(/[()+]/g, '\\$&')} — `) })).toBeTruthy();
    }
    // the consumer cards over the bound are the 24 GB class; the 4090 reports the least of them
    // (24,564 MiB, nvidia-smi) and holds the scenario, so the catalogue's ranking names it
    const cheapest = screen.getByTestId('cheapest');
    expect(cheapest.textContent).toContain('Cheapest card that fits: GeForce RTX 4090');
    expect(cheapest.textContent).toContain('The catalogue has no prices');
  });

  test('"Use this card" makes it the GPU the verdict is judged against, keeping the others', async () => {
    useApp.getState().setGpus(['a100-80gb-sxm4']);
    render(<GpuPicker />);
    const use = await screen.findByRole('button', { name: 'Use this card' }, { timeout: 5000 });
    expect(use.getAttribute('aria-describedby')).toBeTruthy();
    fireEvent.click(use);
    expect(useApp.getState().gpus).toEqual(['rtx-4090', 'a100-80gb-sxm4']);
    expect(screen.getByRole('button', { name: 'In use' })).toHaveProperty('disabled', true);
  });

  test('in 简体中文 the marks are translated', async () => {
    useApp.getState().setLang('zh');
    render(<GpuPicker />);
    const picker = screen.getByRole('combobox', { name: '型号列表' });
    expect(await within(picker).findByRole('option', { name: /^✗ 放不下 — Tesla T4 — 16 GB$/ }, { timeout: 5000 })).toBeTruthy();
    expect(screen.getByTestId('cheapest').textContent).toContain('放得下的最便宜的卡：GeForce RTX 4090');
  });
});
