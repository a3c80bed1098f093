import { describe, expect, test } from 'vitest';
import { parseScenario } from '../../../src/core/scenario/parse';
import { serializeScenario } from '../../../src/core/scenario';

const SDXL = 'stabilityai/stable-diffusion-xl-base-1.0';
const codes = (xs: { key: string; code: string }[]) => xs.map((x) => `${x.key}:${x.code}`);

describe('image models in links and on the command line', () => {
  test('a short name reads as the preset id; resolution, cfg and offload-model round-trip', () => {
    const r = parseScenario({ model: 'FLUX.1-dev', resolution: '768', cfg: 'off', 'offload-model': 'on' });
    expect(r.errors).toEqual([]);
    expect(r.scenario).toMatchObject({ model: 'black-forest-labs/FLUX.1-dev', resolution: 768, cfg: 'off', offloadModel: 'on' });
    expect(serializeScenario(r.scenario)).toMatchObject({ model: 'black-forest-labs/FLUX.1-dev', resolution: '768', cfg: 'off', 'offload-model': 'on' });
    expect(parseScenario({ model: SDXL, resolution: 'auto' }).scenario.resolution).toBeNull();
  });

  test('training an image model is refused (falls back to inference), and so is a quantized weight format', () => {
    const r = parseScenario({ model: SDXL, mode: 'training', weights: 'nf4' });
    expect(codes(r.errors)).toEqual(['mode:incompatible', 'weights:incompatible']);
    expect(r.scenario).toMatchObject({ mode: 'inference', weights: 'bf16' });
    expect(r.errors[0].message).toContain('inference only');
  });

  test('language-model keys with an image model, and image keys with a language model, are unused (warned, kept)', () => {
    const r = parseScenario({ model: SDXL, prompt: '4096', engine: 'vllm', hidden: '1024' });
    expect(codes(r.warnings).sort()).toEqual(['engine:unused-key', 'hidden:unused-key', 'prompt:unused-key']);
    const l = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', cfg: 'on', 'offload-model': 'on' });
    expect(codes(l.warnings).sort()).toEqual(['cfg:unused-key', 'offload-model:unused-key']);
  });
});
