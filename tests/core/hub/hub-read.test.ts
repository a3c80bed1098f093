import { describe, expect, test } from 'vitest';
import { readHubModel, repoIdError } from '../../../src/core/hub/hub-read';
import { headerLength, MAX_HEADER_BYTES } from '../../../src/core/hub/safetensors';
import { parseHfConfig } from '../../../src/core/model/config';
import { countParams } from '../../../src/core/model/params';
import { fakeHub, jsonBytes, llama2Config, llama2Tensors, safetensorsHead, type Tensor } from './fake-hub';

// Llama-2-7b: 6,738,415,616 parameters (Meta's model card; the sum of its tensors' shapes, counted in fake-hub.ts)
const LLAMA2_PARAMS = 6_738_415_616;

/** Llama-2-7b-hf as the Hub serves it: two shards and an index, as in the real repo. */
function llamaRepo() {
  const t = llama2Tensors();
  const cut = t.findIndex(([n]) => n.startsWith('model.layers.24.'));
  const shards: [string, Tensor[]][] = [
    ['model-00001-of-00002.safetensors', t.slice(0, cut)],
    ['model-00002-of-00002.safetensors', t.slice(cut)],
  ];
  const weight_map = Object.fromEntries(shards.flatMap(([f, ts]) => ts.map(([n]) => [n, f])));
  return {
    files: {
      'config.json': jsonBytes(llama2Config()),
      'model.safetensors.index.json': jsonBytes({ metadata: { total_size: 2 * LLAMA2_PARAMS }, weight_map }),
      ...Object.fromEntries(shards.map(([f, ts]) => [f, safetensorsHead(ts)])),
    },
  };
}

describe('reading a model from the Hub', () => {
  test('Llama-2-7b-hf: config plus both shard headers give its published parameter count in bf16, in 5 requests', async () => {
    const log: string[] = [];
    const r = await readHubModel('meta-llama/Llama-2-7b-hf', fakeHub({ 'meta-llama/Llama-2-7b-hf': llamaRepo() }, log));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.weights?.elements).toBe(LLAMA2_PARAMS);
    expect(r.value.weights?.byDtype).toEqual({ BF16: { elements: LLAMA2_PARAMS, bytes: 2 * LLAMA2_PARAMS } });
    expect(r.value.files).toEqual(['model-00001-of-00002.safetensors', 'model-00002-of-00002.safetensors']);
    // the file list, config, index, one Range read per shard (each header is far below the first read)
    expect(r.value.requests).toBe(5);
    expect(log.slice(0, 2)).toEqual(['https://huggingface.co/api/models/meta-llama/Llama-2-7b-hf', 'https://huggingface.co/meta-llama/Llama-2-7b-hf/resolve/main/config.json']);
    // the config read alongside counts the same model
    const arch = parseHfConfig(r.value.config);
    expect(arch.ok && countParams(arch.value).total).toBe(LLAMA2_PARAMS);
  });

  test('one unsharded file whose header is longer than the first read takes a second Range read', async () => {
    // 6,000 tensors with 60-character names: a header of about 600 kB, past the 256 KiB first read
    const many: Tensor[] = Array.from({ length: 6000 }, (_, i) => [`blocks.${String(i).padStart(5, '0')}.${'x'.repeat(40)}.weight`, 'F16', [3, 7]]);
    const log: string[] = [];
    const r = await readHubModel('org/many', fakeHub({ 'org/many': { files: { 'config.json': jsonBytes({ model_type: 'x' }), 'model.safetensors': safetensorsHead(many) } } }, log));
    expect(r.ok && r.value.weights?.elements).toBe(6000 * 21);
    expect(r.ok && r.value.weights?.bytes).toBe(6000 * 21 * 2);
    expect(log.filter((u) => u.endsWith('model.safetensors'))).toHaveLength(2);
  });

  test('a server that ignores Range still gives the header from the cut body', async () => {
    const head = safetensorsHead([['w', 'F32', [10, 10]]]);
    const r = await readHubModel('org/plain', fakeHub({ 'org/plain': { ignoreRange: true, files: { 'config.json': jsonBytes({}), 'model.safetensors': head } } }));
    expect(r.ok && r.value.weights?.byDtype).toEqual({ F32: { elements: 100, bytes: 400 } });
  });

  test('a repo with only pytorch_model.bin is read from its config alone', async () => {
    const r = await readHubModel('org/bin', fakeHub({ 'org/bin': { files: { 'config.json': jsonBytes({ model_type: 'gpt2' }) } } }));
    expect(r.ok && r.value.weights).toBeNull();
  });

  test('gated, missing, offline and malformed answers are errors that say what to do', async () => {
    const gated = await readHubModel('meta-llama/Llama-3.1-8B', fakeHub({ 'meta-llama/Llama-3.1-8B': { status: 401, files: { 'config.json': jsonBytes({}) } } }));
    expect(!gated.ok && gated.error.code).toBe('hub.gated');
    expect(!gated.ok && gated.error.text).toMatch(/Paste its config.json instead/);
    const missing = await readHubModel('nobody/nothing', fakeHub({}));
    expect(!missing.ok && missing.error.code).toBe('hub.missing');
    const offline = await readHubModel('org/x', () => Promise.reject(new TypeError('fetch failed')));
    expect(!offline.ok && offline.error.code).toBe('hub.network');
    const notJson = await readHubModel('org/x', fakeHub({ 'org/x': { files: { 'config.json': new TextEncoder().encode('<html>') } } }));
    expect(!notJson.ok && notJson.error.code).toBe('hub.config-json');
  });

  test('repo ids follow the Hub rule; nothing is asked for a bad one', async () => {
    for (const good of ['gpt2', 'Qwen/Qwen2.5-7B-Instruct', 'meta-llama/Llama-2-7b-hf', 'a/b', 'org_x/m.v1']) expect(repoIdError(good), good).toBeNull();
    for (const bad of ['', '/', 'a/b/c', '../etc', 'org/-x', 'org/x.', 'org/a--b', 'org/a..b', 'org/x y', `org/${'a'.repeat(97)}`, 'https://huggingface.co/x'])
      expect(repoIdError(bad), bad).not.toBeNull();
    const log: string[] = [];
    const r = await readHubModel('../etc/passwd', fakeHub({}, log));
    expect(!r.ok && r.error.code).toBe('hub.bad-id');
    expect(log).toEqual([]);
  });
});

describe('safetensors header length', () => {
  test('little-endian u64, refused past the library limit of 100,000,000 bytes', () => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, 0x1234n, true);
    expect(headerLength(b)).toEqual({ ok: true, value: 0x1234 });
    new DataView(b.buffer).setBigUint64(0, BigInt(MAX_HEADER_BYTES + 1), true);
    expect(headerLength(b).ok).toBe(false);
    new DataView(b.buffer).setBigUint64(0, 2n ** 63n, true);
    expect(headerLength(b).ok).toBe(false);
  });
});
