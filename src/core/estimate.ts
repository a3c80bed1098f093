/**
 * estimate(scenario): the memory model's single entry point (docs/reference/formulas.md §8).
 *
 * 1. Checks ranges and impossible combinations (estimate-checks.ts) → FieldErrors.
 * 2. Resolves the model: a preset (findPreset) with `arch` overrides, 'custom' (s.arch), or a
 *    bare count (s.params) with a guessed Llama-style shape whose shape-dependent terms are
 *    marked confidence 'guess' with a note.
 * 3. Builds the terms of the mode / engine and the PEAK of bytes live at once
 *    (allocatedBytes ≈ torch.cuda.max_memory_allocated, per GPU, most-loaded GPU).
 * 4. reservedBytes = allocated + caching-allocator segment rounding of the live tensors
 *    (runtime.ts; vLLM: its fill of gpu_memory_utilization); deviceBytes = reserved + CUDA
 *    context (500 MiB; PyTorch PR #86509, CUDA lazy loading).
 */
import type { Built, Ctx, WeightParts } from './estimate-context';
import { term } from './estimate-context';
import { deferFormulas, mul, sym } from './formula';
import { checkArch, checkCombinations, checkRanges } from './estimate-checks';
import { kvBytesPerElement, weightBytes, weightOptions } from './formats/weights';
import { resolveGpu } from './gpus';
import { layerSplit, type LayerSplit, type LayerSplitInput } from './inference/device-map';
import { buildTransformers } from './inference/transformers';
import { findDiffusionPreset, isDiffusionModel, type DiffusionPreset } from './diffusion/presets';
import { diffusionEstimator } from './diffusion/provider';
import { loaderNote, unknownFamilyNote } from './model/families';
import { ownFileAttn, ownFileCheckpoints } from './model/remote-families';
import { countParams } from './model/params';
import { blockKinds } from './model/tensors';
import { findPreset } from './model/presets';
import { LLAMA_STYLE } from './model/llama-style';
import { guessArch, shapeGuessNote } from './model/quick';
import { imageGrid } from './model/vision-tokens';
import { CUDA_CONTEXT_BYTES, segmentWaste, type TensorGroup } from './runtime';
import { trainingBuilders, type TrainingBuilders } from './training/provider';
import { followsOwnFile, remoteLoading, remoteModule } from './inference/remote-provider';
import { sdpaRunsMath } from './sdpa';
import { engineBuilders, enginesLoading, type EngineBuilders } from './inference/engine-provider';
import type { Attn, Estimate, Message, ModelArch, ParamBreakdown, Result, Scenario, Term } from './types';
import { MiB } from './units';
import { loadingAnswer } from './lazy-slot';

export interface ResolvedModel {
  arch: ModelArch;
  params: ParamBreakdown;
  /** shape guessed from a bare count */
  guessed: boolean;
  notes: Message[];
}

/** Preset (+ overrides), custom arch, or a bare count with a guessed shape. */
export function resolveModel(s: Scenario): Result<ResolvedModel> {
  const fail = (key: string, code: string, message: string): Result<ResolvedModel> => ({ ok: false, errors: [{ key, code, message }] });
  if (s.model === '') {
    if (s.params === null) return fail('params', 'missing-model', 'Choose a model preset, a custom architecture, or give a parameter count such as 7b');
    const arch = guessArch(s.params);
    return { ok: true, value: { arch, params: honourCount(countParams(arch), s.params), guessed: true, notes: [shapeGuessNote(s.params, arch)] } };
  }
  if (isDiffusionModel(s.model)) return fail('model', 'diffusion-model', `${s.model.slice(0, 80)} is an image-generation pipeline: it has no language-model shape`);
  let arch: ModelArch;
  if (s.model === 'custom') {
    if (!s.arch) return fail('arch', 'missing-arch', "model 'custom' needs architecture fields (hidden, layers, heads, ffn, vocab)");
    const a = s.arch;
    const heads = a.heads ?? 0;
    arch = {
      // what the user gave (defined) over zero sizes and the Llama-style traits
      family: 'custom',
      hidden: 0,
      layers: 0,
      heads,
      kvHeads: heads,
      headDim: heads > 0 ? Math.floor((a.hidden ?? 0) / heads) : 0,
      ffn: 0,
      vocab: 0,
      ...LLAMA_STYLE,
      ...defined(a),
    };
  } else {
    const preset = findPreset(s.model);
    if (!preset) return fail('model', 'unknown-model', `Unknown model '${s.model.slice(0, 80)}': pick a preset, 'custom', or leave it empty and give params`);
    arch = s.arch ? { ...preset.arch, ...defined(s.arch) } : preset.arch;
  }
  const archErrors = checkArch(s, arch);
  if (archErrors.length > 0) return { ok: false, errors: archErrors };
  const notes = [unknownFamilyNote(arch.family), loaderNote(arch.family)].filter((n) => n !== null);
  return { ok: true, value: { arch, params: countParams(arch), guessed: false, notes } };
}

