/**
 * Cross-key rules: combinations that no runtime can run become 'incompatible' errors naming
 * both keys (the offending value falls back); combinations that run but surprise become warnings.
 * Each rule cites the runtime behaviour it encodes.
 */
import type { FieldError, ModelArch, Scenario, WeightFormat } from '../types';
import { findPreset } from '../model/presets';
import { plainRefusal } from '../formats/plain';
import { kbitPrepApplies } from '../training/kbit-prep';
import { ADAPTER_QUANTIZED } from '../training/quant-base';
import { DEFAULT_SCENARIO, KV_BY_ENGINE, SCENARIO_FIELDS } from './schema';

type Emit = (key: string, other: string, message: string) => void;

const gpusKind = SCENARIO_FIELDS.find((f) => f.prop === 'gpus')!.kind;
/** Largest GPU count the schema allows (tp · pp beyond it cannot be satisfied). */
const MAX_GPUS = gpusKind.type === 'int' ? gpusKind.max : 1;

const isGguf = (w: WeightFormat) => w.startsWith('gguf-');
/** Plain float formats PyTorch can train and llama.cpp can load as GGUF f32/f16/bf16. */
const DENSE: readonly WeightFormat[] = ['fp32', 'fp16', 'bf16'];


/** The model architecture the scenario will use (preset merged with overrides), if known. */
export function effectiveArch(s: Scenario): Partial<ModelArch> | null {
  if (s.model === '') return null;
  const base = s.model === 'custom' ? undefined : findPreset(s.model)?.arch;
  return base || s.arch ? { ...base, ...s.arch } : null;
}

/**
 * Apply every cross-key rule to `s` in place: 'incompatible' errors (the offending key falls
 * back) and warnings. `given` holds the external keys the user set (some rules only fire for them).
 */
export function applyRules(s: Scenario, given: Set<string>, errors: FieldError[], warnings: FieldError[]): void {
  const bad: Emit = (key, other, message) => errors.push({ key, code: 'incompatible', message, params: { with: other } });
  const warn = (key: string, code: string, message: string, params: Record<string, string | number>) =>
    warnings.push({ key, code, message, params });
  const training = s.mode === 'training';

  // fp64 and plain int8 / int4 are not trained (formats/plain.ts)
  const untrainable = training ? plainRefusal(s.weights, 'training') : null;
  if (untrainable) {
    bad('weights', 'mode', untrainable);
    s.weights = s.method === 'qlora' ? 'nf4' : DEFAULT_SCENARIO.weights;
  }
  // QLoRA = LoRA adapters over a quantized frozen base (Dettmers et al. 2023 with bitsandbytes
  // nf4/fp4; PEFT trains the same way over LLM.int8, GPTQ and AWQ Linears: training/quant-base.ts).
  // A float base is plain LoRA; GGUF is llama.cpp's; fp8 weight-only Linears have no backward here.
  if (training && s.method === 'qlora' && !ADAPTER_QUANTIZED.includes(s.weights)) {
    bad('weights', 'method', `method=qlora trains LoRA adapters over a quantized base (${ADAPTER_QUANTIZED.join(', ')}), not ${s.weights}${DENSE.includes(s.weights) ? '; for a float base use method=lora' : ''}`);
    s.weights = 'nf4';
  }
  // Full fine-tuning updates every base weight: fp32/fp16/bf16 only (PEFT adapts quantized bases, full FT cannot).
  if (training && s.method === 'full' && !DENSE.includes(s.weights)) {
    bad('weights', 'method', `method=full trains every weight, which cannot be stored as ${s.weights}; use fp32, fp16, bf16 or lora/qlora`);
    s.weights = DEFAULT_SCENARIO.weights;
  }
  // GGUF is a llama.cpp inference format; PyTorch cannot train on it.
  if (training && (s.method === 'lora' || s.method === 'freeze') && isGguf(s.weights)) {
    bad('weights', 'method', `method=${s.method} cannot train on ${s.weights} (GGUF is a llama.cpp inference format)`);
    s.weights = DEFAULT_SCENARIO.weights;
  }
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
  // prepare_model_for_kbit_training upcasts bitsandbytes and AWQ bases only (peft utils/other.py skips GPTQ)
  if (given.has('kbit-prep') && !(training && kbitPrepApplies(s))) {
    warn('kbit-prep', 'unused-key', `kbit-prep changes LoRA / QLoRA training over nf4, fp4, bnb-int8 or awq-int4 weights, not ${training ? `method=${s.method} with weights=${s.weights}` : `mode=${s.mode}`}`, { with: training ? 'weights' : 'mode' });
  }
  // Training runs in PyTorch (transformers / PEFT / DeepSpeed); the serving engine is not used.
  if (training && s.engine !== 'transformers' && given.has('engine')) {
    warn('engine', 'unused-key', `engine=${s.engine} serves models; training is estimated for transformers`, { with: 'mode' });
  }
  // Gradients exist only in training; the keys are kept but change nothing at inference.
  if (!training) {
    for (const k of ['grad-accum', 'grad-zero', 'optim-impl', 'compile', 'optim-step', 'act-offload', 'loss-chunks', 'mfu', 'lengths', 'len-mean', 'len-spread']) {
      if (given.has(k)) warn(k, 'unused-key', `${k} applies to training, not mode=${s.mode}`, { with: 'mode' });
    }
  }
  // the length distribution only shapes a varied-length replay
  if (training && s.lengths === 'fixed') {
    for (const k of ['len-mean', 'len-spread']) {
      if (given.has(k)) warn(k, 'unused-key', `${k} applies to lengths=varied; with fixed lengths every sample is seq tokens`, { with: 'lengths' });
    }
  }
  deepspeedRules(s, given, bad, warn);
  if (given.has('logits-path')) logitsPathRule(s, warn);
  if (training) trainingRules(s, bad);
  else inferenceRules(s, bad);
  parallelRules(s, given, bad);
  layerSplitRules(s, given, bad, warn);
  contextRule(s, warn);
}

