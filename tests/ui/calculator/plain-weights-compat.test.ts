import { expect, test } from 'vitest';
import { optionReason } from '../../../src/ui/calculator/compat';
import { defaultScenario } from '../../../src/core/scenario/schema';

test('the form greys out plain int8 / int4 / fp64 where they cannot run, with the core\u2019s sentence as the detail', () => {
  const train = { ...defaultScenario(), mode: 'training' as const, method: 'lora' as const };
  expect(optionReason(train, 'weights', 'int8')).toEqual({ key: 'why.plain-not-trainable', detail: expect.stringMatching(/bnb-int8/) });
  expect(optionReason(train, 'weights', 'bnb-int8')).toBeUndefined();
  const vllm = { ...defaultScenario(), engine: 'vllm' as const };
  expect(optionReason(vllm, 'weights', 'int4')?.key).toBe('why.plain-engine');
  expect(optionReason(defaultScenario(), 'weights', 'int4')).toBeUndefined();
});