/**
 * The guessed shape's breakdown with the user's count kept exact. The guess's rounding goes into
 * the block Linears; a count smaller than the guess's embedding and head (under ~100M, where the
 * smallest template's 32k × 768 tables alone overshoot) scales every part down, so the weights
 * priced from the breakdown are the count given.
 */
export function honourCount(counted: ParamBreakdown, params: number): ParamBreakdown {
  const delta = params - counted.total;
  if (counted.blockLinear + delta >= 0) return { ...counted, total: params, active: params, blockLinear: counted.blockLinear + delta };
  const f = params / counted.total;
  const parts = { embedding: counted.embedding * f, lmHead: counted.lmHead * f, other: counted.other * f };
  return { ...counted, ...parts, total: params, active: params, blockLinear: Math.max(0, params - parts.embedding - parts.lmHead - parts.other) };
}

/** The keys of a partial arch that hold a value (undefined never overrides a default). */
function defined(a: Partial<ModelArch>): Partial<ModelArch> {
  return Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined));
}

/**
 * Weight bytes split by placement. The format prices the embedding / head with its own rules
 * (kept 16-bit by bnb/GPTQ/AWQ; GGUF: base type for token_embd, Q6_K-style for output), so the
 * outer tensors are priced on a zero-layer copy of the architecture; a tied copy with only
 * V·h parameters prices the output tensor alone.
 */
function weightParts(arch: ModelArch, b: ParamBreakdown, s: Scenario): WeightParts {
  // honourCount scaled a tiny guessed count below the shape's own tables: price the breakdown, not the shape
  const scaled = b.embedding < arch.vocab * arch.hidden;
  const opts = weightOptions(s);
  const whole = weightBytes(scaled ? null : arch, b, s.weights, opts);
  const shell: ModelArch = { ...arch, layers: 0, encoderDecoder: undefined, moe: undefined };
  const zero = { ...b, blockLinear: 0, other: 0, perLayer: 0, largestLinear: 0 };
  const outer = weightBytes(shell, { ...zero, total: b.embedding + b.lmHead, active: b.embedding + b.lmHead }, s.weights, opts).bytes;
  const vh = arch.vocab * arch.hidden;
  const head = b.lmHead > 0 ? weightBytes({ ...shell, tiedEmbeddings: true }, { ...zero, total: vh, active: vh, embedding: vh, lmHead: 0 }, s.weights, opts).bytes : 0;
  const ends = Math.min(outer, whole.bytes);
  const blocks = Math.max(0, whole.bytes - ends);
  const parts: WeightParts = { total: whole.bytes, blocks, embedding: Math.max(0, ends - head), head, derivation: whole.derivation };
  const lin = whole.layerLinears;
  if (lin && lin.length === arch.layers && arch.layers > 0) {
    // the norms and other small tensors (blocks beyond the Linears) shared evenly over the layers
    const shared = (blocks - lin.reduce((a, b) => a + b, 0)) / arch.layers;
    parts.perLayer = lin.map((b) => b + shared);
  }
  return parts;
}

/**
 * Weight tensors on one GPU for the allocator model: every block Linear at its own shape
 * (model/tensors.ts; experts as separate modules, as HF stores them), priced at the format's
 * average bytes per block parameter, scaled to the GPU's share; plus embedding and head.
 */
