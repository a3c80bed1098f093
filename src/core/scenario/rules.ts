/**
 * Cross-key rules: combinations that no runtime can run become 'incompatible' errors naming
 * both keys (the offending value falls back); combinations that run but surprise become warnings.
 * Each rule cites the runtime behaviour it encodes.
 */
import type { FieldError, ModelArch, Scenario } from '../types';
import { findPreset } from '../model/presets';
import { kbitPrepApplies } from '../training/kbit-prep';
import { doubleQuantApplies, groupSizeApplies } from '../formats/weights';
import { isQuantizedCacheKv } from '../inference/quantized-cache';
import { guessArch } from '../model/quick';
import { imageGrid } from '../model/vision-tokens';
import { CONFLICTS, otherKey, type ConflictRule, type RuleArch } from './conflicts';
import { modelKindWords, modelReads } from './model-kind';
import { DIFFUSION_KEYS, IMAGE_ONLY_KEYS } from '../diffusion/keys';
import { isDiffusionModel } from '../diffusion/presets';
import { DEFAULT_SCENARIO, SCENARIO_FIELDS } from './schema';

type Emit = (key: string, other: string, message: string) => void;
/** External (URL / CLI) name of a Scenario key; architecture fields ('heads', 'layers') as written. */
const NAME = new Map<string, string>(SCENARIO_FIELDS.map((f) => [f.prop, f.name]));
const external = (k: string) => NAME.get(k) ?? k;

const gpusKind = SCENARIO_FIELDS.find((f) => f.prop === 'gpus')!.kind;
/** Largest GPU count the schema allows (tp · pp beyond it cannot be satisfied). */
const MAX_GPUS = gpusKind.type === 'int' ? gpusKind.max : 1;

/** The model architecture the scenario will use (preset merged with overrides), if known. */
export function effectiveArch(s: Scenario): Partial<ModelArch> | null {
  if (s.model === '') return null;
  const base = s.model === 'custom' ? undefined : findPreset(s.model)?.arch;
  return base || s.arch ? { ...base, ...s.arch } : null;
}

/** The shape the combination rules check: the known architecture, else the guess behind a bare count. */
export function ruleArch(s: Scenario): RuleArch {
  return effectiveArch(s) ?? (s.model === '' && s.params !== null ? { ...guessArch(s.params), guessed: true } : null);
}

/**
 * Apply every cross-key rule to `s` in place: 'incompatible' errors (the offending key falls
 * back) and warnings. `given` holds the external keys the user set (some rules only fire for them).
 */
