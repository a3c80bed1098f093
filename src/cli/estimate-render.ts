/**
 * Output of `npm run estimate`: a readable breakdown (bytes in GiB = 2^30 B and GB = 10^9 B,
 * since vendors sell GB and nvidia-smi / PyTorch print MiB/GiB) or one JSON object.
 */
import { ARCH_FIELDS, SCENARIO_FIELDS } from '../core/scenario';
import type { Recommendation } from '../core/deploy/recommend';
import type { RuleOfThumb } from '../core/rule-of-thumb';
import type { HubModel } from '../core/hub/hub-read';
import type { Speed } from '../core/deploy/speed';
import type { Solved } from '../core/solve';
import { replayDecidesReserved } from '../core/timeline/applies';
import { findPreset } from '../core/model/presets';
import type { Estimate, GpuFit, ModelArch, Scenario } from '../core/types';
import type { BandBasis, Bands } from '../validation/bands';

/** What --gpu, --solve and --recommend add to the estimate. */
export interface Extras {
  speed?: Speed;
  solve?: Solved;
  recommend?: Recommendation[];
  /** --timeline: the replayed step timeline */
  timeline?: StepTimeline;
  /** --rule-of-thumb DTYPE: the guides' rule beside the estimate */
  ruleOfThumb?: RuleOfThumb;
  /** --hub ID: what the Hub's files said */
  hub?: HubModel;
}
import type { StepTimeline } from '../core/timeline';
import { fixedIn } from '../core/units';
import { diffusionRun } from '../core/diffusion/build';
import { findDiffusionPreset } from '../core/diffusion/presets';

const gib = (b: number) => fixedIn(b, 'GiB');
const gb = (b: number) => fixedIn(b, 'GB');
const both = (b: number) => `${gib(b)} GiB (${gb(b)} GB)`;
const count = (n: number) => `${(n / 1e9).toFixed(2)} B (${Math.round(n).toLocaleString('en-US')})`;

/** The 80 % band of each total and what it rests on (src/validation/bands). */
export interface BandInfo {
  bands: Bands;
  bandBasis: BandBasis;
}

/** The JSON object: params, terms, the three totals with their 80 % bands and, with --gpu, the fit. */
export function renderJson(est: Estimate, gpu: GpuFit | undefined, band: BandInfo, extras: Extras = {}): string {
  const out: Record<string, unknown> = {
    params: est.params,
    terms: est.terms.map((t) => ({ id: t.id, bytes: t.bytes, level: t.level, derivation: t.derivation })),
    allocatedBytes: est.allocatedBytes,
    reservedBytes: est.reservedBytes,
    deviceBytes: est.deviceBytes,
    bands: band.bands,
    bandBasis: band.bandBasis,
  };
  if (gpu) out.gpu = gpu;
  if (est.engine) out.engine = est.engine;
  if (est.perGpu) out.perGpu = est.perGpu;
  if (extras.speed) {
    const v = (b: { value: number } | null) => (b === null ? null : b.value);
    out.speed = {
      decodeTokensPerSecond: v(extras.speed.decodeTokensPerSecond),
      prefillTokensPerSecond: v(extras.speed.prefillTokensPerSecond),
      stepSeconds: v(extras.speed.stepSeconds),
      bounds: extras.speed,
    };
  }
  if (extras.solve) out.solve = extras.solve;
  if (extras.recommend) out.recommend = extras.recommend;
  if (extras.ruleOfThumb) out.ruleOfThumb = extras.ruleOfThumb;
  if (extras.hub) out.hub = hubJson(extras.hub);
  out.notes = est.notes.map((n) => n.text);
  const timeline = extras.timeline;
  if (timeline) {
    out.timeline = timeline.points;
    out.timelinePeaks = {
      allocated: timeline.peakAllocated,
      requested: timeline.peakRequested,
      reserved: timeline.peakReserved,
      lengths: timeline.lengths,
      runSteps: timeline.runSteps,
      fits: timeline.fits,
    };
  }
  return JSON.stringify(out, null, 2) + '\n';
}

/** --timeline in text: the peak of each phase of each replayed step. */
export function renderTimelineText(tl: StepTimeline): string {
  const rows = new Map<string, { allocated: number; reserved: number }>();
  for (const p of tl.points) {
    const key = `${p.step}:${p.phase}`;
    const r = rows.get(key) ?? { allocated: 0, reserved: 0 };
    rows.set(key, { allocated: Math.max(r.allocated, p.allocated), reserved: Math.max(r.reserved, p.reserved) });
  }
  const lines = ['Timeline (replayed through the caching-allocator model; peak per phase):'];
  for (const [key, r] of rows) {
    const [i, phase] = key.split(':');
    // the run's own step number: with varied lengths only the steps longer than all before them are replayed
    const step = String(tl.runSteps[Number(i)] ?? i);
    const len = tl.lengths.length > 0 ? ` seq ${tl.lengths[Number(i)]}` : '';
    lines.push(`  step ${step.padStart(2)}${len.padEnd(10)} ${phase.padEnd(9)} allocated ${gib(r.allocated)} GiB, reserved ${gib(r.reserved)} GiB`);
  }
  lines.push(`  peak: allocated ${gib(tl.peakAllocated)} GiB, reserved ${gib(tl.peakReserved)} GiB`);
  for (const n of tl.notes) lines.push(`  Note: ${n.text}`);
  return lines.join('\n') + '\n';
}