function weightGroups(ctx: Ctx, shareOnGpu: number, shapes: readonly LinearShape[]): { groups: TensorGroup[]; rest: number } {
  const w = ctx.weights;
  const share = Math.min(1, Math.max(0, shareOnGpu));
  const blockParams = Math.max(1, ctx.params.blockLinear + ctx.params.other);
  const perParam = w.blocks / blockParams;
  const groups: TensorGroup[] = shapes.map((t) => ({ bytes: t.elements * perParam, count: Math.round(t.count * share) }));
  const inGroups = groups.reduce((n, g) => n + g.bytes * g.count, 0);
  groups.push({ bytes: w.embedding, count: 1 }, { bytes: w.head, count: w.head > 0 ? 1 : 0 });
  return { groups, rest: Math.max(0, w.blocks * share - inGroups) };
}

/** Elements of one block Linear and how many the model holds. */
interface LinearShape {
  elements: number;
  count: number;
}

type Resolved = ResolvedModel & { weights: WeightParts; shapes: LinearShape[] };

/**
 * One-entry memo of the model resolution and weight pricing: sweeps, solvers and the GPU ranking
 * call estimate() thousands of times with the same model, so only the first call pays for
 * counting. The key holds every scenario input of resolveModel (model, params, arch; checkArch
 * reads mode and engine) and weightParts (weights, double-quant, group-size); the arch override by reference: scenarios are
 * treated as immutable values. Parallelism (tp, pp, gpus) is not an input, so minGpus and
 * recommend() trying one plan after another keep the memo.
 */
type MemoKey = Pick<Scenario, 'model' | 'params' | 'arch' | 'weights' | 'mode' | 'engine' | 'doubleQuant' | 'groupSize'>;
let memo: { key: MemoKey; value: Result<Resolved> } | null = null;

const sameKey = (k: MemoKey, s: Scenario) =>
  k.model === s.model &&
  k.params === s.params &&
  k.arch === s.arch &&
  k.weights === s.weights &&
  k.mode === s.mode &&
  k.engine === s.engine &&
  k.doubleQuant === s.doubleQuant &&
  k.groupSize === s.groupSize;

function resolveCached(s: Scenario): Result<Resolved> {
  if (memo && sameKey(memo.key, s)) return memo.value;
  const r = resolveModel(s);
  const value: Result<Resolved> = r.ok ? { ok: true, value: { ...r.value, weights: weightParts(r.value.arch, r.value.params, s), shapes: linearShapes(r.value.arch) } } : r;
  memo = { key: { model: s.model, params: s.params, arch: s.arch, weights: s.weights, mode: s.mode, engine: s.engine, doubleQuant: s.doubleQuant, groupSize: s.groupSize }, value };
  return value;
}

/** The scenario's resolved architecture, from the same memo `estimate()` reads (cheap while a slider moves), or null. */
export function resolvedArch(s: Scenario): ModelArch | null {
  const r = resolveCached(s);
  return r.ok ? r.value.arch : null;
}

/** Block Linear shapes (model/tensors.ts; experts as separate modules, as HF stores them). */
function linearShapes(arch: ModelArch): LinearShape[] {
  return blockKinds(arch).flatMap((k) => k.linears.map((t) => ({ elements: t.din * t.dout, count: k.count * t.copies })));
}

/**
 * Module sizes accelerate sees (compute_module_sizes): the embedding, L equal blocks (final norm
 * folded into them), the untied head; leaf modules = block Linears + 2 norms per block + embedding,
 * final norm and head, for get_balanced_memory's mean of final modules.
 */
function splitInput(w: WeightParts, layers: number, shapes: readonly LinearShape[]): LayerSplitInput {
  const linears = shapes.reduce((n, t) => n + t.count, 0);
  return { embedding: w.embedding, block: w.blocks / Math.max(1, layers), layers, norm: 0, head: w.head, leafModules: linears + 2 * layers + 2 + (w.head > 0 ? 1 : 0) };
}

/** One-entry memo of the placement: sweeps call estimate() with the same model and GPUs. */
let splitMemo: { weights: WeightParts; gpus: number; free: number; value: LayerSplit } | null = null;

