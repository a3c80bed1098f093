import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { isModelArch } from '../../../src/core/model/arch-check';
import { GPUS_STORE, readSavedGpu } from '../../../src/state/storage/gpus';
import { MODELS_STORE } from '../../../src/state/storage/models';
import { loadStore, saveEntry, type StoreSpec } from '../../../src/state/storage/versioned-store';
import { memoryKv } from './memory-kv';

const enc = JSON.stringify;
/** An envelope built by hand from [name, entry] pairs, so names like "__proto__" stay plain keys. */
const envelope = (version: number, field: string, pairs: [string, unknown][]) => `{"version":${version},${enc(field)}:{${pairs.map(([k, v]) => `${enc(k)}:${enc(v)}`).join(',')}}}`;

const archLike = fc.record(
  {
    family: fc.oneof(fc.constant('llama'), fc.string()),
    hidden: fc.oneof(fc.integer({ min: 1, max: 8192 }), fc.jsonValue()),
    layers: fc.integer({ min: -1, max: 100 }),
    heads: fc.integer({ min: 0, max: 64 }),
    kvHeads: fc.integer({ min: 0, max: 64 }),
    headDim: fc.integer({ min: 1, max: 256 }),
    ffn: fc.integer({ min: 0, max: 50000 }),
    vocab: fc.integer({ min: 1, max: 1e6 }),
    gatedMlp: fc.boolean(),
    norm: fc.constantFrom('rmsnorm', 'layernorm', 'x'),
    normsPerLayer: fc.integer({ min: 0, max: 4 }),
    tiedEmbeddings: fc.boolean(),
    qkvBias: fc.boolean(),
    oBias: fc.boolean(),
    mlpBias: fc.oneof(fc.boolean(), fc.jsonValue()),
    moe: fc.record({
      experts: fc.integer({ min: 0, max: 16 }),
      expertsPerToken: fc.integer({ min: 0, max: 16 }),
      expertFfn: fc.nat(),
      sharedExperts: fc.nat(),
      sharedFfn: fc.nat(),
      denseLayers: fc.nat(),
      layerFreq: fc.integer({ min: 0, max: 3 }),
    }),
  },
  { requiredKeys: ['family', 'hidden', 'layers', 'heads', 'kvHeads', 'headDim', 'ffn', 'vocab', 'gatedMlp', 'norm', 'normsPerLayer', 'tiedEmbeddings', 'qkvBias', 'oBias'] },
);
const modelEntry = fc.oneof(fc.jsonValue(), fc.record({ arch: archLike, savedAt: fc.oneof(fc.nat(), fc.jsonValue()) }));
const gpuEntry = fc.oneof(fc.jsonValue(), fc.record({ capacityBytes: fc.oneof(fc.integer(), fc.double()), bandwidthGBs: fc.double(), savedAt: fc.double() }, { requiredKeys: ['capacityBytes'] }));
const entries = (entry: fc.Arbitrary<unknown>) => fc.uniqueArray(fc.tuple(fc.oneof(fc.string(), fc.constant('__proto__')), entry), { selector: ([k]) => k, maxLength: 8 });

function property<T>(spec: StoreSpec<T>, valid: (v: T) => boolean, entry: fc.Arbitrary<unknown>) {
  const raw = fc.oneof(
    fc.string(),
    fc.jsonValue().map((v) => enc(v)),
    fc.tuple(fc.integer({ min: -1, max: 3 }), entries(entry)).map(([v, e]) => envelope(v, spec.field, e)),
  );
  fc.assert(
    fc.property(raw, (blob) => {
      const kv = memoryKv({ [spec.key]: blob });
      const r = loadStore(kv, spec);
      // every item handed out passed the store's validator, every stored entry is either item or bad
      expect(r.items.every((i) => valid(i.value))).toBe(true);
      if (r.state === 'ok') expect(r.items.length + r.bad.length).toBe(Object.keys(JSON.parse(blob)[spec.field]).length);
      // a save never throws and never drops an entry that was there
      const before = r.state === 'ok' ? JSON.parse(blob)[spec.field] : {};
      const first = r.items[0];
      if (first) saveEntry(kv, spec, 'added by test', first.value);
      if (first && r.state === 'ok') {
        const after = JSON.parse(kv.m.get(spec.key)!)[spec.field];
        for (const k of Object.keys(before)) expect(enc(after[k])).toBe(enc(before[k]));
      }
    }),
    { numRuns: 10_000 },
  );
}

describe('readers never throw and never hand out an unvalidated item', () => {
  test('custom models', () => property(MODELS_STORE, (m) => isModelArch(m.arch) && Number.isFinite(m.savedAt), modelEntry));
  test('custom GPUs', () => property(GPUS_STORE, (g) => readSavedGpu(g) !== null, gpuEntry));
});