/** A preset's architecture overrides that differ from the preset, as `key value` by their link keys (ARCH_FIELDS order). */
function archEdits(id: string, arch: Scenario['arch']): string[] {
  const base = findPreset(id)?.arch;
  if (!arch || !base) return [];
  const at = (a: Partial<ModelArch>, prop: string): unknown => {
    const [top, sub] = prop.split('.') as [keyof ModelArch, string | undefined];
    return sub ? (a.moe as Record<string, unknown> | undefined)?.[sub] : a[top];
  };
  return ARCH_FIELDS.flatMap((f) => {
    const v = at(arch, f.prop);
    if (v === undefined || v === at(base, f.prop)) return [];
    // a free-text label (family) is named, not echoed
    if (f.kind.type === 'text') return [f.name];
    return typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string' ? [`${f.name} ${String(v)}`] : [];
  });
}

function describe(s: Scenario): string[] {
  const edited = s.model !== '' && s.model !== 'custom' ? archEdits(s.model, s.arch) : [];
  const model = s.model === '' ? `${(s.params ?? 0).toLocaleString('en-US')} parameters (shape guessed)` : edited.length > 0 ? `${s.model}, edited: ${edited.join(', ')}` : s.model;
  const lines = [`Model:    ${model}`];
  const image = findDiffusionPreset(s.model);
  if (image) {
    const run = diffusionRun(s, image);
    const side = run.ok ? `${run.value.side}×${run.value.side} px` : `resolution ${s.resolution ?? 'auto'}`;
    const cfg = run.ok ? `, CFG ${run.value.cfg ? 'on' : 'off'}` : '';
    lines.push(`Scenario: image generation with diffusers ${image.pipeline}, weights ${s.weights}, batch ${s.batch}, ${side}${cfg}${s.offloadModel === 'on' ? ', enable_model_cpu_offload' : ''}`);
  } else if (s.mode === 'inference') {
    lines.push(`Scenario: inference on ${s.engine}, weights ${s.weights}, KV ${s.kv}, batch ${s.batch}, prompt ${s.prompt} + gen ${s.gen} tokens`);
  } else {
    const lora = s.method === 'lora' || s.method === 'qlora' ? ` r=${s.loraRank} on ${s.loraTargets.join(',')}` : '';
    const accum = s.gradAccum > 1 ? ` (grad-accum ${s.gradAccum})` : '';
    const zero = s.gradZero === 'zeros' ? ', gradients kept between steps' : '';
    lines.push(`Scenario: training (${s.method}${lora}), weights ${s.weights}, ${s.precision}, ${s.optimizer}, batch ${s.batch} × ${s.seq} tokens${accum}, checkpointing ${s.gradCkpt}${zero}`);
    const techniques = [
      s.compile === 'inductor' ? 'torch.compile (inductor)' : '',
      s.lossChunks > 1 ? `loss in ${s.lossChunks} chunks` : '',
      s.optimStep === 'in-backward' ? 'optimizer step in backward' : '',
      s.actOffload === 'cpu' ? 'activations offloaded to CPU' : '',
    ].filter((x) => x !== '');
    if (techniques.length > 0) lines.push(`Memory:   ${techniques.join(', ')}`);
  }
  if (s.gpus > 1) lines.push(`Parallel: ${s.gpus} GPUs, tp ${s.tp}, pp ${s.pp}, ZeRO ${s.zero}, offload ${s.offload} (figures per GPU)`);
  return lines;
}

const BASIS: Record<BandBasis['kind'], string> = {
  validated: 'development rows of this kind (and the independent check where it found a wider spread)',
  'not-validated': "NOT VALIDATED: no development rows of this setting; the independent check's wider spread",
  'guessed-shape': 'shape guessed from the parameter count: no precise band; the widest spread',
};

/** "allocated 16.90–19.80 GiB" */
function bandLine(label: string, [lo, hi]: [number, number]): string {
  return `${label}${gib(lo)}–${gib(hi)} GiB`;
}

