/**
 * `--network` mode of the estimate CLI: memory of a layer-list network (a preset id, a JSON
 * layer list, or PyTorch print(model) text) with the per-layer method of src/core/layers.
 *
 *   tsx src/cli/estimate.ts --network resnet-50 --input 3x224x224 --batch 32 --mode training \
 *     [--precision amp-bf16] [--optimizer sgd-momentum] [--grad-ckpt full] [--gpu a100-80gb] [--json]
 *
 * Bad input gives exit code 2 and one line on stderr.
 */
import { existsSync } from 'node:fs';
import { resolveGpu } from '../core/gpus';
import { estimatePrepared, maxBatch, prepareNetwork, MAX_BATCH, type NetworkEstimate, type NetworkOptions } from '../core/layers/estimate';
import { findNetworkPreset, NETWORK_PRESETS } from '../core/layers/presets';
import { importTorchRepr } from '../core/layers/repr-import';
import type { Network } from '../core/layers/spec';
import { parseLayerText } from '../core/layers/text';
import { importTorchinfo, isTorchinfo } from '../core/layers/torchinfo-import';
import { parseNetworkJson } from '../core/layers/validate';
import { SCENARIO_FIELDS } from '../core/scenario/schema';
import type { GpuFit, Message } from '../core/types';
import type { Unparsed } from '../core/layers/repr-parse';
import { readTextFile } from './read-input';
import { oneLine, quoteArg, usageError as fail, type CliResult } from './output';
import { formatIn } from '../core/units';

/** The scenario keys the layer estimate reads (the schema's `network`), each as its schema kind says. */
const SCENARIO_FLAGS = SCENARIO_FIELDS.filter((f) => f.network);
const FLAGS: readonly string[] = ['network', 'input', ...SCENARIO_FLAGS.map((f) => f.name)];
const SWITCHES = ['json', 'help'] as const;
const ENUMS: [string, readonly string[]][] = SCENARIO_FLAGS.flatMap((f) => (f.kind.type === 'enum' ? [[f.name, f.kind.values] as [string, readonly string[]]] : []));

const flagHelp = (name: string) => {
  const e = ENUMS.find(([k]) => k === name);
  return `[--${name} ${e ? e[1].join('|') : name === 'gpu' ? '<catalogue id or capacity, e.g. 24GiB>' : 'N'}]`;
};
const HELP = `usage: --network <preset|file> [--input CxHxW] ${SCENARIO_FLAGS.map((f) => flagHelp(f.name)).join(' ')} [--json]
presets: ${NETWORK_PRESETS.map((p) => p.id).join(', ')}
file: a JSON layer list ({"input": [...], "layers": [...]}), PyTorch print(model) text, a torchinfo
  summary table, or the terse
  layer text (also inline: --network "flatten; linear 784 10" --input 1x28x28)`;

function parseArgs(argv: string[]): { flags: Record<string, string>; switches: Set<string> } | string {
  const flags: Record<string, string> = {};
  const switches = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const m = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!m) return `unexpected argument ${quoteArg(argv[i], 60)}`;
    const [, key, inline] = m;
    if ((SWITCHES as readonly string[]).includes(key)) {
      switches.add(key);
      continue;
    }
    if (!FLAGS.includes(key)) return `unknown option --${key} (network mode takes --${FLAGS.join(', --')}, --json)`;
    const v = inline ?? argv[++i];
    if (v === undefined) return `--${key} needs a value`;
    flags[key] = v;
  }
  return { flags, switches };
}

interface Loaded {
  net: Network;
  notes: Message[];
  unparsed: Unparsed[];
  statedTotal?: number | null;
}

