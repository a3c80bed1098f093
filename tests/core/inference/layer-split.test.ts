import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { CUBLAS_WORKSPACE_BYTES } from '../../../src/core/runtime';
import { defaultScenario } from '../../../src/core/scenario';
import type { Scenario } from '../../../src/core/types';

// Llama-2-7b bf16 (h=4096, L=32, f=11008, V=32000, a=32, untied head), transformers generate,
// SDPA, batch 1, prompt 2048, 256 new tokens, device_map="auto" (accelerate, see device-map.test.ts).
const E = 32000 * 4096 * 2;
// one block as the estimate prices it: the 32 blocks plus the final norm (8192 B) spread evenly
const B = (4 * 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096) * 2 + 8192 / 32;
const KV_PER_LAYER_TOKEN = 2 * 32 * 128 * 2; // K and V, a·d per token, bf16 = 16,384 B
// prefill transient: the MLP of one layer, 4·s·b·h·e + 3·s·b·f·e (transformers LlamaMLP; SDPA keeps no scores),
// and the rotary cos and sin of b·s·d each that LlamaModel.forward hands every layer (accelerate's hook
// moves them to each GPU): 2·2048·128·2 = 1,048,576 B
const PREFILL = 4 * 2048 * 4096 * 2 + 3 * 2048 * 11008 * 2 + 2 * 2048 * 128 * 2; // 203,423,744 B

function run(gpus: number) {
  const s: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', weights: 'bf16', kv: 'bf16', batch: 1, prompt: 2048, gen: 256, attn: 'sdpa', gpus, split: 'layers' };
  const r = estimate(s);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

describe('transformers device_map="auto" (split=layers)', () => {
  it("2 GPUs: 16 + 16 layers, both at weights + their layers' prompt KV + one layer's prefill MLP", () => {
    const v = run(2);
    // end of prefill beats the last decode step on each GPU:
    // prefill 16·2048·16,384 + 202,375,168 = 739,246,080 > decode 16·2304·16,384 + cat copy 2304·16,384/2 + 192,000 logits
    const gpu0 = E + 16 * B + CUBLAS_WORKSPACE_BYTES + 16 * 2048 * KV_PER_LAYER_TOKEN + PREFILL;
    const gpu1 = 16 * B + E + CUBLAS_WORKSPACE_BYTES + 16 * 2048 * KV_PER_LAYER_TOKEN + PREFILL;
    expect(v.perGpu).toEqual([gpu0, gpu1]);
    expect(v.allocatedBytes).toBe(Math.max(gpu0, gpu1));
    expect(v.terms.find((t) => t.id === 'kv-cache')!.bytes).toBe(16 * 2304 * KV_PER_LAYER_TOKEN);
  });

  it('4 GPUs: 7 / 9 / 9 / 7 layers, the middle GPUs carry the most', () => {
    const v = run(4);
    const mid = 9 * B + CUBLAS_WORKSPACE_BYTES + 9 * 2048 * KV_PER_LAYER_TOKEN + PREFILL;
    expect(v.perGpu![1]).toBe(mid);
    expect(v.allocatedBytes).toBe(mid);
    // the first GPU: embedding + 7 blocks; the last: 7 blocks + head, whose logits b·V·(e+4) = 192,000 stay below the MLP
    expect(v.perGpu![0]).toBe(E + 7 * B + CUBLAS_WORKSPACE_BYTES + 7 * 2048 * KV_PER_LAYER_TOKEN + PREFILL);
    expect(v.perGpu![3]).toBe(v.perGpu![0]);
    expect(v.terms.find((t) => t.id === 'weights')!.derivation.note?.code).toBe('inference.layer-split');
  });

  it('more GPUs than layers is refused with a message', () => {
    const s: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', gpus: 64, split: 'layers' };
    const r = estimate(s);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].code).toBe('split-layers');
  });

  it('vLLM cannot take split=layers', () => {
    const r = estimate({ ...defaultScenario(), engine: 'vllm', gpus: 2, split: 'layers' });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].code).toBe('split-engine');
  });
});