export function applyRules(s: Scenario, given: Set<string>, errors: FieldError[], warnings: FieldError[]): void {
  const bad: Emit = (key, other, message) => errors.push({ key, code: 'incompatible', message, params: { with: other } });
  const warn = (key: string, code: string, message: string, params: Record<string, string | number>) => warnings.push({ key, code, message, params });
  const training = s.mode === 'training';

  if (s.method === 'full' || s.method === 'freeze') {
    for (const k of ['lora-rank', 'lora-targets', 'lora-dropout', 'adapter-dtype', 'lora-save']) {
      if (given.has(k)) bad(k, 'method', `${k} applies to method lora or qlora, not ${s.method}`);
    }
    if (given.has('lora-rank')) s.loraRank = DEFAULT_SCENARIO.loraRank;
    if (given.has('lora-targets')) s.loraTargets = [...DEFAULT_SCENARIO.loraTargets];
    if (given.has('lora-dropout')) s.loraDropout = DEFAULT_SCENARIO.loraDropout;
    if (given.has('adapter-dtype')) s.adapterDtype = DEFAULT_SCENARIO.adapterDtype;
    if (given.has('lora-save')) s.loraSave = DEFAULT_SCENARIO.loraSave;
  }
  // AMP and fp32 recipes hold fp32 parameters, adapters included (optimizer.ts adapterStateBytes)
  if (training && given.has('adapter-dtype') && s.precision !== 'bf16' && s.precision !== 'fp16' && (s.method === 'lora' || s.method === 'qlora')) {
    warn('adapter-dtype', 'unused-key', `adapter-dtype applies to pure bf16 / fp16 training; under precision=${s.precision} the adapters are fp32 parameters`, { with: 'precision' });
  }
  // autocast is a choice only when the weights are 16-bit: AMP always runs under it, fp32 never
  if (training && given.has('autocast') && s.precision !== 'bf16' && s.precision !== 'fp16') {
    warn('autocast', 'unused-key', `autocast applies to precision bf16 / fp16; precision=${s.precision} ${s.precision === 'fp32' ? 'runs without autocast' : 'always runs under autocast'}`, {
      with: 'precision',
    });
  }
  // prepare_model_for_kbit_training upcasts bitsandbytes and AWQ bases only (peft utils/other.py skips GPTQ)
  if (given.has('kbit-prep') && !(training && kbitPrepApplies(s))) {
    warn(
      'kbit-prep',
      'unused-key',
      `kbit-prep changes LoRA / QLoRA training over nf4, fp4, bnb-int8 or awq-int4 weights, not ${training ? `method=${s.method} with weights=${s.weights}` : `mode=${s.mode}`}`,
      { with: training ? 'weights' : 'mode' },
    );
  }
  // quantization settings of one family of formats (formats/weights.ts weightOptions)
  if (given.has('bnb-version') && training && !doubleQuantApplies(s.weights) && s.weights !== 'bnb-int8') {
    warn('bnb-version', 'unused-key', `bnb-version changes training over bitsandbytes weights (nf4, fp4, bnb-int8), not weights=${s.weights}`, { with: 'weights' });
  }
  if (given.has('double-quant') && !doubleQuantApplies(s.weights)) {
    warn('double-quant', 'unused-key', `double-quant applies to bitsandbytes 4-bit weights (nf4, fp4), not weights=${s.weights}`, { with: 'weights' });
  }
  if (given.has('kv-residual') && s.mode === 'inference' && s.engine === 'transformers' && !isQuantizedCacheKv(s.kv)) {
    warn('kv-residual', 'unused-key', `kv-residual applies to transformers' quantized cache (kv int4 / int8), not kv=${s.kv}`, { with: 'kv' });
  }
  if (given.has('group-size') && !groupSizeApplies(s.weights)) {
    warn('group-size', 'unused-key', `group-size applies to GPTQ and AWQ weights (gptq-int4, gptq-int8, awq-int4), not weights=${s.weights}`, { with: 'weights' });
  }
  if (given.has('desc-act') && s.weights !== 'gptq-int4' && s.weights !== 'gptq-int8') {
    warn('desc-act', 'unused-key', `desc-act is a GPTQ setting (gptq-int4, gptq-int8), not weights=${s.weights}`, { with: 'weights' });
  }
  if (given.has('gptq-kernel') && s.mode === 'inference' && s.engine === 'transformers' && s.weights !== 'gptq-int4' && s.weights !== 'gptq-int8') {
    warn('gptq-kernel', 'unused-key', `gptq-kernel picks the kernel of GPTQ weights (gptq-int4, gptq-int8), not weights=${s.weights}`, { with: 'weights' });
  }
  // --tensor-split spreads llama.cpp's layers over several GPUs (inference/llamacpp-split.ts)
  if (given.has('tensor-split') && s.mode === 'inference' && s.engine === 'llama.cpp' && s.gpus === 1 && s.tensorSplit?.length === 1) {
    warn('tensor-split', 'unused-key', 'tensor-split spreads llama.cpp layers over several GPUs; with gpus = 1 it changes nothing', { with: 'gpus' });
  }
  if (given.has('tensor-split') && s.mode === 'inference' && s.engine !== 'llama.cpp') {
    warn('tensor-split', 'unused-key', `tensor-split is llama.cpp's; engine=${s.engine} does not read it`, { with: 'engine' });
  }
  // Training runs in PyTorch (transformers / PEFT / DeepSpeed); the serving engine is not used.
  if (training && s.engine !== 'transformers' && given.has('engine')) {
    warn('engine', 'unused-key', `engine=${s.engine} serves models; training is estimated for transformers`, { with: 'mode' });
  }
  // Keys one mode's estimate reads (the schema's `modes`: gradients, optimizer and precision exist
  // only in training) are kept, but change nothing in the other mode.
  for (const f of SCENARIO_FIELDS) {
    if (f.modes && !f.modes.includes(s.mode) && given.has(f.name)) warn(f.name, 'unused-key', `${f.name} applies to ${f.modes.join(' / ')}, not mode=${s.mode}`, { with: 'mode' });
  }
  // keys of a kind of model (schema `models`): gen and kv for models that generate, images for vision-language models
  const arch = ruleArch(s);
  for (const f of SCENARIO_FIELDS) {
    if (!f.models || !given.has(f.name) || (f.modes && !f.modes.includes(s.mode)) || modelReads(f.models, arch)) continue;
    warn(f.name, 'unused-for-model', `${f.name} does not apply to ${modelKindWords(f.models, arch)}`, { with: 'model' });
  }
  // CLIP / SigLIP processors resize every image to the tower's image_size (model/vision-tokens.ts)
  const size = arch?.vision && !arch.vision.merge ? arch.vision.imageSize : null;
  if (given.has('resolution') && s.mode === 'inference' && s.resolution !== null && size !== null && s.resolution !== size) {
    warn('resolution', 'fixed-resolution', `resolution changes nothing here: the model's processor resizes every image to ${size} px`, { size });
  }
  // the length distribution only shapes a varied-length replay
  if (training && s.lengths === 'fixed') {
    for (const k of ['len-mean', 'len-spread']) {
      if (given.has(k)) warn(k, 'unused-key', `${k} applies to lengths=varied; with fixed lengths every sample is seq tokens`, { with: 'lengths' });
    }
  }
  deepspeedRules(s, given, warn);
  imageKeyRules(s, given, warn);
  if (given.has('logits-path')) logitsPathRule(s, warn);
  // tp · pp named without gpus sets the GPU count (the form's withGridGpus does the same)
  const mp = s.tp * s.pp;
  if (!given.has('gpus') && mp <= MAX_GPUS) s.gpus = Math.max(s.gpus, mp);
  conflictRules(s, given, errors);
  if (s.split === 'layers' && s.gpus === 1 && given.has('split')) warn('split', 'unused-key', 'split=layers spreads the model over several GPUs; with gpus = 1 it changes nothing', { with: 'gpus' });
  contextRule(s, warn);
}

