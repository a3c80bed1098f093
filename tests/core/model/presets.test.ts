import { describe, expect, test } from 'vitest';
import { PRESETS, findPreset, searchPresets } from '../../../src/core/model/presets';
import { CATALOGUE } from './catalogue';
import { HYBRID_PRESET_ROWS } from '../../../src/core/model/presets-hybrid';

describe('presets', () => {
  test('every generated row (and every hand-kept hybrid row) parses; at least 30 presets', () => {
    expect(PRESETS.length).toBe(CATALOGUE.length + HYBRID_PRESET_ROWS.length);
    expect(PRESETS.length).toBeGreaterThanOrEqual(30);
  });

  test.each([
    'meta-llama/Llama-2-7b-hf',
    'meta-llama/Llama-2-13b-hf',
    'meta-llama/Llama-2-70b-hf',
    'meta-llama/Meta-Llama-3-8B',
    'meta-llama/Llama-3.1-8B',
    'meta-llama/Llama-3.2-1B',
    'mistralai/Mistral-7B-v0.1',
    'mistralai/Mixtral-8x7B-v0.1',
    'Qwen/Qwen2.5-0.5B',
    'Qwen/Qwen2.5-72B',
    'Qwen/Qwen3-8B',
    'Qwen/Qwen3-30B-A3B',
    'google/gemma-2-9b',
    'google/gemma-3-27b-pt',
    'microsoft/Phi-3-mini-4k-instruct',
    'deepseek-ai/DeepSeek-V3',
    'openai-community/gpt2',
    'google-bert/bert-base-uncased',
  ])('has %s', (id) => {
    expect(findPreset(id)?.id).toBe(id);
  });

  test('ids are unique', () => {
    expect(new Set(PRESETS.map((p) => p.id)).size).toBe(PRESETS.length);
  });

  test('findPreset: case-insensitive, by short name, by display name', () => {
    expect(findPreset('META-LLAMA/llama-2-7B-HF')?.id).toBe('meta-llama/Llama-2-7b-hf');
    expect(findPreset('llama-2-7b-hf')?.id).toBe('meta-llama/Llama-2-7b-hf');
    expect(findPreset('gpt2')?.id).toBe('openai-community/gpt2');
    expect(findPreset('Llama-2 7B')?.id).toBe('meta-llama/Llama-2-7b-hf');
    expect(findPreset('')).toBeUndefined();
    expect(findPreset('no-such-model')).toBeUndefined();
  });

  test('searchPresets: all words must match; exact short name first', () => {
    const qwen = searchPresets('qwen2.5 7b');
    expect(qwen.map((p) => p.id)).toContain('Qwen/Qwen2.5-7B');
    expect(qwen.every((p) => /qwen2\.5/i.test(p.id + p.name))).toBe(true);
    expect(searchPresets('gpt2')[0].id).toBe('openai-community/gpt2');
    expect(searchPresets('zzzz')).toEqual([]);
    expect(searchPresets('').length).toBe(PRESETS.length);
  });

  test('publishedParams carries the official exact count (Llama-2-7b 6,738,415,616)', () => {
    expect(findPreset('meta-llama/Llama-2-7b-hf')?.publishedParams).toBe(6_738_415_616);
  });
});