/** DeepSpeed bucket keys and the keys each needs (zero/config.py: the stage3_* keys act in ZeRO-3 only). */
const DS_KEYS: readonly { key: string; minStage: 1 | 3 }[] = [
  { key: 'ds-reduce-bucket', minStage: 1 }, { key: 'ds-overlap-comm', minStage: 1 },
  { key: 'ds-prefetch-bucket', minStage: 3 }, { key: 'ds-persist-threshold', minStage: 3 },
  { key: 'ds-max-live', minStage: 3 }, { key: 'ds-reuse-distance', minStage: 3 },
];

function deepspeedRules(s: Scenario, given: Set<string>, bad: Emit, warn: (key: string, code: string, message: string, params: Record<string, string | number>) => void): void {
  const training = s.mode === 'training';
  // PyTorch FSDP shards gradients + states (SHARD_GRAD_OP) or everything (FULL_SHARD): no ZeRO-1 form
  if (training && s.zeroImpl === 'fsdp' && s.zero === 1) {
    bad('zero-impl', 'zero', 'zero-impl=fsdp has no ZeRO-1 form (FSDP ShardingStrategy: SHARD_GRAD_OP = ZeRO-2, FULL_SHARD = ZeRO-3); use zero 2 or 3, or zero-impl=deepspeed');
    s.zeroImpl = 'deepspeed';
  }
  if (given.has('zero-impl') && (!training || s.zero === 0)) {
    warn('zero-impl', 'unused-key', 'zero-impl applies to training with zero 1, 2 or 3', { with: training ? 'zero' : 'mode' });
  }
  for (const { key, minStage } of DS_KEYS) {
    if (!given.has(key)) continue;
    if (!training) warn(key, 'unused-key', `${key} applies to training, not mode=${s.mode}`, { with: 'mode' });
    else if (s.zeroImpl !== 'deepspeed') warn(key, 'unused-key', `${key} is a DeepSpeed setting; zero-impl=${s.zeroImpl} does not use it`, { with: 'zero-impl' });
    else if (s.zero < minStage) warn(key, 'unused-key', minStage === 3 ? `${key} acts in ZeRO-3 only, not zero=${s.zero}` : `${key} needs zero 1, 2 or 3`, { with: 'zero' });
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
    if (s.lossChunks > 1) warn('logits-path', 'unused-key', `logits-path=${p} is not used with loss-chunks=${s.lossChunks}: the chunked loss is torchtune's CEWithChunkedOutputLoss`, { with: 'loss-chunks' });
  } else if (s.engine !== 'transformers') {
    warn('logits-path', 'unused-key', `logits-path applies to the transformers engine, not engine=${s.engine}`, { with: 'engine' });
  } else if (p === 'torchtune') {
    warn('logits-path', 'unused-key', 'logits-path=torchtune applies to training; transformers generate is estimated with the current path', { with: 'mode' });
  }
}

