/**
 * The scenario keys double-quant and group-size (formats/weights.ts weightOptions), on Llama-2-7b:
 * 32 layers of q, k, v, o (4096 × 4096) and gate, up, down (4096 × 11008).
 */
import { describe, expect, test } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { parseScenario } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Scenario } from '../../../src/core/types';

const weights = (p: Partial<Scenario>) => {
  const r = estimate({ ...defaultScenario(), model: 'meta-llama/Llama-2-7b-hf', ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.terms.find((t) => t.id === 'weights')!.bytes;
};

describe('double-quant (bitsandbytes functional.quantize_4bit, compress_statistics)', () => {
  test('nf4: off − on = Σ over Linears of 3·b − 4·⌈b/256⌉ − 4, b = n/64 blocks: 301,980,800 B', () => {
    // off: one fp32 absmax per 64 weights; on: uint8 absmax per block, fp32 absmax per 256 blocks and one fp32 offset
    const delta = (n: number) => {
      const b = n / 64;
      return 4 * b - (b + 4 * Math.ceil(b / 256) + 4);
    };
    const perLayer = 4 * delta(4096 * 4096) + 3 * delta(4096 * 11008);
    expect(32 * perLayer).toBe(301_980_800);
    expect(weights({ weights: 'nf4', doubleQuant: 'off' }) - weights({ weights: 'nf4', doubleQuant: 'on' })).toBe(301_980_800);
  });

  test("'auto' is on for nf4 (QLoRA recipes) and off for fp4 (BitsAndBytesConfig's default)", () => {
    expect(weights({ weights: 'nf4' })).toBe(weights({ weights: 'nf4', doubleQuant: 'on' }));
    expect(weights({ weights: 'fp4' })).toBe(weights({ weights: 'fp4', doubleQuant: 'off' }));
  });
});

describe('group-size (GPTQ qzeros int32 [in/G, out·w/32] and scales fp16 [in/G, out])', () => {
  test('gptq-int4 at group 64 holds n·5/256 bytes more than at 128: 126,484,480 B over the 6,476,005,376 block weights', () => {
    // per Linear, halving G adds in/128 groups of (out/2 + 2·out) bytes = n · 2.5/128
    expect((6_476_005_376 * 5) / 256).toBe(126_484_480);
    expect(weights({ weights: 'gptq-int4', groupSize: 64 }) - weights({ weights: 'gptq-int4' })).toBe(126_484_480);
    expect(weights({ weights: 'gptq-int4', groupSize: 128 })).toBe(weights({ weights: 'gptq-int4' }));
  });

  test('keys set for another format are kept with a warning naming the formats they change', () => {
    const r = parseScenario({ weights: 'bf16', 'double-quant': 'on', 'group-size': '32' });
    expect(r.warnings.map((w) => [w.key, w.code])).toEqual([
      ['double-quant', 'unused-key'],
      ['group-size', 'unused-key'],
    ]);
    expect(r.warnings[0].message).toContain('nf4, fp4');
  });
});
