import { describe, expect, test } from 'vitest';
import { freshCore } from '../fresh-core';

/** the core before the chunk arrives (fresh-core.ts), with this file's scenario */
async function fresh() {
  const { estimate, defaultScenario } = await freshCore();
  return { estimate, llama: { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', weights: 'bf16' as const } };
}

describe('the training estimator, loaded on demand (core/training/provider.ts)', () => {
  test('before builders.ts is loaded a training scenario gets the loading error on its mode field, never a number', async () => {
    const { estimate, llama } = await fresh();
    const r = estimate({ ...llama, mode: 'training' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual([expect.objectContaining({ key: 'mode', code: 'training.loading' })]);
  });

  test('a training scenario with a bad value gets that error first, not the loading one', async () => {
    const { estimate, llama } = await fresh();
    const r = estimate({ ...llama, mode: 'training', batch: -1 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.some((e) => e.code === 'training.loading')).toBe(false);
  });

  test('inference needs none of it', async () => {
    const { estimate, llama } = await fresh();
    const r = estimate(llama);
    // Llama-2-7B: 6,738,415,616 parameters (the count of its safetensors, the model card's "7B")
    expect(r.ok && r.value.params.total).toBe(6_738_415_616);
  });

  test('once builders.ts is loaded the same scenario is priced: bf16 weights + gradients + fp32 Adam moments, 12 bytes a parameter at least', async () => {
    const { estimate, llama } = await fresh();
    await import('../../../src/core/training/builders');
    const r = estimate({ ...llama, mode: 'training' });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.deviceBytes).toBeGreaterThan(12 * 6_738_415_616);
  });
});
