/**
 * A model read from the Hugging Face Hub, only when the user asks for it: its config.json, then the
 * header of each .safetensors file fetched with an HTTP Range request (RFC 9110 §14), which gives the
 * exact element count and dtype of every tensor without downloading the weights (the approach of
 * alvarobartt/hf-mem). Files are addressed as the Hub serves them:
 * `{endpoint}/{repo}/resolve/{revision}/{file}` (huggingface_hub `hf_hub_url`); the repo's file list
 * comes from the model info `{endpoint}/api/models/{repo}` (`siblings`, huggingface_hub
 * `HfApi.model_info`), so no file that is not there is asked for; a sharded checkpoint lists its
 * files in `model.safetensors.index.json` (`weight_map`, transformers `modeling_utils.load_sharded_checkpoint`).
 *
 * The network call is the caller's (`HubGet`), so the page and the CLI share this logic and the
 * tests drive it without a network. Every body is read up to a limit, so a wrong answer cannot
 * fill memory.
 */
import type { Message } from '../types';
import { MiB } from '../units';
import { decodeUtf8 } from '../utf8';
import { emptyTally, headerLength, tallyHeader, type SafetensorsResult, type TensorTally } from './safetensors';

/** The Hub's own address; the CLI honours huggingface_hub's HF_ENDPOINT instead when set. */
export const HUB_HOST = 'https://huggingface.co';

/** One answer: its HTTP status and its body, cut at the limit asked for (`cut` then says so). */
export interface HubReply {
  status: number;
  body: Uint8Array;
  cut: boolean;
}

/** GET `url` (bytes [first, last] of it when `range` is given), reading at most `maxBytes` of the body. Rejects on a network failure. */
export type HubGet = (url: string, range: readonly [number, number] | null, maxBytes: number) => Promise<HubReply>;

export interface HubModel {
  id: string;
  /** config.json as parsed JSON (parseHfConfig reads it) */
  config: unknown;
  /** every tensor in the safetensors files; null when the repo has none */
  weights: TensorTally | null;
  /** the safetensors files read */
  files: string[];
  /** HTTP requests made */
  requests: number;
}

/** A config.json is a few kB; an index a few hundred. */
const MAX_CONFIG = MiB;
const MAX_INDEX = 16 * MiB;
/** The first read of each file: most headers fit (a 7B model's is about 30 kB). */
const FIRST_READ = 256 * 1024;
/** Largest checkpoints on the Hub are split into a few hundred files. */
export const MAX_FILES = 2000;

/** Every error this reader gives, as `hub.<code>` (the page words each one: src/ui/i18n/core-zh.ts). */
export const HUB_ERRORS = ['bad-id', 'gated', 'missing', 'http', 'network', 'too-big', 'config-json', 'bad-index', 'too-many-files', 'bad-header'] as const;

const fail = (code: (typeof HUB_ERRORS)[number], text: string, params: Record<string, string | number> = {}): SafetensorsResult<never> => ({ ok: false, error: { code: `hub.${code}`, params, text } });

/**
 * Why `id` is not a Hub repo id (`owner/name`, or a bare legacy name such as `gpt2`), or null. The
 * Hub's rule (huggingface_hub `validate_repo_id`): letters, digits, `-`, `_`, `.`; no `--` or `..`;
 * starting and ending with a letter, digit or `_`; at most 96 characters per part.
 */
export function repoIdError(id: string): Message | null {
  const parts = id.split('/');
  const ok = parts.length <= 2 && parts.every((p) => /^\w(?:[\w.-]{0,94}\w)?$/.test(p) && !p.includes('--') && !p.includes('..'));
  return ok ? null : { code: 'hub.bad-id', params: { id: id.slice(0, 100) }, text: `'${id.slice(0, 100)}' is not a Hugging Face model id (owner/name, e.g. Qwen/Qwen2.5-7B-Instruct)` };
}

/** Where the Hub serves `file` of `repo`. */
export const hubFileUrl = (endpoint: string, repo: string, file: string, revision = 'main'): string => `${endpoint.replace(/\/+$/, '')}/${repo}/resolve/${encodeURIComponent(revision)}/${file}`;

function statusError(status: number, what: string, id: string): SafetensorsResult<never> {
  // the Hub answers 401 for a repo that does not exist as well as for a private one
  if (what === 'model info' && (status === 401 || status === 404))
    return fail('missing', `no public model ${id} on the Hub (a typo, or a private repo). Paste its config.json instead.`, { id, file: 'config.json' });
  if (status === 401 || status === 403) return fail('gated', `${id} is gated or private: the Hub wants a login for ${what}. Paste its config.json instead.`, { id, status });
  if (status === 404) return fail('missing', `${id} has no ${what} on the Hub (a typo, or not a transformers model). Paste its config.json instead.`, { id, file: what });
  return fail('http', `the Hub answered ${status} for ${what}`, { status, file: what });
}

function jsonOf(r: HubReply): unknown {
  try {
    return JSON.parse(decodeUtf8(r.body, 0, r.body.length));
  } catch {
    return undefined;
  }
}

