import { describe, expect, test } from 'vitest';
import { isModelArch, MAX_ARCH_VALUE } from '../../../src/core/model/arch-check';
import { PRESETS } from '../../../src/core/model/presets';
import type { ModelArch } from '../../../src/core/types';

// Llama-2-7b (meta-llama/Llama-2-7b-hf config.json)
const llama: ModelArch = {
  family: 'llama',
  hidden: 4096,
  layers: 32,
  heads: 32,
  kvHeads: 32,
  headDim: 128,
  ffn: 11008,
  vocab: 32000,
  gatedMlp: true,
  norm: 'rmsnorm',
  normsPerLayer: 2,
  tiedEmbeddings: false,
  qkvBias: false,
  oBias: false,
  mlpBias: false,
};
const moe = { experts: 8, expertsPerToken: 2, expertFfn: 14336, sharedExperts: 0, sharedFfn: 0, denseLayers: 0, layerFreq: 1 };

describe('isModelArch', () => {
  test('accepts every preset (MoE, MLA, encoder-decoder, sliding window, vision) and extra unknown fields', () => {
    for (const p of PRESETS) expect(isModelArch(p.arch), p.id).toBe(true);
    expect(isModelArch({ ...llama, someFutureField: [1] })).toBe(true);
  });

  test.each([
    ['hidden 0', { hidden: 0 }],
    ['layers as text', { layers: '32' }],
    ['fractional heads', { heads: 32.5 }],
    ['kvHeads 0 (heads / kvHeads)', { kvHeads: 0 }],
    ['vocab above 2^40', { vocab: MAX_ARCH_VALUE + 1 }],
    ['unknown norm', { norm: 'batchnorm' }],
    ['gated as 1', { gatedMlp: 1 }],
    ['family a number', { family: 7 }],
    ['family 101 characters', { family: 'x'.repeat(101) }],
    ['qkNorm as text', { qkNorm: 'yes' }],
    ['negative maxContext', { maxContext: -1 }],
    ['moe layerFreq 0 (divides)', { moe: { ...moe, layerFreq: 0 } }],
    ['moe k > E', { moe: { ...moe, expertsPerToken: 9 } }],
    ['moe missing fields', { moe: { experts: 8, expertsPerToken: 2 } }],
    ['moe routerBias as text', { moe: { ...moe, routerBias: 'no' } }],
    ['mla qLoraRank text', { mla: { qLoraRank: 'x', kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 } }],
    ['sliding window over more layers than exist', { slidingWindow: { window: 4096, layers: 33 } }],
    ['encoderDecoder without decoderLayers', { encoderDecoder: {} }],
    ['pooler null', { pooler: null }],
  ])('rejects %s', (_, change) => {
    expect(isModelArch({ ...llama, ...change })).toBe(false);
  });

  test('rejects non-objects and missing required fields', () => {
    for (const x of [null, undefined, 1, 'llama', [], [llama]]) expect(isModelArch(x)).toBe(false);
    for (const k of Object.keys(llama)) {
      const partial: Record<string, unknown> = { ...llama };
      delete partial[k];
      expect(isModelArch(partial), k).toBe(false);
    }
  });

  test('well-formed optional fields pass', () => {
    expect(isModelArch({ ...llama, moe: { ...moe, routerBias: true }, slidingWindow: { window: 4096, layers: 16 }, qkNorm: true, maxContext: 4096 })).toBe(true);
    expect(isModelArch({ ...llama, mla: { qLoraRank: null, kvLoraRank: 512, qkNopeHeadDim: 128, qkRopeHeadDim: 64, vHeadDim: 128 } })).toBe(true);
  });
});