/** Human-readable breakdown: one row per term, then the allocated / reserved / device totals and their 80 % bands. */
export function renderText(s: Scenario, est: Estimate, gpu: GpuFit | undefined, band: BandInfo, gpuName?: string, extras: Extras = {}): string {
  const lines = describe(s);
  if (extras.hub) lines.push(hubLine(extras.hub));
  const p = est.params;
  lines.push(`Params:   total ${count(p.total)} · trainable ${count(p.trainable)} · active ${count(p.active)}`, '');
  const rows = est.terms.map((t) => [t.id, t.level, gib(t.bytes), gb(t.bytes), t.derivation.confidence]);
  const head = ['term', 'level', 'GiB', 'GB', 'confidence'];
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const fmt = (r: string[]) =>
    r
      .map((c, i) => (i >= 2 && i <= 3 ? c.padStart(width[i]) : c.padEnd(width[i])))
      .join('  ')
      .trimEnd();
  lines.push(fmt(head), ...rows.map(fmt), '');
  lines.push(`Allocated (torch max_memory_allocated): ${both(est.allocatedBytes)}`);
  lines.push(`Reserved  (torch max_memory_reserved):  ${both(est.reservedBytes)}`);
  lines.push(`Device    (nvidia-smi, per GPU):        ${both(est.deviceBytes)}`);
  const b = band.bands;
  const [elo, ehi] = band.bandBasis.signedPct.map((e) => `${e > 0 ? '+' : ''}${e.toFixed(1)} %`);
  lines.push(`80 % band: ${[bandLine('allocated ', b.allocatedBytes), bandLine('reserved ', b.reservedBytes), bandLine('device ', b.deviceBytes)].join(' · ')}`);
  lines.push(`           signed error ${elo} to ${ehi}; ${BASIS[band.bandBasis.kind]}`);
  if (est.engine?.kvTokens !== undefined) lines.push(`KV pool:  ${est.engine.kvTokens.toLocaleString('en-US')} tokens`);
  if (est.engine?.gpuLayers !== undefined) lines.push(`GPU layers: ${est.engine.gpuLayers}${est.engine.layersPerGpu ? ` (per GPU: ${est.engine.layersPerGpu.join(' / ')})` : ''}`);
  if (est.perGpu) lines.push(`Per GPU:  allocated ${est.perGpu.map(gib).join(' / ')} GiB (the totals above are the most-loaded GPU)`);
  const host = est.engine?.host;
  if (host)
    lines.push(
      `Host RAM: ${gib(host.bytes)} GiB (token embeddings and output ${gib(host.embeddingAndOutput)}, layers on the CPU ${gib(host.layers)}, their KV ${gib(host.kv)}, buffers ${gib(host.buffers)})`,
    );
  if (gpu) {
    const verdict = gpu.fits ? `fits, ${both(gpu.headroomBytes)} free` : `does NOT fit, short by ${both(-gpu.headroomBytes)}`;
    lines.push(`GPU:      ${gpuName ?? gpu.id}, ${both(gpu.capacityBytes)}: ${verdict}`);
  }
  lines.push(...speedLines(extras.speed), ...solveLines(s, extras.solve), ...recommendLines(extras.recommend), ...ruleLines(extras.ruleOfThumb));
  for (const n of est.notes) lines.push(`Note:     ${n.text}`);
  return lines.join('\n') + '\n';
}

/** --rule-of-thumb: the rule's terms beside the estimate's of the same kind, and why they differ. */
function ruleLines(r: RuleOfThumb | undefined): string[] {
  if (!r) return [];
  const out = ['', `Rule of thumb (every parameter at ${r.dtype}, ${r.bytesPerParam} B): ${both(r.bytes)}${r.largestBatch !== null ? `; largest batch on the GPU: ${r.largestBatch}` : ''}`];
  for (const t of r.terms) out.push(`  ${t.id.padEnd(12)} ${gb(t.bytes).padStart(8)} GB  ${t.formula}`);
  out.push('  Against the estimate (GB, rule vs estimate):');
  for (const c of r.comparison) out.push(`  ${c.id.padEnd(12)} ${gb(c.rule).padStart(8)} vs ${gb(c.estimate).padStart(8)}  ${c.reason.text}`);
  return out;
}

const rate = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toPrecision(3));

function speedLines(sp: Speed | undefined): string[] {
  if (!sp) return [];
  const out: string[] = [];
  if (sp.decodeTokensPerSecond) out.push(`Speed:    decode ≤ ${rate(sp.decodeTokensPerSecond.value)} tokens/s (${sp.decodeTokensPerSecond.formula}; roofline bound)`);
  if (sp.prefillTokensPerSecond) out.push(`Speed:    prefill ≤ ${rate(sp.prefillTokensPerSecond.value)} tokens/s (${sp.prefillTokensPerSecond.formula}; roofline bound)`);
  if (sp.stepSeconds) out.push(`Speed:    optimizer step ≥ ${rate(sp.stepSeconds.value)} s (${sp.stepSeconds.formula}; MFU ${sp.stepSeconds.values.MFU})`);
  for (const n of sp.notes) out.push(`Speed:    ${n}`);
  return out;
}

