import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { ALL_KEYS, parseScenario } from '../../../src/core/scenario';
import { estimate } from '../../../src/core/estimate';

// The validator's promise to the core: whatever it lets through, estimate() accepts.
describe('every scenario parseScenario yields is estimable', () => {
  test('random records -> estimate(...).ok with finite totals', () => {
    const value = fc.constantFrom('2', '8', '32', '4096', 'training', 'inference', 'lora', 'qlora', 'freeze', 'nf4', 'int8', 'gptq-int4',
      'gguf-q4_k_m', 'vllm', 'llama.cpp', 'fp8', 'q8_0', 'int4', 'all', '7b', 'true', 'full', 'flash', 'fp32', '3', '0.5',
      'mistralai/Mixtral-8x7B-v0.1', 'deepseek-ai/DeepSeek-V3', 'openai-community/gpt2', 'rtx-4090', 'params', 'optimizer');
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...ALL_KEYS), value, { maxKeys: 12 }), (rec) => {
        const s = parseScenario(rec).scenario;
        const r = estimate(s);
        if (!r.ok) throw new Error(`${JSON.stringify(rec)} -> ${JSON.stringify(r.errors)}`);
        expect(Number.isFinite(r.value.deviceBytes)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  }, 120_000); // generous: thousands of cases on a loaded CI machine
});