function splitCached(weights: WeightParts, layers: number, shapes: readonly LinearShape[], gpus: number, free: number): LayerSplit {
  if (splitMemo && splitMemo.weights === weights && splitMemo.gpus === gpus && splitMemo.free === free) return splitMemo.value;
  const value = layerSplit(splitInput(weights, layers, shapes), gpus, free);
  splitMemo = { weights, gpus, free, value };
  return value;
}

/** What get_max_memory reads on a fresh GPU (torch.cuda.mem_get_info): capacity less the CUDA context. */
function freeBytes(capacity: number | null): number {
  return capacity === null ? Number.POSITIVE_INFINITY : Math.max(0, capacity - CUDA_CONTEXT_BYTES);
}

function build(ctx: Ctx, training: TrainingBuilders | null, engines: EngineBuilders | null): Built {
  if (training) return ctx.split ? training.split(ctx) : training.build(ctx);
  if (engines && ctx.s.engine === 'vllm') return engines.vllm(ctx);
  if (engines && ctx.s.engine === 'llama.cpp') return engines.llamacpp(ctx);
  return buildTransformers(ctx);
}

/** Per-GPU memory estimate of a scenario (most-loaded GPU). */
export function estimate(s: Scenario): Result<Estimate> {
  const r = estimateDetail(s);
  return r.ok ? { ok: true, value: r.value.estimate } : r;
}

/** The estimate with what it was built from: the step timeline (core/timeline) replays these. */
export interface EstimateDetail {
  estimate: Estimate;
  /** null for an image-generation pipeline (core/diffusion), which has no language-model context */
  ctx: Ctx | null;
  built: Built;
  /** weight tensors on the GPU by shape (empty without PyTorch's allocator) */
  weightTensors: TensorGroup[];
  /** bytes of the GPU's block weights in none of those tensors (norms, biases), in their dtype */
  weightRest: number;
}

/**
 * estimate() plus its context, builder result and weight tensors. The terms' formulas are made
 * when first read (formula/derivation.ts): most callers read only the bytes.
 */
export function estimateDetail(s: Scenario): Result<EstimateDetail> {
  return deferFormulas(() => detailOf(s));
}

function detailOf(s: Scenario): Result<EstimateDetail> {
  const rangeErrors = checkRanges(s);
  if (rangeErrors.length > 0) return { ok: false, errors: rangeErrors };
  const comboErrors = checkCombinations(s);
  if (comboErrors.length > 0) return { ok: false, errors: comboErrors };
  const diffusion = findDiffusionPreset(s.model);
  if (diffusion) return diffusionDetail(s, diffusion);
  const resolved = resolveCached(s);
  if (!resolved.ok) return resolved;
  const { arch, params, guessed, notes, weights, shapes } = resolved.value;
  const gpu = s.gpu ? resolveGpu(s.gpu) : undefined;
  if (s.gpu && !gpu) return unknownGpu(s);
  const shapeErrors = checkCombinations(s, guessed ? { ...arch, guessed } : arch, 'arch');
  if (shapeErrors.length > 0) return { ok: false, errors: shapeErrors };
  const training = s.mode === 'training' ? trainingBuilders() : null;
  if (s.mode === 'training' && !training) return trainingLoading();
  if (followsOwnFile(s, arch.family) && !remoteModule()) return remoteLoading(arch);
  const engines = s.mode === 'inference' && s.engine !== 'transformers' ? engineBuilders() : null;
  if (s.mode === 'inference' && s.engine !== 'transformers' && !engines) return enginesLoading(s.engine);
  const capacityBytes = gpu ? gpu.capacityBytes : null;
  const images = imageInput(s, arch);
  // Baichuan's own file checkpoints every layer in training whatever the setting (remote-families.ts)
  const forcedCkpt = s.mode === 'training' && s.gradCkpt !== 'full' && ownFileCheckpoints(arch);
  // files with no SDPA path (InternLM's, transformers' Bloom, GPT-J and T5) run eager (remote-families.ts);
  // the remote-code runtime decides its own attention in generate
  const ownAttn = s.mode === 'training' || (s.engine === 'transformers' && !followsOwnFile(s, arch.family)) ? ownFileAttn(arch, s.attn) : s.attn;
  const ctx: Ctx = {
    s: images ? { ...s, prompt: s.prompt + s.images * images.grid.tokens } : forcedCkpt || ownAttn !== s.attn ? { ...s, attn: ownAttn, ...(forcedCkpt ? { gradCkpt: 'full' as const } : {}) } : s,
    arch,
    params,
    guessed,
    weights,
    kvElementBytes: kvBytesPerElement(s.kv),
    capacityBytes,
    split: s.split === 'layers' && s.gpus > 1 ? splitCached(weights, arch.layers, shapes, s.gpus, freeBytes(capacityBytes)) : null,
  };
  // set after the literal: a conditional spread in it sends V8's object clone to its slow path (sweep bench)
  if (images) ctx.images = images;
  const built = build(ctx, training, engines);
  const weightTerm = built.terms.find((t) => t.id === 'weights');
  const { groups: weightTensors, rest: weightRest } = built.torchAllocator
    ? weightGroups(ctx, built.weightShare ?? (ctx.weights.total > 0 ? (weightTerm?.bytes ?? 0) / ctx.weights.total : 0), shapes)
    : { groups: [], rest: 0 };
  const detail = finish(ctx, built, weightTensors, weightRest, params.total, params.active, [
    ...notes,
    ...built.notes,
    ...(arch.hybrid && s.mode === 'training' ? [HYBRID_TRAINING_NOTE] : []),
    ...(forcedCkpt ? [OWN_CHECKPOINTING_NOTE] : []),
    ...(ownAttn !== s.attn ? [ownAttentionNote(ownAttn, s.attn)] : []),
    ...(ownAttn === 'sdpa' && (s.mode === 'training' || s.engine === 'transformers') && sdpaRunsMath(arch) ? [SDPA_MATH_NOTE] : []),
    ...(images ? imageNotes(s, images) : []),
  ]);
  return { ok: true, value: { ...detail, ctx } };
}

