import { describe, expect, test } from 'vitest';
import { parseScenario, SCENARIO_FIELDS } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario';
import { main } from '../../../src/cli/estimate';
import { fieldReason, reasonParams } from '../../../src/ui/calculator/compat';

const unused = (rec: Record<string, string>) =>
  parseScenario(rec)
    .warnings.filter((w) => w.code === 'unused-key')
    .map((w) => `${w.key}:${w.params?.with}`);

describe("the schema's per-key metadata drives the unused-key warnings, the form and --network", () => {
  test('precision, optimizer and grad-ckpt are training keys: given at inference they warn, in training they do not', () => {
    const rec = { precision: 'fp32', optimizer: 'sgd', 'grad-ckpt': 'full' };
    expect(unused(rec)).toEqual(['precision:mode', 'optimizer:mode', 'grad-ckpt:mode']);
    expect(unused({ ...rec, mode: 'training' })).toEqual([]);
    // the value is kept: a warning never changes the scenario
    expect(parseScenario(rec).scenario.optimizer).toBe('sgd');
  });

  test('every key with `modes` names real modes, every `engines` real engines', () => {
    for (const f of SCENARIO_FIELDS) {
      for (const m of f.modes ?? []) expect(['inference', 'training']).toContain(m);
      for (const e of f.engines ?? []) expect(['transformers', 'vllm', 'llama.cpp']).toContain(e);
    }
  });

  test('engine-only fields are disabled for the other engines, naming the engines that read them', () => {
    const s = defaultScenario(); // transformers
    expect(fieldReason(s, 'gpuUtil')).toBe('why.engines');
    expect(reasonParams('en', 'gpuUtil')).toEqual({ engines: 'vLLM' });
    expect(reasonParams('en', 'ubatch')).toEqual({ engines: 'vLLM / llama.cpp' });
    expect(fieldReason({ ...s, engine: 'vllm' }, 'gpuUtil')).toBeUndefined();
    expect(fieldReason({ ...s, engine: 'llama.cpp' }, 'ubatch')).toBeUndefined();
    expect(fieldReason({ ...s, engine: 'vllm' }, 'ngl')).toBe('why.engines');
  });

  test('--network takes the schema keys marked `network` and checks them against the schema values', async () => {
    const bad = await main(['--network', 'resnet-50', '--precision', 'fp64']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--precision must be one of fp32, amp-fp16, amp-bf16, bf16, fp16');
    const unknown = await main(['--network', 'resnet-50', '--weights', 'bf16']);
    expect(unknown.stderr).toContain('network mode takes --network, --input, --mode, --batch, --precision, --optimizer, --grad-ckpt, --gpu');
  });
});
