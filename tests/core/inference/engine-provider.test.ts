import { describe, expect, test } from 'vitest';
import { freshCore } from '../fresh-core';

async function fresh() {
  const { estimate, defaultScenario } = await freshCore();
  return { estimate, llama: { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', mode: 'inference' as const, weights: 'bf16' as const, kv: 'bf16' as const } };
}

describe('the vLLM and llama.cpp estimators, loaded on demand (core/inference/engine-provider.ts)', () => {
  test('before engines.ts is loaded, vLLM and llama.cpp scenarios get the loading error on the engine field, never a number', async () => {
    const { estimate, llama } = await fresh();
    for (const engine of ['vllm', 'llama.cpp'] as const) {
      const r = estimate({ ...llama, engine, gpu: 'a100-80gb-sxm4', ...(engine === 'llama.cpp' ? { weights: 'gguf-q4_k_m' as const, kv: 'fp16' as const } : {}) });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors).toEqual([expect.objectContaining({ key: 'engine', code: 'engines.loading' })]);
    }
  });

  test('transformers needs none of it; once it is loaded vLLM fills the card to gpu_memory_utilization', async () => {
    const { estimate, llama } = await fresh();
    expect(estimate(llama).ok).toBe(true);
    await import('../../../src/core/inference/engines');
    const r = estimate({ ...llama, engine: 'vllm', gpu: 'a100-80gb-sxm4' });
    expect(r.ok).toBe(true);
    // vLLM reserves gpu_memory_utilization (0.9 by default) of the card: more than Llama-2-7b's 13.5 GB of bf16 weights
    if (r.ok) expect(r.value.deviceBytes).toBeGreaterThan(2 * 6_738_415_616);
  });
});
