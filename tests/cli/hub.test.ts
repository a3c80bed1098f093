/**
 * `--hub ID` against a local server that serves Hub-shaped paths (`/{repo}/resolve/main/{file}`,
 * Range answered with 206), reached through huggingface_hub's HF_ENDPOINT variable.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { main } from '../../src/cli/estimate';
import { hubAnswer, llamaServer } from '../core/hub/fake-hub';

// Llama-2-7b: 6,738,415,616 parameters (Meta's model card), stored in bf16
const LLAMA2_PARAMS = 6_738_415_616;

const FILES = llamaServer();
const asked: { path: string; range: string | undefined }[] = [];
let server: Server;
let endpoint = '';
const saved = process.env.HF_ENDPOINT;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    asked.push({ path, range: req.headers.range });
    const a = hubAnswer(FILES, path, req.headers.range);
    res.writeHead(a.status).end(a.body);
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