function trainingRules(s: Scenario, bad: Emit): void {
  // DeepSpeed: offload_optimizer needs ZeRO ≥ 1, offload_param needs ZeRO-3.
  if (s.offload === 'optimizer' && s.zero < 1) {
    bad('offload', 'zero', 'offload=optimizer needs zero 1, 2 or 3 (DeepSpeed ZeRO-Offload)');
    s.offload = 'none';
  }
  if (s.offload === 'params' && s.zero !== 3) {
    bad('offload', 'zero', 'offload=params needs zero=3 (DeepSpeed ZeRO-Infinity)');
    s.offload = 'none';
  }
  optimStepRules(s, bad);
  // FlashAttention kernels take fp16/bf16 only (Dao-AILab/flash-attention README).
  if (s.attn === 'flash' && s.precision === 'fp32') {
    bad('attn', 'precision', 'attn=flash needs fp16 or bf16 activations, not precision=fp32');
    s.attn = 'sdpa';
  }
}

/**
 * Optimizer step fused into backward (torchtune `optimizer_in_bwd`: one optimizer per parameter,
 * stepped by `register_post_accumulate_grad_hook`, then the gradient is set to None).
 */
function optimStepRules(s: Scenario, bad: Emit): void {
  if (s.optimStep !== 'in-backward') return;
  // torchtune full_finetune_single_device raises "Requires gradient_accumulation_steps=1": the hook
  // steps on the first micro-batch's gradient and frees it, so nothing is left to accumulate into.
  if (s.gradAccum > 1) {
    bad('optim-step', 'grad-accum', 'optim-step=in-backward steps each parameter as soon as its gradient exists, so gradients cannot accumulate over micro-batches: needs grad-accum=1');
    s.optimStep = 'after-backward';
    return;
  }
  // A pipeline accumulates gradients over its micro-batches until the flush (1F1B): same conflict.
  if (s.pp > 1) {
    bad('optim-step', 'pp', 'optim-step=in-backward cannot run with pipeline parallelism: a pipeline accumulates gradients over its micro-batches before the step');
    s.optimStep = 'after-backward';
    return;
  }
  // DeepSpeed ZeRO-1/2 keep the optimizer partition in flat fp32 buffers and step it after the
  // gradient reduce, with no per-parameter hook. Full sharding (zero=3) is allowed: torchtune's FSDP2
  // recipe accepts optimizer_in_bwd from 1814feb1 (Nov 2024), stepping each local shard in its hook.
  if (s.zero === 1 || s.zero === 2) {
    bad('optim-step', 'zero', `optim-step=in-backward needs zero 0 or 3: ZeRO-${s.zero} steps its flat optimizer partition after the gradient reduce, not per parameter inside backward`);
    s.optimStep = 'after-backward';
  }
}

function inferenceRules(s: Scenario, bad: Emit): void {
  // fp64 and plain int8 / int4 load in transformers only (formats/plain.ts)
  const plain = s.engine === 'transformers' ? null : plainRefusal(s.weights, s.engine);
  if (plain) {
    bad('weights', 'engine', plain);
    s.weights = DEFAULT_SCENARIO.weights;
  }
  // llama.cpp loads GGUF files: f32/f16/bf16 or its own block types, not bnb/GPTQ/AWQ/fp8.
  if (s.engine === 'llama.cpp' && !DENSE.includes(s.weights) && !isGguf(s.weights)) {
    bad('weights', 'engine', `engine=llama.cpp runs GGUF weights (or f32/f16/bf16), not ${s.weights}`);
    s.weights = DEFAULT_SCENARIO.weights;
  }
  // GGUF block types are estimated as llama.cpp runs them (transformers would dequantize on load).
  if (s.engine !== 'llama.cpp' && isGguf(s.weights)) {
    bad('weights', 'engine', `${s.weights} weights run in llama.cpp; choose engine=llama.cpp`);
    s.weights = DEFAULT_SCENARIO.weights;
  }
  if (!KV_BY_ENGINE[s.engine].includes(s.kv)) {
    bad('kv', 'engine', `engine=${s.engine} cannot store a ${s.kv} KV cache (allowed: ${KV_BY_ENGINE[s.engine].join(', ')})`);
    s.kv = DEFAULT_SCENARIO.kv;
  }
  if (s.engine === 'transformers' && s.attn === 'flash' && (s.weights === 'fp32' || s.weights === 'fp64')) {
    bad('attn', 'weights', `attn=flash needs fp16 or bf16 activations, not ${s.weights} weights`);
    s.attn = 'sdpa';
  }
}

