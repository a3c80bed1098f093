import { describe, expect, test } from 'vitest';
import { parseScenario } from '../../../src/core/scenario';

const errs = (rec: Record<string, string>) => parseScenario(rec).errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`);

describe('split=layers (transformers device_map="auto")', () => {
  test('runs with gpus > 1 on transformers inference', () => {
    const r = parseScenario({ split: 'layers', gpus: '4' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.split).toBe('layers');
  });
  test('training runs too (one process, accelerate naive model parallelism)', () => {
    const r = parseScenario({ split: 'layers', gpus: '2', mode: 'training' });
    expect(r.errors).toEqual([]);
    expect(r.scenario.split).toBe('layers');
  });
  test('refused with tp, pp, another engine, ZeRO / FSDP training, or more GPUs than layers', () => {
    expect(errs({ split: 'layers', gpus: '4', tp: '2' })).toEqual(['split:incompatible:tp']);
    expect(errs({ split: 'layers', gpus: '4', pp: '2' })).toEqual(['split:incompatible:pp']);
    expect(errs({ split: 'layers', gpus: '2', engine: 'vllm' })).toEqual(['split:incompatible:engine']);
    // accelerate.py prepare_model refuses a device_map="auto" model in any distributed mode
    expect(errs({ split: 'layers', gpus: '2', mode: 'training', zero: '2' })).toEqual(['split:incompatible:zero']);
    // Llama-3.1-8B (the default model) has 32 layers
    expect(errs({ split: 'layers', gpus: '64' })).toEqual(['split:incompatible:gpus']);
    expect(parseScenario({ split: 'layers', gpus: '64' }).scenario.split).toBe('none');
  });
  test('with one GPU it is an unused key', () => {
    const r = parseScenario({ split: 'layers' });
    expect(r.warnings.map((w) => `${w.key}:${w.code}`)).toEqual(['split:unused-key']);
  });
});
