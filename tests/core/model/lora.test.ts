import { describe, expect, test } from 'vitest';
import { loraTrainableParams } from '../../../src/core/model/lora';
import { findPreset } from '../../../src/core/model/presets';
import type { LoraTarget } from '../../../src/core/types';

const arch = (id: string) => findPreset(id)!.arch;
const ALL: LoraTarget[] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

describe('LoRA trainable parameters (docs/reference/formulas.md §6.1)', () => {
  test('Llama-2-7b r=16 all-linear = 39,976,960 (PEFT print_trainable_parameters)', () => {
    expect(loraTrainableParams(arch('meta-llama/Llama-2-7b-hf'), 16, ALL)).toBe(39_976_960);
  });

  test('Llama-2-7b r=8 q,v = 4,194,304', () => {
    expect(loraTrainableParams(arch('meta-llama/Llama-2-7b-hf'), 8, ['q', 'v'])).toBe(4_194_304);
  });

  test('GQA: k and v project to g·d (Mistral-7B: 8 KV heads × 128)', () => {
    // 32 layers × r·(4096 + 1024) for k alone
    expect(loraTrainableParams(arch('mistralai/Mistral-7B-v0.1'), 16, ['k'])).toBe(32 * 16 * (4096 + 1024));
  });

  test('MoE: every expert down_proj counts (Mixtral-8x7B, 8 experts)', () => {
    expect(loraTrainableParams(arch('mistralai/Mixtral-8x7B-v0.1'), 8, ['down'])).toBe(32 * 8 * 8 * (14336 + 4096));
  });

  test('fused GPT-2 c_attn is adapted once: r·(h + 3h)', () => {
    expect(loraTrainableParams(arch('openai-community/gpt2'), 4, ['q', 'v'])).toBe(12 * 4 * (768 + 3 * 768));
  });

  test('rank that is not a positive integer gives 0; no targets give 0', () => {
    const a = arch('meta-llama/Llama-2-7b-hf');
    for (const r of [0, -8, 2.5, NaN, Infinity]) expect(loraTrainableParams(a, r, ALL)).toBe(0);
    expect(loraTrainableParams(a, 16, [])).toBe(0);
  });
});