/** A training scenario before the training estimator has been loaded (training/provider.ts). */
const trainingLoading = (): Result<never> => loadingAnswer('mode', 'training.loading', 'the training estimator is still loading');

/** A diffusers text-to-image pipeline (core/diffusion): its phases instead of a language model's terms. */
function diffusionDetail(s: Scenario, p: DiffusionPreset): Result<EstimateDetail> {
  const gpu = s.gpu ? resolveGpu(s.gpu) : undefined;
  if (s.gpu && !gpu) return unknownGpu(s);
  const run = diffusionEstimator();
  if (!run) return loadingAnswer('model', 'diffusion.loading', `${p.name}: the image-generation estimator is still loading`, { name: p.name });
  const r = run(s, p);
  if (!r.ok) return r;
  const { built, params } = r.value;
  return { ok: true, value: { ...finish({ s, guessed: false }, built, [], 0, params, params, built.notes), ctx: null } };
}

/** Allocator rounding, CUDA context and the totals around a builder's terms. */
function finish(ctx: Pick<Ctx, 's' | 'guessed'>, built: Built, weightTensors: TensorGroup[], weightRest: number, total: number, active: number, notes: Message[]): Omit<EstimateDetail, 'ctx'> {
  const terms: Term[] = [...built.terms];
  let reserve = built.engineReserveBytes ?? 0;
  if (built.torchAllocator && built.engineReserveBytes === undefined) {
    reserve = segmentWaste([...weightTensors, ...built.live]);
    // a sum over every live tensor group (runtime.ts segmentWaste): shown as its total
    terms.push(
      term(
        ctx,
        'allocator-reserve',
        sym('segment_waste', reserve),
        {
          values: { rule: 'Σ live tensors: segment(size) − size (2 MiB / 20 MiB / 2 MiB-rounded segments)', tensors: built.live.length },
          source: 'allocator.md §1 (CUDACachingAllocator get_allocation_size); fragmentation across phases not modelled',
          confidence: 'heuristic',
        },
        'reserved',
        false,
      ),
    );
  }
  terms.push(
    term(
      ctx,
      'cuda-context',
      mul(CUDA_CONTEXT_BYTES / MiB, sym('MiB', MiB)),
      {
        values: { what: 'CUDA context + kernels (lazy loading)' },
        source: 'PyTorch PR #86509 (287 MB lazy … 667 MB eager); formulas.md §3.3 default 500 MiB',
        confidence: 'heuristic',
      },
      'device',
      false,
    ),
  );
  const allocatedBytes = finite(built.allocatedBytes);
  const reservedBytes = finite(allocatedBytes + reserve);
  const deviceBytes = finite(reservedBytes + CUDA_CONTEXT_BYTES + (built.outsideAllocatorBytes ?? 0));
  const value: Estimate = { params: { total, trainable: built.trainable, active }, terms, allocatedBytes, reservedBytes, deviceBytes, notes };
  if (built.engine) value.engine = built.engine;
  if (built.perGpu) value.perGpu = built.perGpu.map((b) => finite(b));
  return { estimate: value, built, weightTensors, weightRest };
}

