import { describe, expect, test } from 'vitest';
import { freshCore } from '../fresh-core';

/** the core before the chunk arrives (fresh-core.ts) */
async function fresh() {
  const { estimate, defaultScenario } = await freshCore();
  return { estimate, qwen: { ...defaultScenario(), model: 'Qwen/Qwen-7B', mode: 'inference' as const, engine: 'transformers' as const, weights: 'bf16' as const, prompt: 2048, gen: 256 } };
}

describe("the remote-code models' runtime, loaded on demand (core/inference/remote-provider.ts)", () => {
  test('before remote-runtime.ts is loaded, Qwen-1 inference on transformers gets the loading error, never a number', async () => {
    const { estimate, qwen } = await fresh();
    const r = estimate(qwen);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual([expect.objectContaining({ key: 'model', code: 'remote.loading' })]);
  });

  test('vLLM runs its own Qwen code and needs none of it (only its own chunk), nor does a Llama model', async () => {
    const { estimate, qwen } = await fresh();
    await import('../../../src/core/inference/engines');
    expect(estimate({ ...qwen, engine: 'vllm', gpu: 'h100-sxm' }).ok).toBe(true);
    expect(estimate({ ...qwen, model: 'meta-llama/Llama-2-7b-hf' }).ok).toBe(true);
  });

  test("once it is loaded the same scenario is priced with Qwen-1's own buffers", async () => {
    const { estimate, qwen } = await fresh();
    await import('../../../src/core/inference/remote-runtime');
    const r = estimate(qwen);
    expect(r.ok).toBe(true);
    // logn_tensor 32 × 32,767 × 2 + fp32 rotary 2 × 4 × 128 × 4,096 (remote-runtime.test.ts)
    if (r.ok) expect(r.value.terms.find((t) => t.id === 'model-buffers')?.bytes).toBe(6_291_392);
  });
});

describe("a quantized K/V cache on a model that keeps its own (conflicts.ts 'remote-quantized-kv')", () => {
  test('ChatGLM3 keeps its kv_cache tuples itself: kv=int4 falls back to the default, with the reason', async () => {
    const { parseScenario } = await import('../../../src/core/scenario');
    const p = parseScenario({ model: 'THUDM/chatglm3-6b', kv: 'int4' });
    expect(p.errors.map((e) => [e.key, e.code, e.params?.with])).toEqual([['kv', 'incompatible', 'model']]);
    expect(p.scenario.kv).toBe('bf16');
  });

  test("Qwen-1's own cache is 8-bit: kv=int8 stands, kv=int4 is refused; vLLM (its own cache code) takes neither rule", async () => {
    const { parseScenario } = await import('../../../src/core/scenario');
    expect(parseScenario({ model: 'Qwen/Qwen-7B', kv: 'int8' }).errors).toEqual([]);
    expect(parseScenario({ model: 'Qwen/Qwen-7B', kv: 'int4' }).errors.map((e) => e.key)).toEqual(['kv']);
    expect(parseScenario({ model: 'Qwen/Qwen-7B', engine: 'vllm', kv: 'fp8' }).errors).toEqual([]);
  });
});
