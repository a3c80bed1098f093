/**
 * transformers QuantizedCache (cache_utils.py QuantizedLayer.update, QuantizedCacheConfig defaults
 * q_group_size 64, residual_length 128), counted by hand for Llama-2-7b (32 layers, 32 KV heads of
 * 128: 2 · 4096 = 8,192 K and V elements per token per layer) in bf16, batch 1, 4,096 + 256 tokens.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { parseScenario } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario';
import type { Scenario } from '../../../src/core/types';

const base: Partial<Scenario> = { model: 'meta-llama/Llama-2-7b-hf', mode: 'inference', engine: 'transformers', weights: 'bf16', batch: 1, prompt: 4096, gen: 256 };

function run(p: Partial<Scenario>) {
  const r = estimate({ ...defaultScenario(), ...base, ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const kv = (p: Partial<Scenario>) => run(p).terms.find((t) => t.id === 'kv-cache')?.bytes;

describe('QuantizedCache', () => {
  it('int4: 127 residual tokens in bf16, the other 4,225 at 4 bits + two bf16 scales per group of 64', () => {
    // 32 · 8,192 · (4,225 · (0.5 + 2·2/64) + 127 · 2) = 262,144 · 2,630.5625
    expect(kv({ kv: 'int4' })).toBe(689_586_176);
    // DynamicCache in bf16 keeps all 4,352 tokens at 2 B: 32 · 8,192 · 4,352 · 2
    expect(kv({ kv: 'bf16' })).toBe(2_281_701_376);
  });

  it('int8 (the HQQ backend): 1 B + the same scales', () => {
    // 262,144 · (4,225 · 1.0625 + 254)
    expect(kv({ kv: 'int8' })).toBe(1_243_365_376);
  });

  it('the residual length decides how many tokens stay unquantized', () => {
    // residual_length 1: the residual is flushed at every step, all 4,352 tokens quantized
    expect(kv({ kv: 'int4', kvResidual: 1 })).toBe(262_144 * 4352 * 0.5625);
    // a residual longer than the generation holds every generated token (256)
    expect(kv({ kv: 'int4', kvResidual: 1024 })).toBe(262_144 * (4096 * 0.5625 + 256 * 2));
  });

  it('a decode step holds the dequantized K and V and the returned cat() of both beside the cache', () => {
    // 16 + 8,192 tokens, so the last decode step is the peak: T = 8,208
    const long = { prompt: 16, gen: 8192 };
    const beside = (p: Partial<Scenario>) => {
      const e = run({ ...long, ...p });
      return e.allocatedBytes - (e.terms.find((t) => t.id === 'kv-cache')?.bytes ?? 0);
    };
    // QuantizedCache: (2 · 8,208 − 127) · 8,192 · 2 = 266,878,976; DynamicCache: one layer's new K, 8,208 · 4,096 · 2 = 67,239,936
    expect(beside({ kv: 'int4' }) - beside({ kv: 'bf16' })).toBe(266_878_976 - 67_239_936);
  });

  it('kv-residual with an unquantized cache is named as unused', () => {
    const p = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', mode: 'inference', kv: 'bf16', 'kv-residual': '64' });
    expect(p.warnings.map((w) => w.key)).toContain('kv-residual');
    expect(parseScenario({ model: 'meta-llama/Llama-2-7b-hf', mode: 'inference', kv: 'int4', 'kv-residual': '64' }).warnings).toEqual([]);
  });
});