/** A preset id, a file (JSON layer list, print(model) text, terse text form) or inline terse text. */
function load(spec: string, input: number[] | undefined): Loaded | string {
  const preset = findNetworkPreset(spec);
  if (preset) {
    const n = preset.build();
    return { net: { ...n, input: input ?? n.input }, notes: [], unparsed: [] };
  }
  let text: string;
  let label = quoteArg(spec, 200, true);
  if (existsSync(spec)) {
    const r = readTextFile(spec);
    if (!r.ok) return r.error;
    text = r.text;
  } else if (!/[ ;]/.test(spec.trim())) {
    return `${quoteArg(spec, 200)} is neither a preset (${NETWORK_PRESETS.map((p) => p.id).join(', ')}) nor a readable file: ENOENT`;
  } else {
    text = spec;
    label = 'layer text';
  }
  const first = (r: { errors: { message: string }[] }) => `${label}: ${r.errors[0].message}${r.errors.length > 1 ? ` (and ${r.errors.length - 1} more)` : ''}`;
  if (/^\s*[[{]/.test(text)) {
    const r = parseNetworkJson(text, input);
    if (!r.ok) return first(r);
    return { net: input ? { ...r.value, input } : r.value, notes: [], unparsed: [] };
  }
  if (!input) return `--input is required for print(model) or layer text (e.g. --input 3x224x224)`;
  if (isTorchinfo(text)) {
    const t = importTorchinfo(text, input);
    if (t.network.layers.length === 0) return `${label}: no torchinfo rows recognised`;
    return { net: t.network, notes: t.notes, unparsed: t.unparsed, statedTotal: t.statedTotal };
  }
  if (!/^\s*[A-Z_][\w.]*\(/i.test(text)) {
    const r = parseLayerText(text, input);
    return r.ok ? { net: r.value, notes: [], unparsed: [] } : first(r);
  }
  const imp = importTorchRepr(text, input);
  if (imp.network.layers.length === 0) return `${label}: no PyTorch modules recognised`;
  return { net: imp.network, notes: imp.notes, unparsed: imp.unparsed };
}

/** Run the network estimate for CLI arguments; never throws. */
export function runNetwork(argv: string[]): CliResult {
  const args = parseArgs(argv);
  if (typeof args === 'string') return fail(args);
  if (args.switches.has('help')) return { code: 0, stdout: `${HELP}\n`, stderr: '' };
  const f = args.flags;
  if (!f.network) return fail('--network is required (a preset id or a file)');
  let input: number[] | undefined;
  if (f.input !== undefined) {
    if (!/^\d+(?:x\d+)*$/.test(f.input) || f.input.split('x').some((d) => Number(d) < 1 || Number(d) > 2 ** 31)) {
      return fail(`--input must be a per-sample shape like 3x224x224; got ${quoteArg(f.input, 60)}`);
    }
    input = f.input.split('x').map(Number);
  }
  const batch = f.batch === undefined ? 1 : Number(f.batch);
  if (!/^\d+$/.test(f.batch ?? '1') || batch < 1 || batch > MAX_BATCH) return fail(`--batch must be an integer from 1 to ${MAX_BATCH}; got ${quoteArg(String(f.batch), 60)}`);
  for (const [key, allowed] of ENUMS) {
    if (f[key] !== undefined && !allowed.includes(f[key])) return fail(`--${key} must be one of ${allowed.join(', ')}; got ${quoteArg(f[key], 60)}`);
  }
  const o = {
    mode: f.mode ?? 'inference',
    precision: f.precision ?? 'amp-bf16',
    optimizer: f.optimizer ?? 'adamw',
    gradCkpt: f['grad-ckpt'] ?? 'none',
    batch,
  } as NetworkOptions;
  const gpu = f.gpu === undefined ? undefined : resolveGpu(f.gpu);
  if (f.gpu !== undefined && !gpu) return fail(`--gpu ${quoteArg(f.gpu, 60)} is not a catalogue id or a capacity like 24GiB`);
  const loaded = load(f.network, input);
  if (typeof loaded === 'string') return fail(loaded);
  const p = prepareNetwork(loaded.net, o.precision);
  if (!p.ok) return fail(p.errors[0].message);
  const e = estimatePrepared(p.value, o);
  e.notes.unshift(...loaded.notes);
  if (loaded.statedTotal != null && loaded.statedTotal !== e.params.total) {
    e.notes.unshift({
      code: 'torchinfo.total',
      params: { stated: loaded.statedTotal, counted: e.params.total },
      text: `the summary states ${loaded.statedTotal.toLocaleString('en-US')} parameters, the layers give ${e.params.total.toLocaleString('en-US')}`,
    });
  }
  let fit: (GpuFit & { maxBatch: number }) | undefined;
  if (gpu) {
    const cap = gpu.capacityBytes;
    fit = { id: gpu.id, capacityBytes: cap, fits: e.deviceBytes <= cap, headroomBytes: cap - e.deviceBytes, maxBatch: maxBatch(p.value, o, cap) };
  }
  if (args.switches.has('json')) {
    const out = { network: f.network, input: loaded.net.input, ...o, ...e, gpu: fit, unparsed: loaded.unparsed };
    return { code: 0, stdout: `${JSON.stringify(out, null, 2)}\n`, stderr: '' };
  }
  return { code: 0, stdout: table(f.network, loaded, e, o, fit), stderr: '' };
}

const gib = (b: number) => formatIn(b, 'GiB');
const mib = (b: number) => (b === 0 ? '-' : formatIn(b, 'MiB', 1));

function table(name: string, l: Loaded, e: NetworkEstimate, o: NetworkOptions, fit?: GpuFit & { maxBatch: number }): string {
  const rows = e.layers.map((r) => [
    `${'  '.repeat(Math.max(0, r.depth))}${r.path}`,
    r.kind,
    r.outShape.join('x'),
    r.params ? r.params.toLocaleString('en-US') : '-',
    mib(r.outputBytes),
    mib(r.savedBytes),
  ]);
  const head = ['layer', 'kind', 'output', 'params', 'output', o.mode === 'training' ? 'saved' : 'saved (train)'];
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) => r.map((c, i) => (i >= 3 ? c.padStart(w[i]) : c.padEnd(w[i]))).join('  ');
  const lines = [
    `${oneLine(name)}: input ${l.net.input.join('x')}, batch ${o.batch}, ${o.mode}, ${o.precision}${o.mode === 'training' ? `, ${o.optimizer}, grad-ckpt ${o.gradCkpt}` : ''}`,
    `params ${e.params.total.toLocaleString('en-US')}, forward ${(e.flops / 1e9).toFixed(2)} GFLOPs`,
    '',
    fmt(head),
    ...rows.map(fmt),
    '',
    ...e.terms.map((t) => `${t.id.padEnd(18)} ${gib(t.bytes).padStart(12)}  ${t.derivation.formula}`),
    '',
    `allocated ${gib(e.allocatedBytes)}  reserved ${gib(e.reservedBytes)}  device ${gib(e.deviceBytes)}`,
  ];
  if (fit) lines.push(`${fit.id}: ${gib(fit.capacityBytes)} — ${fit.fits ? 'fits' : 'does not fit'} (headroom ${gib(fit.headroomBytes)}), largest batch ${fit.maxBatch}`);
  for (const n of e.notes) lines.push(`note: ${oneLine(n.text)}`);
  for (const u of l.unparsed) lines.push(`skipped line ${u.line}: ${oneLine(u.text.trim())}`);
  return `${lines.join('\n')}\n`;
}
