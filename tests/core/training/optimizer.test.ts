import { describe, expect, it } from 'vitest';
import { modelStateBytes, optimizerBytesPerParam, totalStateBytes } from '../../../src/core/training/optimizer';

describe('model-state bytes per parameter (docs/reference/formulas.md §4.1)', () => {
  it('mixed-precision Adam under ZeRO is 2 + 2 + 12 = 16 B (ZeRO paper §3.1, K = 12)', () => {
    const m = modelStateBytes('amp-fp16', 'adamw', true);
    expect(m.weights).toBe(2);
    expect(m.gradients).toBe(2);
    expect(m.master + m.optimizer).toBe(12);
    expect(totalStateBytes(m)).toBe(16);
  });
  it('torch AMP (HF Trainer) is 6 + 4 + 8 = 18 B (HF model_memory_anatomy)', () => {
    const m = modelStateBytes('amp-bf16', 'adamw');
    expect(m.weights + m.master).toBe(6);
    expect(m.gradients).toBe(4);
    expect(m.optimizer).toBe(8);
  });
  it('pure bf16 AdamW is 8 B ("x8 bytes per param instead of x18", transformers PR #21312)', () => {
    expect(totalStateBytes(modelStateBytes('bf16', 'adamw'))).toBe(8);
  });
  it('fp32 regimes: AdamW 16, SGD 8, SGD+momentum 12, Lion 12', () => {
    expect(totalStateBytes(modelStateBytes('fp32', 'adamw'))).toBe(16);
    expect(totalStateBytes(modelStateBytes('fp32', 'sgd'))).toBe(8);
    expect(totalStateBytes(modelStateBytes('fp32', 'sgd-momentum'))).toBe(12);
    expect(totalStateBytes(modelStateBytes('fp32', 'lion'))).toBe(12);
  });
  it('bnb 8-bit Adam: two uint8 states + fp32 absmax per 256 = 2 + 8/256 B', () => {
    expect(optimizerBytesPerParam('adamw-8bit', 'fp32')).toBeCloseTo(2 + 8 / 256, 12);
    expect(optimizerBytesPerParam('paged-adamw-8bit', 'bf16')).toBeCloseTo(2 + 8 / 256, 12);
    expect(optimizerBytesPerParam('paged-adamw', 'amp-bf16')).toBe(8);
  });
  it('Adafactor factored states: 4·(n+m) bytes per n×m matrix', () => {
    const h = 4096;
    expect(optimizerBytesPerParam('adafactor', 'fp32', h) * h * h).toBeCloseTo(4 * (h + h), 6);
  });
  it('Llama-2-7b (6,738,415,616 params) at 16 B/param = 107.8 GB (docs/reference/formulas.md §4.1 check)', () => {
    const bytes = 6_738_415_616 * totalStateBytes(modelStateBytes('amp-bf16', 'adamw', true));
    expect(bytes / 1e9).toBeCloseTo(107.8, 1);
  });
});
