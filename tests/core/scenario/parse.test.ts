import { describe, expect, test } from 'vitest';
import { DEFAULT_SCENARIO, parseScenario } from '../../../src/core/scenario';

const codes = (r: ReturnType<typeof parseScenario>) => r.errors.map((e) => `${e.key}:${e.code}`);

describe('parseScenario: single values', () => {
  test('empty record gives the defaults and no errors', () => {
    const r = parseScenario({});
    expect(r.scenario).toEqual(DEFAULT_SCENARIO);
    expect(r.errors).toEqual([]);
  });

  test('every kind of key is read in its external spelling', () => {
    const r = parseScenario({
      model: 'meta-llama/Llama-2-7b-hf',
      mode: 'training',
      method: 'lora',
      weights: 'bf16',
      batch: '4',
      seq: '4096',
      precision: 'amp-bf16',
      optimizer: 'paged-adamw-8bit',
      'grad-ckpt': 'full',
      attn: 'flash',
      'lora-rank': '64',
      'lora-targets': 'v,q,down',
      gpus: '8',
      zero: '3',
      tp: '2',
      pp: '2',
      offload: 'params',
      gpu: 'a100-80gb-sxm4',
    });
    expect(r.errors).toEqual([]);
    const s = r.scenario;
    expect(s.model).toBe('meta-llama/Llama-2-7b-hf');
    expect([s.mode, s.method, s.batch, s.seq, s.optimizer, s.gradCkpt, s.attn]).toEqual(['training', 'lora', 4, 4096, 'paged-adamw-8bit', 'full', 'flash']);
    expect(s.loraRank).toBe(64);
    expect(s.loraTargets).toEqual(['q', 'v', 'down']); // canonical order
    expect([s.gpus, s.zero, s.tp, s.pp, s.offload, s.gpu]).toEqual([8, 3, 2, 2, 'params', 'a100-80gb-sxm4']);
  });

  test("presets resolve case-insensitively to the canonical HF id; 'all' targets and null tokens", () => {
    const r = parseScenario({ model: 'META-LLAMA/llama-2-7b-HF', method: 'lora', 'lora-targets': 'all', ngl: 'all', ubatch: 'auto', engine: 'llama.cpp', weights: 'gguf-q4_k_m', kv: 'q8_0' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.model).toBe('meta-llama/Llama-2-7b-hf');
    expect(r.scenario.loraTargets).toEqual(['q', 'k', 'v', 'o', 'gate', 'up', 'down']);
    expect(r.scenario.ngl).toBeNull();
    expect(r.scenario.ubatch).toBeNull();
  });

  test('unknown key: named error with the closest key, value ignored', () => {
    const r = parseScenario({ bach: '4' });
    expect(r.errors[0]).toMatchObject({ key: 'bach', code: 'unknown-key' });
    expect(r.errors[0].message).toContain("'batch'");
    expect(r.scenario.batch).toBe(1);
  });

  test('bad enum value lists the allowed values and falls back', () => {
    const r = parseScenario({ weights: 'int3' });
    expect(r.errors[0]).toMatchObject({ key: 'weights', code: 'invalid-value' });
    expect(String(r.errors[0].params?.allowed)).toContain('nf4');
    expect(r.scenario.weights).toBe('bf16');
  });

  test.each([
    ['batch', '0', 'out-of-range'],
    ['batch', '1.5', 'invalid-value'],
    ['batch', '-3', 'invalid-value'],
    ['batch', 'NaN', 'invalid-value'],
    ['batch', 'Infinity', 'invalid-value'],
    ['batch', '1e3', 'invalid-value'],
    ['gpu-util', '1.5', 'out-of-range'],
    ['gpu-util', '0', 'out-of-range'],
    ['prompt', '99999999999', 'out-of-range'],
    ['lora-targets', 'q,x', 'invalid-value'],
    ['lora-targets', '', 'invalid-value'],
    ['zero', '4', 'invalid-value'],
  ])('%s=%s -> %s, default kept', (key, value, code) => {
    const r = parseScenario({ [key]: value });
    expect(codes(r)).toEqual([`${key}:${code}`]);
    expect(r.scenario).toEqual(DEFAULT_SCENARIO);
  });

  test('values over 256 characters are rejected unread', () => {
    const r = parseScenario({ model: 'x'.repeat(100_000) });
    expect(codes(r)).toEqual(['model:invalid-value']);
    expect(r.errors[0].message.length).toBeLessThan(200);
  });
});

describe('parseScenario: models', () => {
  test('unknown preset suggests the closest ids', () => {
    const r = parseScenario({ model: 'meta-llama/Llama-2-7b' });
    expect(r.errors[0].code).toBe('unknown-preset');
    expect(String(r.errors[0].params?.suggestions).split(',')).toContain('meta-llama/Llama-2-7b-hf');
    expect(r.scenario.model).toBe(DEFAULT_SCENARIO.model);
  });

  test('bare count: params=7b is 7e9 parameters with no model', () => {
    const r = parseScenario({ params: '7b' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.model).toBe('');
    expect(r.scenario.params).toBe(7e9);
  });

  test('params together with a preset model is incompatible; the preset wins', () => {
    const r = parseScenario({ params: '7b', model: 'meta-llama/Llama-2-7b-hf' });
    expect(codes(r)).toEqual(['params:incompatible']);
    expect(r.scenario.params).toBeNull();
  });

  test('empty model without params: missing-key, default model', () => {
    const r = parseScenario({ model: '' });
    expect(codes(r)).toEqual(['params:missing-key']);
    expect(r.scenario.model).toBe(DEFAULT_SCENARIO.model);
  });

  test('custom model: required keys, llama-style defaults (MHA, head_dim = h / a)', () => {
    const r = parseScenario({ model: 'custom', hidden: '4096', layers: '32', heads: '32', ffn: '11008', vocab: '32000' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.model).toBe('custom');
    expect(r.scenario.arch).toMatchObject({ hidden: 4096, layers: 32, heads: 32, kvHeads: 32, headDim: 128, ffn: 11008, vocab: 32000, gatedMlp: true });
  });

  test('custom model missing keys falls back to the default model', () => {
    const r = parseScenario({ model: 'custom', hidden: '4096' });
    expect(codes(r).sort()).toEqual(['ffn:missing-key', 'heads:missing-key', 'layers:missing-key', 'vocab:missing-key']);
    expect(r.scenario.model).toBe(DEFAULT_SCENARIO.model);
  });

  test('overrides on a preset; GQA groups must divide heads (Llama-2-7b has 32 heads)', () => {
    expect(parseScenario({ model: 'meta-llama/Llama-2-7b-hf', 'kv-heads': '8' }).scenario.arch).toEqual({ kvHeads: 8 });
    const r = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', 'kv-heads': '6' });
    expect(codes(r)).toEqual(['kv-heads:incompatible']);
    expect(r.scenario.arch).toBeNull(); // fell back to the preset's 32 KV heads: no override left
  });

  test('MoE overrides merge into the preset (Mixtral-8x7B: 8 experts, 2 per token)', () => {
    const r = parseScenario({ model: 'mistralai/Mixtral-8x7B-v0.1', 'experts-per-tok': '4' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.arch?.moe).toMatchObject({ experts: 8, expertsPerToken: 4, expertFfn: 14336 });
    const bad = parseScenario({ model: 'mistralai/Mixtral-8x7B-v0.1', 'experts-per-tok': '9' });
    expect(codes(bad)).toEqual(['experts-per-tok:incompatible']);
  });

  test('making a dense model MoE needs experts and experts-per-tok', () => {
    expect(codes(parseScenario({ model: 'meta-llama/Llama-2-7b-hf', experts: '8' }))).toEqual(['experts-per-tok:missing-key']);
    const r = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', experts: '8', 'experts-per-tok': '2' });
    expect(r.scenario.arch?.moe).toEqual({ experts: 8, expertsPerToken: 2, expertFfn: 11008, sharedExperts: 0, sharedFfn: 0, denseLayers: 0, layerFreq: 1 });
  });
});

describe('parseScenario: a whole architecture from a config file', () => {
  test('customArch is the model; keys override it and nothing is required', async () => {
    const { findPreset } = await import('../../../src/core/model/presets');
    const llama2 = findPreset('meta-llama/Llama-2-7b-hf')!.arch;
    const r = parseScenario({ model: 'custom', layers: '16' }, { customArch: llama2 });
    expect(r.errors).toEqual([]);
    expect(r.scenario.arch).toEqual({ ...llama2, layers: 16 });
  });
});
