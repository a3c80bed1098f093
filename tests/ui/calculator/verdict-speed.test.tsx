// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { Verdict } from '../../../src/ui/calculator/verdict';
import { initialData, useApp } from '../../../src/state/store';

beforeEach(() => {
  localStorage.clear();
  useApp.setState(initialData());
  useApp.getState().setGpus(['rtx-4090']);
});
afterEach(() => {
  cleanup();
  localStorage.clear();
});

// Llama-3.1-8B (the default model): 8,030,261,248 parameters; RTX 4090: 1,008 GB/s, 165.2 dense bf16 TFLOPS
describe('the verdict states how fast at best (roofline bounds)', () => {
  test('inference: decode ≤ bandwidth / (weights + KV read at the mean context)', async () => {
    useApp.getState().patch({ model: 'meta-llama/Llama-3.1-8B', mode: 'inference', weights: 'bf16', prompt: 2048, gen: 256, batch: 1 });
    render(<Verdict />);
    const decode = 1008e9 / (8_030_261_248 * 2 + (2048 + 128) * 2 * 32 * 8 * 128 * 2);
    expect(Math.round(decode)).toBe(62);
    const line = await screen.findByTestId('verdict-speed');
    expect(line.textContent).toContain('At best ~62 tokens/s decoding');
    expect(line.textContent).toContain('roofline bound');
    expect(line.getAttribute('title')).toContain('b · BW / (W_read + KV_read)');
  });

  test('LoRA training: a step costs 4·P FLOPs per token plus attention, at 40 % of the bf16 peak', async () => {
    useApp.getState().patch({ model: 'meta-llama/Llama-3.1-8B', mode: 'training', method: 'lora', precision: 'amp-bf16', batch: 1, seq: 2048 });
    render(<Verdict />);
    const seconds = ((4 * 8_030_261_248 + 2 * 32 * 32 * 128 * 1024 * 3) * 2048) / (165.2e12 * 0.4);
    expect(seconds.toFixed(2)).toBe('1.02');
    expect((await screen.findByTestId('verdict-speed')).textContent).toContain('at least ~1.02 s at 40');
  });
});
