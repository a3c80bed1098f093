import { describe, expect, test } from 'vitest';
import { decodeUrl, encodeUrl } from '../../src/state/url-codec';
import { defaultScenario } from '../../src/core/scenario';
import { URL_VERSION } from '../../src/state/migrations';
import type { Scenario } from '../../src/core/types';

describe('share URL: the training-technique keys', () => {
  // torchtune README "Optimization flags", last full-finetune row: compile, chunked CE, AC, optimizer in backward, offloading
  const s: Scenario = {
    ...defaultScenario(),
    model: 'meta-llama/Llama-3.2-3B',
    mode: 'training',
    precision: 'bf16',
    batch: 2,
    seq: 4096,
    gradCkpt: 'full',
    compile: 'inductor',
    lossChunks: 8,
    optimStep: 'in-backward',
    actOffload: 'cpu',
  };
  test('are written in schema order with their external names', () => {
    expect(encodeUrl(s)).toBe(
      `v=${URL_VERSION}&model=meta-llama/Llama-3.2-3B&mode=training&batch=2&seq=4096&precision=bf16&grad-ckpt=full&compile=inductor&optim-step=in-backward&act-offload=cpu&loss-chunks=8`,
    );
  });
  test('and read back to the same scenario without errors', () => {
    const d = decodeUrl(encodeUrl(s));
    expect(d.errors).toEqual([]);
    expect(d.scenario).toEqual(s);
  });
});
