import { describe, expect, test } from 'vitest';
import { closest, editDistance } from '../../../src/core/scenario/suggest';

describe('suggestions', () => {
  test('Levenshtein distance: kitten -> sitting is 3 (the textbook example)', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('flaw', 'lawn')).toBe(2);
  });

  test('closest ranks substring and last-segment matches first; nothing for far words', () => {
    const ids = ['meta-llama/Llama-2-7b-hf', 'meta-llama/Llama-2-13b-hf', 'mistralai/Mistral-7B-v0.1'];
    expect(closest('llama-2-7b', ids)[0]).toBe('meta-llama/Llama-2-7b-hf');
    expect(closest('mistral-7b', ids)[0]).toBe('mistralai/Mistral-7B-v0.1');
    expect(closest('zzzzzzzzzzzzzzzzzzzzzz', ids)).toEqual([]);
    expect(closest('', ids)).toEqual([]);
  });
});
