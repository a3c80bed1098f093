import { describe, expect, test } from 'vitest';
import { parseScenario } from '../../../src/core/scenario';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Scenario } from '../../../src/core/types';

const errs = (rec: Record<string, string>) => parseScenario(rec).errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`);
const estimateErrs = (over: Partial<Scenario>) => {
  const r = estimate({ ...defaultScenario(), ...over });
  return r.ok ? [] : r.errors.map((e) => `${e.key}:${e.code}`);
};

describe('fp64 and plain int8 / int4: transformers inference only', () => {
  test.each(['fp64', 'int8', 'int4'])('transformers inference over %s runs', (w) => {
    expect(errs({ weights: w })).toEqual([]);
    expect(estimateErrs({ weights: w as Scenario['weights'], model: 'meta-llama/Llama-2-7b-hf' })).toEqual([]);
  });

  test.each(['full', 'lora', 'qlora', 'freeze'])('training (%s) over plain int8 is refused with the formats it can use', (method) => {
    const r = parseScenario({ mode: 'training', method, weights: 'int8' });
    expect(r.errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`)).toEqual(['weights:incompatible:mode']);
    expect(r.errors[0].message).toMatch(/bnb-int8/);
    expect(r.scenario.weights).toBe(method === 'qlora' ? 'nf4' : 'bf16');
    expect(estimateErrs({ mode: 'training', method: method as Scenario['method'], weights: 'int8' })).toEqual(['weights:plain-not-trainable']);
  });

  test('fp64 training points at the precision key', () => {
    expect(parseScenario({ mode: 'training', weights: 'fp64' }).errors[0].message).toMatch(/precision key/);
  });

  test('vLLM and llama.cpp name their own nearest formats', () => {
    expect(errs({ engine: 'vllm', weights: 'int4' })).toEqual(['weights:incompatible:engine']);
    expect(parseScenario({ engine: 'vllm', weights: 'int8' }).errors[0].message).toMatch(/gptq-int8/);
    expect(parseScenario({ engine: 'vllm', weights: 'fp64' }).errors[0].message).toMatch(/not fp64/);
    expect(parseScenario({ engine: 'llama.cpp', weights: 'int4' }).errors[0].message).toMatch(/gguf-q4_0/);
    expect(parseScenario({ engine: 'llama.cpp', weights: 'int8' }).errors[0].message).toMatch(/gguf-q8_0/);
    expect(estimateErrs({ engine: 'vllm', weights: 'int8' })).toEqual(['weights:plain-engine']);
    expect(errs({ engine: 'vllm', weights: 'bnb-int8' })).toEqual([]);
  });
});

test('fp64 weights cannot use FlashAttention (fp16 / bf16 kernels only, Dao-AILab/flash-attention README)', () => {
  expect(errs({ weights: 'fp64', attn: 'flash' })).toEqual(['attn:incompatible:weights']);
  expect(estimateErrs({ weights: 'fp64', attn: 'flash' })).toEqual(['attn:flash-needs-16bit-weights']);
});
