/**
 * `--hub ID` against a local server that serves Hub-shaped paths (`/{repo}/resolve/main/{file}`,
 * Range answered with 206), reached through huggingface_hub's HF_ENDPOINT variable.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/estimate';
import { jsonBytes, llama2Config, llama2Tensors, safetensorsHead } from '../core/hub/fake-hub';

// Llama-2-7b: 6,738,415,616 parameters (Meta's model card), stored in bf16
const LLAMA2_PARAMS = 6_738_415_616;

const FILES: Record<string, Uint8Array> = {
  '/meta-llama/Llama-2-7b-hf/resolve/main/config.json': jsonBytes(llama2Config()),
  '/meta-llama/Llama-2-7b-hf/resolve/main/model.safetensors': safetensorsHead(llama2Tensors()),
};
const asked: { path: string; range: string | undefined }[] = [];
let server: Server;
let endpoint = '';
const saved = process.env.HF_ENDPOINT;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    asked.push({ path, range: req.headers.range });
    // the model info: public even for the gated repo; 401 for a repo that does not exist, as the Hub answers
    if (path.startsWith('/api/models/')) {
      const repo = path.slice('/api/models/'.length);
      const files =
        repo === 'meta-llama/Llama-3.1-8B'
          ? ['config.json']
          : Object.keys(FILES)
              .filter((f) => f.startsWith(`/${repo}/`))
              .map((f) => f.split('/').at(-1));
      return files.length ? res.writeHead(200).end(JSON.stringify({ id: repo, siblings: files.map((rfilename) => ({ rfilename })) })) : res.writeHead(401).end();
    }
    if (path.startsWith('/meta-llama/Llama-3.1-8B/')) return res.writeHead(401).end();
    const file = FILES[path];
    if (!file) return res.writeHead(404).end();
    const m = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) return res.writeHead(200, { 'content-length': file.length }).end(file);
    const part = file.subarray(Number(m[1]), Number(m[2]) + 1);
    res.writeHead(206, { 'content-length': part.length, 'content-range': `bytes ${m[1]}-${Number(m[1]) + part.length - 1}/${file.length}` }).end(part);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.HF_ENDPOINT = endpoint;
});

afterAll(async () => {
  if (saved === undefined) delete process.env.HF_ENDPOINT;
  else process.env.HF_ENDPOINT = saved;
  await new Promise((done) => server.close(done));
});

describe('estimate --hub', () => {
  test('reads config.json and the safetensors header with a Range request, and estimates from the config', async () => {
    asked.length = 0;
    const r = await main(['--hub', 'meta-llama/Llama-2-7b-hf', '--mode', 'inference', '--weights', 'bf16', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { params: { total: number }; hub: { parameters: number; byDtype: Record<string, { bytes: number }>; files: string[] } };
    expect(out.hub.parameters).toBe(LLAMA2_PARAMS);
    expect(out.hub.byDtype.BF16?.bytes).toBe(2 * LLAMA2_PARAMS);
    expect(out.hub.files).toEqual(['model.safetensors']);
    expect(out.params.total).toBe(LLAMA2_PARAMS);
    // the file list, config, one ranged read of the weights file (never the whole file); no index: the repo has none
    expect(asked.map((a) => a.path)).toEqual([
      '/api/models/meta-llama/Llama-2-7b-hf',
      '/meta-llama/Llama-2-7b-hf/resolve/main/config.json',
      '/meta-llama/Llama-2-7b-hf/resolve/main/model.safetensors',
    ]);
    expect(asked[2]?.range).toBe('bytes=0-262143');
  });

  test('the text output names what the files hold', async () => {
    const r = await main(['--hub', 'meta-llama/Llama-2-7b-hf', '--mode', 'inference']);
    expect(r.stdout).toContain('Hub:      meta-llama/Llama-2-7b-hf, 1 safetensors file: 6.74 B (6,738,415,616) elements, BF16 12.55 GiB');
  });

  test('a gated repo, a bad id and --hub with --model are one stderr line and exit 2', async () => {
    const gated = await main(['--hub', 'meta-llama/Llama-3.1-8B']);
    expect(gated.code).toBe(2);
    expect(gated.stderr).toMatch(/^error: hub: meta-llama\/Llama-3\.1-8B is gated or private.*Paste its config\.json instead\.\n$/);
    const bad = await main(['--hub', '../x']);
    expect([bad.code, bad.stderr.split('\n').length]).toEqual([2, 2]);
    const both = await main(['--hub', 'a/b', '--model', 'meta-llama/Llama-2-7b-hf']);
    expect(both.stderr).toMatch(/--hub .* without --model/);
  });

  test('an endpoint nobody answers is a network error, not a crash', async () => {
    process.env.HF_ENDPOINT = 'http://127.0.0.1:9';
    const r = await main(['--hub', 'meta-llama/Llama-2-7b-hf']);
    process.env.HF_ENDPOINT = endpoint;
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/could not reach http:\/\/127\.0\.0\.1:9/);
  });
});
