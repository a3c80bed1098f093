import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { ALL_KEYS, ARCH_FIELDS, parseScenario, serializeScenario } from '../../../src/core/scenario';
import { estimate } from '../../../src/core/estimate';
import { CONFLICTS } from '../../../src/core/scenario/conflicts';
import { ruleArch, typedClash } from '../../../src/core/scenario/rules';

// The validator's promise to the core: whatever it lets through, estimate() accepts — except a
// clash of typed numbers, which a link keeps as written (the form lets it stand) and the estimate
// refuses under that rule's code (rules.ts typedClash).
const mustEstimate = (rec: Record<string, string>) => {
  const s = parseScenario(rec).scenario;
  const r = estimate(s);
  if (!r.ok) {
    const typed = CONFLICTS.filter((c) => typedClash(c, s) && c.when(s, ruleArch(s))).map((c) => c.id);
    if (typed.length === 0 || !r.errors.every((e) => typed.includes(e.code))) throw new Error(`${JSON.stringify(rec)} -> ${JSON.stringify(r.errors)}`);
    return null;
  }
  expect(Number.isFinite(r.value.deviceBytes)).toBe(true);
  return s;
};

describe('every scenario parseScenario yields is estimable', () => {
  test('random records -> estimate(...).ok with finite totals', () => {
    const value = fc.constantFrom(
      '2',
      '8',
      '32',
      '4096',
      'training',
      'inference',
      'lora',
      'qlora',
      'freeze',
      'nf4',
      'int8',
      'gptq-int4',
      'gguf-q4_k_m',
      'vllm',
      'llama.cpp',
      'fp8',
      'q8_0',
      'int4',
      'all',
      '7b',
      'true',
      'full',
      'flash',
      'fp32',
      '3',
      '0.5',
      'mistralai/Mixtral-8x7B-v0.1',
      'deepseek-ai/DeepSeek-V3',
      'openai-community/gpt2',
      'rtx-4090',
      'params',
      'optimizer',
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...ALL_KEYS), value, { maxKeys: 12 }), (rec) => {
        mustEstimate(rec);
      }),
      { numRuns: 1000 },
    );
  }, 120_000); // generous: thousands of cases on a loaded CI machine

  test('random architectures (custom or overrides on dense / MoE / MLA presets) estimate and round-trip', () => {
    const int = fc.oneof(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 20000 }), fc.constantFrom(1, 8, 4096, 1_048_576)).map(String);
    const arch = fc.record(
      Object.fromEntries(
        ARCH_FIELDS.map((f) => [
          f.name,
          f.kind.type === 'bool' ? fc.constantFrom('true', 'false') : f.kind.type === 'enum' ? fc.constantFrom(...f.kind.values) : f.kind.type === 'text' ? fc.constantFrom('llama', 'x') : int,
        ]),
      ),
      { requiredKeys: [] },
    );
    const model = fc.constantFrom('custom', 'meta-llama/Llama-2-7b-hf', 'mistralai/Mixtral-8x7B-v0.1', 'deepseek-ai/DeepSeek-V3', 'Qwen/Qwen3-30B-A3B');
    fc.assert(
      fc.property(arch, model, fc.constantFrom('inference', 'training'), (a, m, mode) => {
        const s = mustEstimate({ ...(a as Record<string, string>), model: m, mode, prompt: '16', gen: '16', seq: '16' });
        if (s === null) return;
        const again = parseScenario(serializeScenario(s));
        expect(again.errors).toEqual([]);
        expect(again.scenario).toEqual(s);
      }),
      { numRuns: 1000 },
    );
  }, 120_000);
});
