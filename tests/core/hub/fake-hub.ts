/**
 * A Hub-shaped repo in memory for the tests: `api/models/{repo}` with its `siblings`, and
 * `{repo}/resolve/main/{file}` paths with Range answered with 206, as the Hub's CDN does. The safetensors files are built here from tensor shapes (data
 * bytes left out: only the header is ever read).
 */
import { readFileSync } from 'node:fs';
import type { HubGet } from '../../../src/core/hub/hub-read';

export type Tensor = [name: string, dtype: string, shape: number[]];

const DTYPE_BYTES: Record<string, number> = { BF16: 2, F16: 2, F32: 4, I32: 4, U8: 1 };

/** The bytes of a safetensors file's header part: 8-byte length, then the JSON (padded with spaces as the library does). */
export function safetensorsHead(tensors: Tensor[]): Uint8Array {
  let at = 0;
  const header: Record<string, unknown> = { __metadata__: { format: 'pt' } };
  for (const [name, dtype, shape] of tensors) {
    const bytes = shape.reduce((a, b) => a * b, 1) * (DTYPE_BYTES[dtype] ?? 1);
    header[name] = { dtype, shape, data_offsets: [at, at + bytes] };
    at += bytes;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8);
  const body = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + body.length);
  new DataView(out.buffer).setBigUint64(0, BigInt(body.length), true);
  out.set(body, 8);
  return out;
}

/** Llama-2-7b-hf's tensors (its config: hidden 4096, 32 layers, MLP 11008, vocab 32000, untied head), bf16. */
export function llama2Tensors(): Tensor[] {
  const h = 4096;
  const f = 11008;
  const t: Tensor[] = [['model.embed_tokens.weight', 'BF16', [32000, h]]];
  for (let i = 0; i < 32; i++) {
    const p = `model.layers.${i}`;
    for (const m of ['q', 'k', 'v', 'o']) t.push([`${p}.self_attn.${m}_proj.weight`, 'BF16', [h, h]]);
    t.push([`${p}.mlp.gate_proj.weight`, 'BF16', [f, h]], [`${p}.mlp.up_proj.weight`, 'BF16', [f, h]], [`${p}.mlp.down_proj.weight`, 'BF16', [h, f]]);
    t.push([`${p}.input_layernorm.weight`, 'BF16', [h]], [`${p}.post_attention_layernorm.weight`, 'BF16', [h]]);
  }
  t.push(['model.norm.weight', 'BF16', [h]], ['lm_head.weight', 'BF16', [32000, h]]);
  return t;
}

/** Llama-2-7b-hf's config.json, as data/models.json keeps it. */
export function llama2Config(): unknown {
  const rows = JSON.parse(readFileSync('data/models.json', 'utf8')) as { id: string; config: unknown }[];
  return rows.find((r) => r.id === 'meta-llama/Llama-2-7b-hf')?.config;
}

export interface FakeRepo {
  files: Record<string, Uint8Array>;
  /** answer this status for every request (e.g. 401 for a gated repo) */
  status?: number;
  /** answer 200 with the whole file to a Range request, as a server without Range support would */
  ignoreRange?: boolean;
}

/** A HubGet over in-memory repos, recording every URL asked for. */
export function fakeHub(repos: Record<string, FakeRepo>, log: string[] = []): HubGet {
  return (url, range, maxBytes) => {
    log.push(url);
    const empty = new Uint8Array(0);
    const api = /^https:\/\/huggingface\.co\/api\/models\/(.+)$/.exec(url);
    if (api) {
      // the model info: public even for a gated repo; 401 for one that does not exist, as the Hub answers
      const r = repos[api[1] ?? ''];
      const info = r && { id: api[1], gated: r.status === 401 ? 'manual' : false, siblings: Object.keys(r.files).map((rfilename) => ({ rfilename })) };
      return Promise.resolve(info ? { status: 200, body: jsonBytes(info), cut: false } : { status: 401, body: empty, cut: false });
    }
    const m = /^https:\/\/huggingface\.co\/(.+)\/resolve\/main\/(.+)$/.exec(url);
    const repo = m ? repos[m[1] ?? ''] : undefined;
    if (!m || !repo) return Promise.resolve({ status: 404, body: empty, cut: false });
    if (repo.status) return Promise.resolve({ status: repo.status, body: empty, cut: false });
    const file = repo.files[m[2] ?? ''];
    if (!file) return Promise.resolve({ status: 404, body: empty, cut: false });
    const whole = !range || repo.ignoreRange;
    const part = whole ? file : file.subarray(range[0], range[1] + 1);
    const body = part.subarray(0, maxBytes);
    return Promise.resolve({ status: whole ? 200 : 206, body, cut: part.length > maxBytes });
  };
}

export const jsonBytes = (v: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(v));

/** The Llama-2-7b-hf repo and a gated Llama-3.1-8B, as the Hub's paths serve them (one unsharded file). */
export function llamaServer(): Record<string, Uint8Array> {
  return {
    '/meta-llama/Llama-2-7b-hf/resolve/main/config.json': jsonBytes(llama2Config()),
    '/meta-llama/Llama-2-7b-hf/resolve/main/model.safetensors': safetensorsHead(llama2Tensors()),
  };
}

const GATED = 'meta-llama/Llama-3.1-8B';

/**
 * The answer a Hub-shaped HTTP server gives for `path` (with an optional `Range: bytes=a-b`): the model
 * info lists a repo's files (public even for the gated repo; 401 for a repo that does not exist, as the
 * Hub answers), a gated repo's files are 401, Range is served as 206.
 */
export function hubAnswer(files: Record<string, Uint8Array>, path: string, range: string | undefined): { status: number; body: Uint8Array | string } {
  if (path.startsWith('/api/models/')) {
    const repo = path.slice('/api/models/'.length);
    const names = repo === GATED ? ['config.json'] : Object.keys(files).flatMap((f) => (f.startsWith(`/${repo}/resolve/main/`) ? [f.slice(`/${repo}/resolve/main/`.length)] : []));
    return names.length ? { status: 200, body: JSON.stringify({ id: repo, siblings: names.map((rfilename) => ({ rfilename })) }) } : { status: 401, body: '' };
  }
  if (path.startsWith(`/${GATED}/`)) return { status: 401, body: '' };
  const file = files[path];
  if (!file) return { status: 404, body: '' };
  const m = /^bytes=(\d+)-(\d+)$/.exec(range ?? '');
  return m ? { status: 206, body: file.subarray(Number(m[1]), Number(m[2]) + 1) } : { status: 200, body: file };
}
