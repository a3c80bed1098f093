import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { estimate } from '../../src/core/estimate';
import { classicMaxBatch, classicTraining } from '../../src/core/training/quick';
import { bytesPerParamNominal } from '../../src/core/formats/weights';
import { defaultScenario, ENGINES, KV_FORMATS, METHODS, MODES, OPTIMIZERS, PRECISIONS, WEIGHT_FORMATS, ATTNS, GRAD_CKPTS } from '../../src/core/scenario/schema';
import type { Scenario } from '../../src/core/types';

const keysOf = (over: Partial<Scenario>): string[] => {
  const r = estimate({ ...defaultScenario(), ...over });
  return r.ok ? [] : r.errors.map((e) => e.key);
};

describe('impossible scenarios return FieldErrors on the key to fix', () => {
  it.each<[string, Partial<Scenario>, string]>([
    ['QLoRA on GGUF weights', { mode: 'training', method: 'qlora', weights: 'gguf-q4_k_m' }, 'weights'],
    ['QLoRA on bf16 weights', { mode: 'training', method: 'qlora', weights: 'bf16' }, 'weights'],
    ['full fine-tune of int8 weights', { mode: 'training', method: 'full', weights: 'int8' }, 'weights'],
    ['tp·pp not dividing gpus', { gpus: 3, tp: 2 }, 'gpus'],
    ['LoRA rank 0', { mode: 'training', method: 'lora', loraRank: 0 }, 'loraRank'],
    ['NaN batch', { batch: Number.NaN }, 'batch'],
    ['Infinite prompt', { prompt: Number.POSITIVE_INFINITY }, 'prompt'],
    ['unknown preset', { model: 'nobody/nothing-1b' }, 'model'],
    ['no model and no count', { model: '', params: null }, 'params'],
    ['custom without arch', { model: 'custom', arch: null }, 'arch'],
    ['tp not dividing the 32 heads', { model: 'meta-llama/Llama-2-7b-hf', tp: 3, gpus: 3 }, 'tp'],
    ['q8_0 KV outside llama.cpp', { kv: 'q8_0' }, 'kv'],
    // transformers' QuantizedCache stores int2/int4/int8 (quanto, HQQ); it has no fp8 cache
    ['fp8 KV in transformers (the URL/CLI rules refuse it too)', { kv: 'fp8', engine: 'transformers' }, 'kv'],
    ['unknown GPU', { gpu: 'not-a-gpu' }, 'gpu'],
    ['GGUF weights in transformers', { weights: 'gguf-q4_0' }, 'weights'],
    ['optimizer offload without ZeRO', { mode: 'training', offload: 'optimizer' }, 'offload'],
    ['NaN sliding window override', { model: 'mistralai/Mistral-7B-v0.1', arch: { slidingWindow: { window: Number.NaN, layers: 32 } } }, 'arch'],
    [
      'negative MoE override',
      { model: 'meta-llama/Llama-2-7b-hf', arch: { moe: { experts: -8, expertsPerToken: 2, expertFfn: 100, sharedExperts: 0, sharedFfn: 0, denseLayers: 0, layerFreq: 1 } } },
      'arch',
    ],
  ])('%s', (_label, over, key) => {
    expect(keysOf(over)).toContain(key);
  });
});

describe('no input yields NaN or Infinity', () => {
  it('random scenarios either fail with errors or give finite, ordered totals', () => {
    const scenario = fc.record({
      model: fc.constantFrom('', 'meta-llama/Llama-2-7b-hf', 'Qwen/Qwen2.5-7B', 'custom', 'openai-community/gpt2'),
      params: fc.oneof(fc.constant(null), fc.double({ min: -1e16, max: 1e16, noNaN: false })),
      mode: fc.constantFrom(...MODES),
      method: fc.constantFrom(...METHODS),
      weights: fc.constantFrom(...WEIGHT_FORMATS),
      kv: fc.constantFrom(...KV_FORMATS),
      engine: fc.constantFrom(...ENGINES),
      precision: fc.constantFrom(...PRECISIONS),
      optimizer: fc.constantFrom(...OPTIMIZERS),
      attn: fc.constantFrom(...ATTNS),
      gradCkpt: fc.constantFrom(...GRAD_CKPTS),
      batch: fc.oneof(fc.integer({ min: -2, max: 512 }), fc.constant(Number.NaN)),
      prompt: fc.integer({ min: 0, max: 200_000 }),
      gen: fc.integer({ min: 0, max: 4096 }),
      seq: fc.integer({ min: 0, max: 65536 }),
      gpus: fc.constantFrom(1, 2, 8, 64),
      zero: fc.constantFrom<0 | 1 | 2 | 3>(0, 1, 2, 3),
      tp: fc.constantFrom(1, 2, 8),
      pp: fc.constantFrom(1, 2),
      loraRank: fc.integer({ min: 0, max: 512 }),
      gpuUtil: fc.double({ min: 0, max: 1.2 }),
      gpu: fc.constantFrom('', 'a100-80gb-sxm4', '24GiB'),
      ngl: fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 200 })),
      arch: fc.constantFrom(null, { hidden: 1024, layers: 4, heads: 8, ffn: 4096, vocab: 1000 }, { hidden: 0, layers: 4, heads: 8, ffn: 1, vocab: 1 }),
    });
    fc.assert(
      fc.property(scenario, (over) => {
        const r = estimate({ ...defaultScenario(), ...(over as Partial<Scenario>) });
        if (!r.ok) return r.errors.length > 0;
        const e = r.value;
        const nums = [e.allocatedBytes, e.reservedBytes, e.deviceBytes, ...e.terms.map((t) => t.bytes)];
        return nums.every((n) => Number.isFinite(n) && n >= 0) && e.allocatedBytes <= e.reservedBytes && e.reservedBytes <= e.deviceBytes;
      }),
      { numRuns: 400 },
    );
  });
});

describe('classic quick method (the seed example)', () => {
  it('int8 7B: 7 GB weights + 7 GB gradients + 14 GB AdamW + ~990 MB per sample ≈ 77 GB at batch 50 (fits 80 GB)', () => {
    const c = classicTraining({ params: 7e9, bytesPerParam: bytesPerParamNominal('int8'), perSampleBytes: 0.99e9, batch: 50 });
    expect(c.weights).toBe(7e9);
    expect(c.gradients).toBe(7e9);
    expect(c.optimizer).toBe(14e9);
    expect(c.total / 1e9).toBeCloseTo(77.5, 6);
    expect(classicMaxBatch({ params: 7e9, bytesPerParam: 1, perSampleBytes: 0.99e9 }, 80e9)).toBe(52);
  });
});
