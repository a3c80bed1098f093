import { describe, expect, test } from 'vitest';
import { defaultScenario } from '../../../src/core/scenario';
import { differingFields, valueWords } from '../../../src/ui/calculator/scenario-diff';

const names = (ss: Parameters<typeof differingFields>[0]) => differingFields(ss).map((f) => f.name);

describe('what sets side-by-side scenarios apart (#12 §6)', () => {
  test('one scenario, or copies, differ in nothing', () => {
    const a = defaultScenario();
    expect(names([a])).toEqual([]);
    expect(names([a, { ...a }])).toEqual([]);
  });

  test('bf16 against AWQ int4: the weight format and nothing else, named by its option label', () => {
    const a = defaultScenario();
    const b = { ...a, weights: 'awq-int4' as const };
    expect(names([a, b])).toEqual(['weights']);
    const [f] = differingFields([a, b]);
    expect([valueWords('en', a, f), valueWords('en', b, f)]).toEqual(['bf16', 'AWQ int4']);
  });

  test('numbers read after their key, in either language; keys in schema order; model, mode and GPU left to the chip', () => {
    const a = defaultScenario();
    const b = { ...a, batch: 16, prompt: 4096, gpu: 'h100-sxm', model: 'Qwen/Qwen2.5-7B' };
    expect(names([a, b])).toEqual(['batch', 'prompt']);
    const [batch] = differingFields([a, b]);
    expect(valueWords('en', b, batch)).toBe('Batch size 16');
  });

  test('an option that does not name itself carries its key: checkpointing on and off', () => {
    const a = { ...defaultScenario(), mode: 'training' as const };
    const b = { ...a, gradCkpt: 'full' as const };
    const [f] = differingFields([a, b]);
    expect(valueWords('en', b, f)).toBe('Gradient checkpointing: Full (every layer)');
  });

  test('auto and a number are told apart by their link spelling', () => {
    const a = { ...defaultScenario(), mode: 'training' as const, lengths: 'varied' as const };
    const b = { ...a, lenMean: 512 };
    expect(names([a, b])).toEqual(['len-mean']);
    const [f] = differingFields([a, b]);
    expect(valueWords('en', a, f)).toMatch(/ auto$/);
  });
});