/** Read config.json and the safetensors headers of `id`. Never throws; a network failure is an error naming it. */
export async function readHubModel(id: string, get: HubGet, endpoint: string = HUB_HOST): Promise<SafetensorsResult<HubModel>> {
  const bad = repoIdError(id);
  if (bad) return { ok: false, error: bad };
  let requests = 0;
  // file null: the Hub's model info (GET /api/models/{repo}: its `siblings` list the repo's files)
  const ask = async (file: string | null, range: readonly [number, number] | null, max: number): Promise<HubReply | null> => {
    requests++;
    try {
      return await get(file === null ? `${endpoint.replace(/\/+$/, '')}/api/models/${id}` : hubFileUrl(endpoint, id, file), range, max);
    } catch {
      return null;
    }
  };
  const offline = () => fail('network', `could not reach ${endpoint} (offline, or blocked by a proxy)`, { host: endpoint });

  // the repo's file list first, so that no file is asked for that is not there
  const info = await ask(null, null, MAX_INDEX);
  if (!info) return offline();
  if (info.status !== 200) return statusError(info.status, 'model info', id);
  const siblings = (jsonOf(info) as { siblings?: unknown } | undefined)?.siblings;
  const names = new Set(Array.isArray(siblings) ? siblings.map((x) => (x as { rfilename?: unknown } | null)?.rfilename).filter((f): f is string => typeof f === 'string') : []);
  if (!names.has('config.json')) return fail('missing', `${id} has no config.json on the Hub (not a transformers model?). Paste a config.json instead.`, { id, file: 'config.json' });

  const cfg = await ask('config.json', null, MAX_CONFIG);
  if (!cfg) return offline();
  if (cfg.status !== 200) return statusError(cfg.status, 'config.json', id);
  if (cfg.cut) return fail('too-big', `${id}'s config.json is larger than 1 MiB; a config.json is a few kB`, { id });
  const config = jsonOf(cfg);
  if (typeof config !== 'object' || config === null || Array.isArray(config)) return fail('config-json', `${id}'s config.json is not a JSON object`, { id });

  let files = [...names].filter(isWeightFile).sort();
  if (names.has('model.safetensors.index.json')) {
    const index = await ask('model.safetensors.index.json', null, MAX_INDEX);
    if (!index) return offline();
    if (index.status !== 200) return statusError(index.status, 'model.safetensors.index.json', id);
    const map = (jsonOf(index) as { weight_map?: unknown } | undefined)?.weight_map;
    if (index.cut || typeof map !== 'object' || map === null) return fail('bad-index', `${id}'s model.safetensors.index.json has no weight_map`, { id });
    files = [...new Set(Object.values(map as Record<string, unknown>).filter((f): f is string => typeof f === 'string' && isWeightFile(f)))].sort();
  }
  if (files.length > MAX_FILES) return fail('too-many-files', `${id} lists ${files.length} weight files; at most ${MAX_FILES} are read`, { id, files: files.length, max: MAX_FILES });

  // every file's header is added to one tally (each read is checked whole before it adds)
  const weights: TensorTally = emptyTally();
  for (const t of await Promise.all(files.map((f) => readHeader(f, ask, weights)))) {
    if (t === 'offline') return offline();
    if (t === 'absent') return fail('missing', `${id} lists a weight file the Hub does not serve`, { id, file: 'safetensors' });
    if (!t.ok) return t;
  }
  // a repo with only pytorch_model.bin (or GGUF) has no header to read: config.json alone then
  return { ok: true, value: { id, config, weights: files.length > 0 ? weights : null, files, requests } };
}

/** A top-level .safetensors file (sub-folders hold other formats' copies, e.g. original/). */
const isWeightFile = (f: string): boolean => /^[\w.-]{1,200}\.safetensors$/.test(f) && !f.startsWith('.');

type Ask = (file: string | null, range: readonly [number, number] | null, max: number) => Promise<HubReply | null>;

/** One file's header: a first Range read, and a second one when the header is longer than it. */
async function readHeader(file: string, ask: Ask, into: TensorTally): Promise<SafetensorsResult<TensorTally> | 'offline' | 'absent'> {
  const first = await ask(file, [0, FIRST_READ - 1], FIRST_READ);
  if (!first) return 'offline';
  if (first.status === 404) return 'absent';
  // 206 is the ranged answer; a server that ignores Range sends 200 and the body is cut at the limit
  if (first.status !== 206 && first.status !== 200) return fail('http', `the Hub answered ${first.status} for ${file}`, { status: first.status, file });
  const n = headerLength(first.body);
  if (!n.ok) return n;
  if (8 + n.value <= first.body.length) return tallyHeader(first.body, 8, 8 + n.value, into);
  const rest = await ask(file, [8, 8 + n.value - 1], 8 + n.value);
  if (!rest) return 'offline';
  if (rest.status !== 206 && rest.status !== 200) return fail('http', `the Hub answered ${rest.status} for ${file}`, { status: rest.status, file });
  // a 200 answer is the whole file from byte 0: the header then starts at 8
  return rest.status === 200 ? tallyHeader(rest.body, 8, 8 + n.value, into) : tallyHeader(rest.body, 0, n.value, into);
}