/** DeepSpeed bucket keys and the keys each needs (zero/config.py: the stage3_* keys act in ZeRO-3 only). */
const DS_KEYS: readonly { key: string; minStage: 1 | 3 }[] = [
  { key: 'ds-reduce-bucket', minStage: 1 },
  { key: 'ds-overlap-comm', minStage: 1 },
  { key: 'ds-prefetch-bucket', minStage: 3 },
  { key: 'ds-persist-threshold', minStage: 3 },
  { key: 'ds-max-live', minStage: 3 },
  { key: 'ds-reuse-distance', minStage: 3 },
];

function deepspeedRules(s: Scenario, given: Set<string>, warn: (key: string, code: string, message: string, params: Record<string, string | number>) => void): void {
  const training = s.mode === 'training';
  if (given.has('zero-impl') && (!training || s.zero === 0)) {
    warn('zero-impl', 'unused-key', 'zero-impl applies to training with zero 1, 2 or 3', { with: training ? 'zero' : 'mode' });
  }
  for (const { key, minStage } of DS_KEYS) {
    if (!given.has(key)) continue;
    if (!training) continue; // warned by its schema `modes`
    if (s.zeroImpl !== 'deepspeed') warn(key, 'unused-key', `${key} is a DeepSpeed setting; zero-impl=${s.zeroImpl} does not use it`, { with: 'zero-impl' });
    else if (s.zero < minStage) warn(key, 'unused-key', minStage === 3 ? `${key} acts in ZeRO-3 only, not zero=${s.zero}` : `${key} needs zero 1, 2 or 3`, { with: 'zero' });
  }
}

/**
 * An image-generation pipeline reads DIFFUSION_KEYS alone (core/diffusion/keys.ts); a language model
 * none of the image-only keys.
 */
function imageKeyRules(s: Scenario, given: Set<string>, warn: (key: string, code: string, message: string, params: Record<string, string | number>) => void): void {
  const image = isDiffusionModel(s.model);
  for (const f of SCENARIO_FIELDS) {
    if (!given.has(f.name) || (f.modes && !f.modes.includes(s.mode))) continue;
    if (image && !DIFFUSION_KEYS.includes(f.prop)) warn(f.name, 'unused-key', `${f.name} does not apply to ${s.model}, an image-generation pipeline`, { with: 'model' });
    if (!image && IMAGE_ONLY_KEYS.includes(f.prop)) warn(f.name, 'unused-key', `${f.name} applies to image-generation models (Stable Diffusion, SDXL, Flux)`, { with: 'model' });
  }
}

