import { describe, expect, test } from 'vitest';
import { DEFAULT_SCENARIO, defaultScenario, formatCount, parseScenario, serializeScenario } from '../../../src/core/scenario';
import { parseQuickCount } from '../../../src/core/model/quick';

describe('serializeScenario', () => {
  test('the defaults serialize to nothing', () => {
    expect(serializeScenario(defaultScenario())).toEqual({});
  });

  test('only non-default values, in external spelling', () => {
    const s = { ...defaultScenario(), mode: 'training' as const, gradCkpt: 'full' as const, loraTargets: ['v', 'q'] as ('q' | 'v')[], ngl: null, zero: 2 as const };
    expect(serializeScenario(s)).toEqual({ mode: 'training', 'grad-ckpt': 'full', zero: '2' });
  });

  test("quick mode writes params and no model; Llama-2-7b's exact count stays exact", () => {
    const s = { ...defaultScenario(), model: '', params: 6_738_415_616 };
    expect(serializeScenario(s)).toEqual({ params: '6738415616' });
    expect(parseScenario(serializeScenario(s)).scenario.params).toBe(6_738_415_616);
  });

  test('formatCount writes counts the quick parser reads back exactly', () => {
    for (const n of [7e9, 70e9, 1.5e9, 125e6, 124_439_808, 1e15, 1]) {
      expect(parseQuickCount(formatCount(n))).toBe(n);
    }
    expect(formatCount(7e9)).toBe('7b');
    expect(formatCount(350e6)).toBe('350m');
  });

  test('all LoRA targets write as "all"; ngl null writes as "all"', () => {
    const s = {
      ...defaultScenario(),
      mode: 'training' as const,
      method: 'lora' as const,
      loraTargets: [...parseScenario({ method: 'lora', 'lora-targets': 'all' }).scenario.loraTargets],
      engine: 'llama.cpp' as const,
      ngl: 20,
    };
    expect(serializeScenario(s)).toMatchObject({ 'lora-targets': 'all', ngl: '20' });
  });

  test('custom model writes its required keys plus what differs from the llama-style defaults', () => {
    const rec = { model: 'custom', hidden: '768', layers: '12', heads: '12', ffn: '3072', vocab: '50257', gated: 'false', norm: 'layernorm', tied: 'true' };
    const s = parseScenario(rec).scenario;
    expect(serializeScenario(s)).toEqual(rec);
  });

  test('preset overrides equal to the preset are dropped; real ones kept', () => {
    const s = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', hidden: '4096', layers: '40' }).scenario;
    expect(serializeScenario(s)).toEqual({ model: 'meta-llama/Llama-2-7b-hf', layers: '40' });
  });

  test('parse ∘ serialize is the identity on a rich scenario', () => {
    const rec = {
      model: 'mistralai/Mixtral-8x7B-v0.1',
      'experts-per-tok': '3',
      mode: 'training',
      method: 'qlora',
      weights: 'nf4',
      seq: '8192',
      optimizer: 'paged-adamw-8bit',
      'lora-rank': '64',
      'lora-targets': 'q,k,v,o',
      gpus: '4',
      zero: '3',
      offload: 'optimizer',
      gpu: '24gib',
      'gpu-util': '0.85',
    };
    const s = parseScenario(rec).scenario;
    const again = parseScenario(serializeScenario(s));
    expect(again.errors).toEqual([]);
    expect(again.scenario).toEqual(s);
    expect(s.gpuUtil).toBe(0.85);
    expect(DEFAULT_SCENARIO.gpuUtil).toBe(0.9); // vLLM's default gpu_memory_utilization
  });
});