function unknownGpu(s: Scenario): Result<never> {
  return { ok: false, errors: [{ key: 'gpu', code: 'unknown-gpu', message: `Unknown GPU '${s.gpu.slice(0, 40)}': pick a catalogue id or a capacity such as 24GiB` }] };
}

/** Inference of a vision-language model with images: one image's grid (model/vision-tokens.ts); null otherwise. */
function imageInput(s: Scenario, arch: ModelArch): Ctx['images'] | null {
  if (s.mode !== 'inference' || !arch.vision || s.images === 0) return null;
  return { grid: imageGrid(arch.vision, s.resolution), perSeq: s.images, textPrompt: s.prompt };
}

/** What the images add to the prompt; on vLLM and llama.cpp, that the tower's forward is not modelled. */
function imageNotes(s: Scenario, images: NonNullable<Ctx['images']>): Message[] {
  const t = images.grid.tokens;
  const prompt = s.prompt + s.images * t;
  const note: Message = {
    code: 'inference.image-tokens',
    params: { images: s.images, tokens: t, text: s.prompt, prompt },
    text: `Each image becomes ${t} prompt tokens: the KV cache, the prefill and the logits see ${prompt} prompt tokens (${s.prompt} text + ${s.images} × ${t} image).`,
  };
  return s.engine === 'transformers' ? [note] : [note, VISION_ENGINE_NOTE];
}

/** vLLM and llama.cpp run the vision tower too; its forward is modelled for transformers only. */
const VISION_ENGINE_NOTE: Message = {
  code: 'inference.vision-engine',
  text: "The image tokens are in the prompt and the vision tower's weights are counted; the tower's own forward activations are modelled for the transformers engine only.",
};

/** Training a hybrid: the saved activations of its mixer layers have no model of their own yet. */
const HYBRID_TRAINING_NOTE: Message = {
  code: 'training.hybrid-activations',
  text: 'The saved activations of the Mamba / linear-attention layers are not modelled on their own: each such layer is counted as a transformer layer of the same width.',
};

/** Training a Baichuan model: its own file checkpoints every layer (model/remote-families.ts `ownFileCheckpoints`). */
const OWN_CHECKPOINTING_NOTE: Message = {
  code: 'training.own-checkpointing',
  text: "This model's own modeling code checkpoints every layer in training (its config keeps gradient_checkpointing as a tuple, which is always true): estimated with grad-ckpt=full.",
};

/** SDPA falls back to its math kernel (core/sdpa.ts `sdpaRunsMath`), which materialises the scores. */
const SDPA_MATH_NOTE: Message = {
  code: 'model.sdpa-math',
  text: 'SDPA gets one K/V head here, so PyTorch runs its math kernel: fp32 attention scores (in training, in every layer). attn=flash avoids them.',
};

/** A model whose modeling file offers no attention of the kind asked for (model/remote-families.ts `ownFileAttn`). */
function ownAttentionNote(runs: Attn, attn: Attn): Message {
  return {
    code: 'model.own-attn',
    params: { runs, attn },
    text: `This model's modeling code has no ${attn} attention: it runs ${runs} attention, and the estimate follows it.`,
  };
}

/** A total as whole bytes (a fractional share rounds up); never NaN, Infinity or negative. */
function finite(n: number): number {
  return Number.isFinite(n) && n > 0 ? Math.ceil(n) : 0;
}