function solveLines(s: Scenario, sv: Solved | undefined): string[] {
  if (!sv) return [];
  const key = s.mode === 'training' ? 'seq' : 'prompt';
  const limit = sv.contextLimit !== null && sv.maxContext === sv.contextLimit ? ` (the model's limit${sv.memoryAllowsLongerContext ? '; memory would allow more' : ''})` : '';
  const plan = sv.minGpus ? `${sv.minGpus.gpus} (tp ${sv.minGpus.tp}, pp ${sv.minGpus.pp})` : 'none up to 4096';
  const longest = sv.maxContext === null ? '' : `; longest ${key} ${sv.maxContext.toLocaleString('en-US')}${limit}`;
  const line = `Solve:    largest batch ${sv.maxBatch}${longest}; fewest GPUs ${plan}`;
  // the solvers search with the closed form (solve.ts solveOn); the verdict above replays the allocator here
  return replayDecidesReserved(s) ? [line, 'Solve:    searched with the fast estimate (no allocator replay), held to the verdict above at this batch and length'] : [line];
}

const MARK_ICON = { fits: '✓', tight: '⚠', no: '✗' } as const;

function recommendLines(rs: Recommendation[] | undefined): string[] {
  if (!rs) return [];
  const out = ['', 'GPUs for this scenario (cheapest kind first: consumer, workstation, datacenter; smaller first):'];
  for (const r of rs) {
    const free = `${gib(r.headroomBytes)} GiB free`;
    const verdict =
      r.mark === 'fits' ? `fits, ${free}` : r.mark === 'tight' ? `tight: fits, ${free}, not at the 80 % band's upper end` : r.count === null ? 'does not fit on any count' : `needs ${r.count}`;
    out.push(`  ${MARK_ICON[r.mark]} ${r.name.padEnd(34)} ${gib(r.capacityBytes).padStart(7)} GiB  ${r.category.padEnd(12)} ${verdict}`);
  }
  return out;
}

/** --help text, generated from the schema so it lists every key. */
export function usage(): string {
  const key = (name: string, help: string) => `  --${name.padEnd(16)} ${help}`;
  return [
    'Usage: npm run --silent estimate -- [--key value ...] [--json] [--timeline] [--rule-of-thumb DTYPE] [--hub ID]',
    '       npm run --silent estimate -- "<share URL or its query string>"',
    '       npm run --silent estimate -- --network ...   (layer-stack estimate)',
    '',
    'Scenario keys (same names as the share URL):',
    ...SCENARIO_FIELDS.map((f) => key(f.name, f.help)),
    '',
    'Architecture keys (model=custom, or overrides on a preset):',
    ...ARCH_FIELDS.map((f) => key(f.name, f.help)),
    '',
    '  --model path/to/config.json   load a Hugging Face config.json',
    '  --hub ID                      read config.json and the safetensors headers (HTTP Range) of a Hub model, e.g. Qwen/Qwen2.5-7B-Instruct; contacts huggingface.co (or $HF_ENDPOINT)',
    '  --json                        print one JSON object',
    '  --recommend                   rank the whole GPU catalogue for the scenario (fits, headroom, cards needed)',
    "  --solve                       with --gpu: largest batch, longest context (capped at the model's), fewest GPUs",
    '  --timeline                    replay the step through the caching-allocator model: allocated / reserved per layer and phase',
    "  --rule-of-thumb DTYPE         the guides' rule of thumb beside the estimate, every parameter at DTYPE (fp64, fp32, fp16, bf16, int8, int4): weights + gradients + 2 AdamW moments + batch·(h+i)·seq·L·b",
    '  --help                        this text',
    '',
  ].join('\n');
}

/** JSON `hub`: the model's own files, beside the estimate computed from its config. */
function hubJson(h: HubModel): Record<string, unknown> {
  return { id: h.id, files: h.files, requests: h.requests, parameters: h.weights?.elements ?? null, bytes: h.weights?.bytes ?? null, byDtype: h.weights?.byDtype ?? null };
}

/** "Hub:      meta-llama/Llama-2-7b-hf, 2 safetensors files: 6.74 B (6,738,415,616) elements, BF16 12.55 GiB" */
function hubLine(h: HubModel): string {
  if (!h.weights) return `Hub:      ${h.id}: config.json only (no safetensors files to read)`;
  const dtypes = Object.entries(h.weights.byDtype)
    .map(([d, v]) => `${d} ${gib(v.bytes)} GiB`)
    .join(', ');
  return `Hub:      ${h.id}, ${h.files.length} safetensors file${h.files.length === 1 ? '' : 's'}: ${count(h.weights.elements)} elements, ${dtypes}`;
}
