import { describe, expect, test } from 'vitest';
import { freshCore } from '../fresh-core';

/** the core before the chunk arrives (fresh-core.ts), with this file's scenario */
async function fresh() {
  const { estimate, defaultScenario } = await freshCore();
  return { estimate, sd15: { ...defaultScenario(), model: 'runwayml/stable-diffusion-v1-5', weights: 'fp16' as const } };
}

describe('the image-generation estimator, loaded on demand (core/diffusion/provider.ts)', () => {
  test('before build.ts is loaded an image model gets the loading error on its model field, never a number', async () => {
    const { estimate, sd15 } = await fresh();
    const r = estimate(sd15);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual([expect.objectContaining({ key: 'model', code: 'diffusion.loading', params: { name: 'Stable Diffusion 1.5' } })]);
  });

  test('language models need none of it', async () => {
    const { estimate, sd15 } = await fresh();
    const r = estimate({ ...sd15, model: 'meta-llama/Llama-2-7b-hf' });
    // Llama-2-7B: 6,738,415,616 parameters (the count of its safetensors, the model card's "7B")
    expect(r.ok && r.value.params.total).toBe(6_738_415_616);
  });

  test('once build.ts is loaded the same scenario is priced: SD 1.5 counts UNet 859,520,964 + VAE 83,653,863 + CLIP-L 123,060,480 parameters', async () => {
    const { estimate, sd15 } = await fresh();
    await import('../../../src/core/diffusion/build');
    const r = estimate(sd15);
    expect(r.ok && r.value.params.total).toBe(859_520_964 + 83_653_863 + 123_060_480);
  });
});