/**
 * logits-path names transformers' (or torchtune's unchunked) logits code: a chunked loss
 * (loss-chunks > 1, torchtune CEWithChunkedOutputLoss) replaces it, vLLM and llama.cpp compute
 * their own logits, and torchtune's decoder is estimated for training only.
 */
function logitsPathRule(s: Scenario, warn: (key: string, code: string, message: string, params: Record<string, string | number>) => void): void {
  const p = s.logitsPath;
  if (p === 'auto') return;
  if (s.mode === 'training') {
    if (s.lossChunks > 1)
      warn('logits-path', 'unused-key', `logits-path=${p} is not used with loss-chunks=${s.lossChunks}: the chunked loss is torchtune's CEWithChunkedOutputLoss`, { with: 'loss-chunks' });
  } else if (s.engine !== 'transformers') {
    warn('logits-path', 'unused-key', `logits-path applies to the transformers engine, not engine=${s.engine}`, { with: 'engine' });
  } else if (p === 'torchtune') {
    warn('logits-path', 'unused-key', 'logits-path=torchtune applies to training; transformers generate is estimated with the current path', { with: 'mode' });
  }
}

/** Keys the page's form takes as typed numbers or lists (and architecture fields): it never resets them. */
const TYPED = new Set<string>([...SCENARIO_FIELDS.filter((f) => f.kind.type === 'int' || f.kind.type === 'float' || f.kind.type === 'ratios').map((f) => f.prop), 'heads', 'layers']);

/**
 * A clash that involves a typed number (8 GPUs for tensor parallel 2 × pipeline parallel 3,
 * gradient accumulation beside an optimizer step in backward): the form lets it stand and the
 * estimator refuses it in words (estimate-checks.ts), so a link keeps it too and the page's own
 * link reopens as it was left. Clashes of choices alone fall back here, as the form's selects do.
 */
export function typedClash(r: ConflictRule, s: Scenario): boolean {
  return TYPED.has(r.key) || TYPED.has(otherKey(r, s));
}

/**
 * The combination table (conflicts.ts), rule by rule in its order: a broken rule is an
 * 'incompatible' error on its key naming the other, and the key falls back, so later rules see
 * the repaired scenario. Typed clashes (typedClash) are left to the estimator.
 */
function conflictRules(s: Scenario, given: Set<string>, errors: FieldError[]): void {
  // a fallback can break a rule checked earlier in the table (an encoder's engine falling back to
  // transformers leaves vLLM's fp8 KV cache behind), so the table runs again until nothing falls back
  for (let pass = 0; pass < CONFLICTS.length; pass++) {
    let fired = false;
    for (const r of CONFLICTS) {
      const arch = r.arch ? ruleArch(s) : null;
      if (r.arch && arch === null) continue;
      if (typedClash(r, s) || !r.when(s, arch)) continue;
      const key = r.alt && !given.has(external(r.key)) ? r.alt : r.key;
      errors.push({ key: external(key), code: 'incompatible', message: r.message(s, arch), params: { with: external(otherKey(r, s)) } });
      Object.assign(s, r.fallback(s));
      fired = true;
    }
    if (!fired) return;
  }
}

/** Beyond max_position_embeddings the model was not trained: allowed, but flagged. */
function contextRule(s: Scenario, warn: (k: string, c: string, m: string, p: Record<string, string | number>) => void): void {
  const arch = effectiveArch(s);
  const max = arch?.maxContext;
  if (!max) return;
  // an encoder reads its input only; a vision-language model's images are prompt tokens too
  const images = arch.vision && s.images > 0 ? s.images * imageGrid(arch.vision, s.resolution).tokens : 0;
  const tokens = s.mode === 'training' ? s.seq : s.prompt + images + (modelReads('generate', arch) ? s.gen : 0);
  if (tokens > max) {
    const key = s.mode === 'training' ? 'seq' : 'prompt';
    warn(key, 'exceeds-context', `${tokens} tokens exceed the model's context of ${max}`, { tokens, max });
  }
}
