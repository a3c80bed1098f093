import { describe, expect, test } from 'vitest';
import { estimate } from '../../../src/core/estimate';
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
    // choices that clash fall back in the link; typed numbers (tp, pp, gpus) are kept and the estimate refuses them, as in the form
    const refused = (rec: Record<string, string>) => {
      const r = parseScenario(rec);
      const e = estimate(r.scenario);
      return [...errs(rec), ...(e.ok ? [] : e.errors.map((x) => x.code))];
    };
    expect(refused({ split: 'layers', gpus: '4', tp: '2' })).toEqual(['split-grid']);
    expect(refused({ split: 'layers', gpus: '4', pp: '2' })).toEqual(['split-grid']);
    expect(refused({ split: 'layers', gpus: '2', engine: 'vllm' })).toEqual(['split:incompatible:engine']);
    // accelerate.py prepare_model refuses a device_map="auto" model in any distributed mode
    expect(refused({ split: 'layers', gpus: '2', mode: 'training', zero: '2' })).toEqual(['split:incompatible:zero']);
    // Llama-3.1-8B (the default model) has 32 layers: 64 GPUs leave some without a layer
    expect(refused({ split: 'layers', gpus: '64' })).toEqual(['split-layers']);
    expect(parseScenario({ split: 'layers', gpus: '64' }).scenario.split).toBe('layers');
  });
  test('with one GPU it is an unused key', () => {
    const r = parseScenario({ split: 'layers' });
    expect(r.warnings.map((w) => `${w.key}:${w.code}`)).toEqual(['split:unused-key']);
  });
});
