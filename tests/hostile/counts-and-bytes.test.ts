/**
 * Issue #16 §8: "`--params 1` reports about 94 MiB of weights: a guessed shape must honour the
 * count given" and "Some byte counts are fractional. Bytes are whole numbers."
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimate } from '../../src/core/estimate';
import { defaultScenario } from '../../src/core/scenario/schema';
import type { Estimate, Scenario } from '../../src/core/types';

function weightsOf(over: Partial<Scenario>): number {
  const e = estimate({ ...defaultScenario(), model: '', mode: 'inference', ...over });
  if (!e.ok) throw new Error(e.errors[0]?.message);
  return e.value.terms.find((t) => t.id === 'weights')!.bytes;
}

describe('a bare count is honoured by the weights', () => {
  it('1 parameter in bf16 is 2 bytes, not the guessed shape’s 32,000 × 768 tables', () => {
    expect(weightsOf({ params: 1, weights: 'bf16' })).toBe(2);
  });
  it('1M parameters: 2,000,000 bytes in bf16 and 4,000,000 in fp32 (IEEE widths)', () => {
    expect(weightsOf({ params: 1e6, weights: 'bf16' })).toBe(2_000_000);
    expect(weightsOf({ params: 1e6, weights: 'fp32' })).toBe(4_000_000);
  });
  it('a count in the published range keeps its exact size too: 7b in fp16 = 7e9 · 2 B', () => {
    expect(weightsOf({ params: 7e9, weights: 'fp16' })).toBe(14e9);
  });
});

function byteFields(e: Estimate): number[] {
  return [e.allocatedBytes, e.reservedBytes, e.deviceBytes, ...e.terms.map((t) => t.bytes), ...(e.perGpu ?? [])];
}

describe('bytes are whole numbers', () => {
  it('every total, term and per-GPU figure of 1,000 random scenarios is an integer', () => {
    let checked = 0;
    fc.assert(
      fc.property(
        fc.record({
          model: fc.constantFrom('', 'openai-community/gpt2', 'meta-llama/Llama-2-7b-hf', 'Qwen/Qwen3-30B-A3B'),
          params: fc.constantFrom(1, 123_456_789, 1.3e9, 7e9),
          mode: fc.constantFrom('training', 'inference'),
          method: fc.constantFrom('full', 'lora', 'qlora'),
          weights: fc.constantFrom('bf16', 'fp32', 'nf4', 'gptq-int4', 'awq-int4'),
          batch: fc.integer({ min: 1, max: 16 }),
          seq: fc.integer({ min: 1, max: 9000 }),
          zero: fc.constantFrom(0, 1, 2, 3),
          gpus: fc.constantFrom(1, 3, 8),
          engine: fc.constantFrom('transformers', 'vllm'),
        }) as fc.Arbitrary<Partial<Scenario>>,
        (o) => {
          const e = estimate({ ...defaultScenario(), ...o });
          if (!e.ok) return;
          checked++;
          for (const b of byteFields(e.value)) expect(Number.isInteger(b)).toBe(true);
        },
      ),
      { numRuns: 1000, seed: 20261125 },
    );
    expect(checked).toBeGreaterThan(300);
  });
});
