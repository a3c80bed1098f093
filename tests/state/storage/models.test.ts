import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { countParams } from '../../../src/core/model/params';
import { deleteModel, loadSavedModels, MODELS_STORE, saveModel } from '../../../src/state/storage/models';
import { memoryKv } from './memory-kv';

/** The `gpumem.models` value exactly as the first release wrote it (fixtures/README.md). */
const V1 = readFileSync(new URL('./fixtures/gpumem.models.v1.json', import.meta.url), 'utf8');

describe('custom models saved by the first release (v1)', () => {
  test('still load, and the Llama-2-7b copy counts its published 6,738,415,616 parameters', () => {
    const r = loadSavedModels(memoryKv({ 'gpumem.models': V1 }));
    expect(r.state).toBe('ok');
    expect(r.bad).toEqual([]);
    expect(r.items.map((i) => i.name)).toEqual(['llama2 7b copy', 'qwen3 moe 24L']);
    const llama = r.items[0].value;
    expect(llama.savedAt).toBe(1732000000000);
    // Llama-2-7b: 6,738,415,616 parameters (meta-llama/Llama-2-7b-hf model card / safetensors index)
    expect(countParams(llama.arch).total).toBe(6_738_415_616);
    expect(r.items[1].value.arch.moe).toEqual({ experts: 128, expertsPerToken: 8, expertFfn: 768, sharedExperts: 0, sharedFfn: 768, denseLayers: 0, layerFreq: 1 });
  });

  test('a save keeps the v1 envelope (the first release still reads it) and the old entries byte for byte', () => {
    const kv = memoryKv({ 'gpumem.models': V1 });
    const arch = loadSavedModels(kv).items[0].value.arch;
    expect(saveModel(kv, 'wider', { ...arch, hidden: 5120 }, 5)).toBeNull();
    const before = JSON.parse(V1);
    const after = JSON.parse(kv.m.get('gpumem.models')!);
    // what the first release's reader required: version 1 and a `models` object
    expect(after.version).toBe(1);
    for (const name of Object.keys(before.models)) expect(JSON.stringify(after.models[name])).toBe(JSON.stringify(before.models[name]));
    expect(after.models.wider.arch.hidden).toBe(5120);
    expect(deleteModel(kv, 'wider')).toBeNull();
    expect(kv.m.get('gpumem.models')).toBe(V1);
  });

  test('an entry with a malformed optional field is named, the rest load', () => {
    const env = JSON.parse(V1);
    env.models['broken moe'] = { ...env.models['qwen3 moe 24L'], arch: { ...env.models['qwen3 moe 24L'].arch, moe: { experts: 8, expertsPerToken: 2 } } };
    const r = loadSavedModels(memoryKv({ [MODELS_STORE.key]: JSON.stringify(env) }));
    expect(r.bad).toEqual(['broken moe']);
    expect(r.items).toHaveLength(2);
  });

  test('an invalid arch is refused before anything is written', () => {
    const kv = memoryKv({ 'gpumem.models': V1 });
    const arch = loadSavedModels(kv).items[0].value.arch;
    expect(saveModel(kv, 'nan', { ...arch, hidden: Number.NaN })).toBe('invalid');
    expect(kv.m.get('gpumem.models')).toBe(V1);
  });
});