function parallelRules(s: Scenario, given: Set<string>, bad: Emit): void {
  const mp = s.tp * s.pp;
  // Megatron / DeepSpeed: world size = dp · tp · pp, so tp·pp must divide the GPU count.
  if (!given.has('gpus') && mp <= MAX_GPUS) s.gpus = Math.max(s.gpus, mp);
  if (s.gpus % mp !== 0) {
    bad(given.has('tp') ? 'tp' : 'pp', 'gpus', `tp·pp = ${mp} must divide gpus = ${s.gpus}`);
    s.tp = 1;
    s.pp = 1;
  }
  const a = effectiveArch(s);
  // vLLM / Megatron split attention heads across tp ranks: heads must be divisible by tp.
  if (a?.heads && a.heads % s.tp !== 0) {
    bad('tp', 'heads', `tp = ${s.tp} must divide the model's ${a.heads} attention heads`);
    s.tp = 1;
  }
  if (a?.layers && s.pp > a.layers) {
    bad('pp', 'layers', `pp = ${s.pp} exceeds the model's ${a.layers} layers`);
    s.pp = 1;
  }
}

/**
 * split=layers: one process holding the whole model spread over its GPUs by transformers
 * device_map="auto" (accelerate infer_auto_device_map). No tp/pp grid, only transformers loads
 * models that way; training it is one process (no ZeRO / FSDP, training/layer-split.ts).
 */
function layerSplitRules(s: Scenario, given: Set<string>, bad: Emit, warn: (k: string, c: string, m: string, p: Record<string, string | number>) => void): void {
  if (s.split !== 'layers') return;
  const reject = (other: string, message: string) => {
    bad('split', other, message);
    s.split = 'none';
  };
  if (s.tp > 1 || s.pp > 1) return reject(s.tp > 1 ? 'tp' : 'pp', `split=layers (device_map="auto") runs one process over all GPUs: it needs tp = 1 and pp = 1, not tp = ${s.tp}, pp = ${s.pp}`);
  // accelerate.py prepare_model: a device_map="auto" model cannot train in any distributed mode
  if (s.mode === 'training' && s.zero > 0) return reject('zero', `split=layers trains a device_map="auto" model in one process, which accelerate refuses for DeepSpeed / FSDP: set zero = 0, not ${s.zero}`);
  if (s.mode === 'inference' && s.engine !== 'transformers') return reject('engine', `split=layers is transformers' device_map="auto"; engine=${s.engine} spreads a model with its own options (vLLM tensor/pipeline parallel, llama.cpp --split-mode)`);
  const layers = effectiveArch(s)?.layers;
  if (layers && s.gpus > layers) return reject('gpus', `split=layers puts whole layers on each GPU: gpus = ${s.gpus} exceeds the model's ${layers} layers`);
  if (s.gpus === 1 && given.has('split')) warn('split', 'unused-key', 'split=layers spreads the model over several GPUs; with gpus = 1 it changes nothing', { with: 'gpus' });
}

/** Beyond max_position_embeddings the model was not trained: allowed, but flagged. */
function contextRule(s: Scenario, warn: (k: string, c: string, m: string, p: Record<string, string | number>) => void): void {
  const max = effectiveArch(s)?.maxContext;
  if (!max) return;
  const tokens = s.mode === 'training' ? s.seq : s.prompt + s.gen;
  if (tokens > max) {
    const key = s.mode === 'training' ? 'seq' : 'prompt';
    warn(key, 'exceeds-context', `${tokens} tokens exceed the model's context of ${max}`, { tokens, max });
  }
}
