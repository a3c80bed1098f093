/**
 * `npm run --silent estimate -- --model meta-llama/Llama-2-7b-hf --weights nf4 --gpu rtx-4090`
 *
 * Flags are the scenario keys of the share URL (src/core/scenario, docs/url-schema.md);
 * `--model path/to/config.json` loads a Hugging Face config; a share URL (or its query string)
 * may be the only argument; `--json` prints one machine-readable object; `--timeline` adds the step timeline replayed through the caching-allocator model; `--network …` estimates a
 * layer stack (src/cli/network.ts). Exit codes: 0 ok, 2 bad flag / value / combination.
 */
import { statSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { recommend } from '../core/deploy/recommend';
import { rooflineSpeed } from '../core/deploy/speed';
import { resolveModel } from '../core/estimate';
import { ruleOfThumb } from '../core/rule-of-thumb';
import { gpuFit } from '../core/deploy/verdict';
import { solveOn } from '../core/solve';
import { estimateWithReplay, stepTimeline } from '../core/timeline';
import { GPUS, resolveGpu } from '../core/gpus';
import { parseHfConfig } from '../core/model/config';
import { HUB_HOST, readHubModel, type HubModel } from '../core/hub/hub-read';
import { fetchHubGet } from '../state/hub-fetch';
import { parseScenario, type ParsedScenario } from '../core/scenario';
import type { FieldError, GpuFit, ModelArch } from '../core/types';
import { decodeUrl } from '../state/url-codec';
import { bandHigh, bandsFor } from '../validation/bands';
import { parseArgs } from './args';
import { renderJson, renderText, renderTimelineText, usage, type Extras } from './estimate-render';
import { runNetwork } from './network';
import { readTextFile } from './read-input';
import { emit, oneLine, quoteArg, usageError, type CliResult } from './output';
import { MiB } from '../core/units';
import '../core/all-estimators';

function firstError(errors: readonly FieldError[]): CliResult {
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return usageError(`${errors[0].message}${more}`);
}

/** A --model value naming a file rather than a preset: ends in .json or is an existing file. */
function isConfigPath(model: string): boolean {
  if (/\.json$/i.test(model)) return true;
  try {
    return statSync(model).isFile();
  } catch {
    return false;
  }
}

/** A config.json is a few kB; anything past 1 MiB is not one. */
const MAX_CONFIG_BYTES = MiB;

function loadConfig(path: string): { ok: true; arch: ModelArch } | { ok: false; error: string } {
  const text = readTextFile(path, MAX_CONFIG_BYTES);
  if (!text.ok) return { ok: false, error: `config: ${text.error}` };
  let json: unknown;
  try {
    json = JSON.parse(text.text);
  } catch (e) {
    return { ok: false, error: `cannot read config ${quoteArg(path, 200, true)}: ${(e as Error).message.split('\n')[0]}` };
  }
  const r = parseHfConfig(json);
  return r.ok ? { ok: true, arch: r.value } : { ok: false, error: `config ${quoteArg(path, 200, true)}: ${r.errors[0].message}` };
}

/** The scenario from a share URL or from flags (with an optional config file). */
function readScenario(record: Record<string, string>, url: string | null): ParsedScenario | CliResult {
  if (url !== null) {
    const d = decodeUrl(url);
    return { scenario: d.scenario, errors: d.errors, warnings: d.warnings };
  }
  const model = record.model;
  if (model !== undefined && isConfigPath(model)) {
    const cfg = loadConfig(model);
    if (!cfg.ok) return usageError(cfg.error);
    return parseScenario({ ...record, model: 'custom' }, { customArch: cfg.arch });
  }
  return parseScenario(record);
}

/** Run the CLI on argv (without node and script); returns exit code and output, never throws. */
export async function main(argv: readonly string[]): Promise<CliResult> {
  if (argv.some((a) => a === '--network' || a.startsWith('--network='))) return runNetwork([...argv]);
  const parsed = parseArgs(argv);
  if (!parsed.ok) return usageError(parsed.error);
  const { record, json, help, url, recommend: wantRecommend, solve: wantSolve, timeline, ruleOfThumb: ruleDtype, hub: hubId } = parsed.args;
  let customArch: ModelArch | undefined;
  if (help) return { code: 0, stdout: usage(), stderr: '' };
  let hub: HubModel | undefined;
  if (hubId !== undefined) {
    if (record.model !== undefined || url !== null) return usageError('--hub reads the model from the Hub: give it without --model or a share link');
    const got = await readHubModel(hubId, fetchHubGet(), process.env.HF_ENDPOINT || HUB_HOST);
    if (!got.ok) return usageError(`hub: ${got.error.text}`);
    const arch = parseHfConfig(got.value.config);
    if (!arch.ok) return usageError(`hub: ${hubId}'s config.json: ${arch.errors[0].message}`);
    hub = got.value;
    record.model = 'custom';
    customArch = arch.value;
  }
  const read = customArch ? parseScenario(record, { customArch }) : readScenario(record, url);
  if ('code' in read) return read;
  if (read.errors.length > 0) return firstError(read.errors);
  const s = read.scenario;
  // the page's settled estimate: reserved from the replay where it decides it (timeline/applies.ts)
  const result = estimateWithReplay(s);
  if (!result.ok) return firstError(result.errors);
  const est = result.value;
  const device = s.gpu ? resolveGpu(s.gpu) : undefined;
  const gpu: GpuFit | undefined = device && gpuFit(s, est, device.id === 'custom' ? s.gpu : device.id, device.capacityBytes);
  if (wantSolve && !device) return usageError('--solve needs --gpu (the card to solve for)');
  const extras: Extras = hub ? { hub } : {};
  if (device && device.category !== 'custom') {
    const resolved = resolveModel(s);
    if (resolved.ok) extras.speed = rooflineSpeed(s, est, resolved.value.arch, device, s.mfu);
  }
  if (wantSolve && device) {
    const solved = solveOn(s, device.capacityBytes, est);
    if (!solved.ok) return firstError(solved.errors);
    extras.solve = solved.value;
  }
  if (wantRecommend) {
    const ranked = recommend(s, GPUS, bandHigh(s), est);
    if (!ranked.ok) return firstError(ranked.errors);
    extras.recommend = ranked.value;
  }
  if (ruleDtype !== undefined) {
    const resolved = resolveModel(s);
    if (!resolved.ok) return firstError(resolved.errors);
    const rule = ruleOfThumb(s, resolved.value.arch, est, ruleDtype);
    if (!rule.ok) return firstError(rule.errors);
    extras.ruleOfThumb = rule.value;
  }
  const stderr = read.warnings.map((w) => `warning: ${oneLine(w.message)}\n`).join('');
  if (timeline === true) {
    const tl = stepTimeline(s);
    if (tl.ok) extras.timeline = tl.value;
  }
  const band = bandsFor(s, est);
  const stdout = json ? renderJson(est, gpu, band, extras) : renderText(s, est, gpu, band, device?.name, extras) + (extras.timeline ? renderTimelineText(extras.timeline) : '');
  return { code: 0, stdout, stderr };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(emit, (e: unknown) => {
    process.stderr.write(`internal error: ${oneLine(String((e as Error)?.message ?? e))}\n`);
    process.exitCode = 1;
  });
}
