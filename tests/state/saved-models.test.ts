import { describe, expect, test } from 'vitest';
import type { ModelArch } from '../../src/core/types';
import { deleteModel, loadSavedModels, saveModel, STORAGE_KEY } from '../../src/state/saved-models';

function memory(initial: Record<string, string> = {}) {
  const m = new Map(Object.entries(initial));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), m };
}

// Llama-2-7B's config.json (meta-llama/Llama-2-7b-hf): hidden 4096, 32 layers, 32 heads, ffn 11008, vocab 32000.
const llama2: ModelArch = {
  family: 'llama', hidden: 4096, layers: 32, heads: 32, kvHeads: 32, headDim: 128, ffn: 11008, vocab: 32000,
  gatedMlp: true, norm: 'rmsnorm', normsPerLayer: 2, tiedEmbeddings: false, qkvBias: false, oBias: false, mlpBias: false,
};

describe('saved custom models', () => {
  test('a saved model reads back whole', () => {
    const s = memory();
    expect(saveModel(s, 'my llama', llama2, 1000)).toBe(true);
    expect(loadSavedModels(s)).toEqual({ models: [{ name: 'my llama', arch: llama2, savedAt: 1000 }], corrupt: [] });
    expect(JSON.parse(s.m.get(STORAGE_KEY)!).version).toBe(1);
  });

  test('a corrupted entry is skipped and named; the good one survives', () => {
    const s = memory({
      [STORAGE_KEY]: JSON.stringify({
        version: 1,
        models: { good: { arch: llama2, savedAt: 1 }, bad: { arch: { ...llama2, layers: 'x' }, savedAt: 2 }, worse: null },
      }),
    });
    const r = loadSavedModels(s);
    expect(r.models.map((m) => m.name)).toEqual(['good']);
    expect(r.corrupt.sort()).toEqual(['bad', 'worse']);
    // saving another keeps the unreadable entries for the user to inspect, and they stay reported
    saveModel(s, 'second', llama2, 3);
    expect(loadSavedModels(s).corrupt.sort()).toEqual(['bad', 'worse']);
  });

  test('garbage or a future version is reported as a whole, never thrown', () => {
    expect(loadSavedModels(memory({ [STORAGE_KEY]: '{not json' }))).toEqual({ models: [], corrupt: ['*'] });
    expect(loadSavedModels(memory({ [STORAGE_KEY]: JSON.stringify({ version: 99, models: {} }) }))).toEqual({ models: [], corrupt: ['*'] });
    const throwing = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('quota'); } };
    expect(loadSavedModels(throwing)).toEqual({ models: [], corrupt: ['*'] });
    expect(saveModel(throwing, 'x', llama2)).toBe(false);
  });

  test('delete removes only the named model', () => {
    const s = memory();
    saveModel(s, 'a', llama2, 1);
    saveModel(s, 'b', llama2, 2);
    deleteModel(s, 'a');
    expect(loadSavedModels(s).models.map((m) => m.name)).toEqual(['b']);
  });
});
