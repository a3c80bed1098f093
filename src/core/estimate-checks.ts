/**
 * Scenario checks before estimating: ranges from the shared schema (scenario/schema.ts) and
 * combinations no runtime supports. Each problem is a FieldError on the key to fix.
 */
import { KV_BY_ENGINE, SCENARIO_FIELDS } from './scenario/schema';
import { plainRefusal } from './formats/plain';
import { ADAPTER_QUANTIZED } from './training/quant-base';
import type { FieldError, ModelArch, Scenario, WeightFormat } from './types';

const err = (key: string, code: string, message: string, params?: Record<string, number | string>): FieldError =>
  params ? { key, code, message, params } : { key, code, message };

/** Plain 16/32-bit formats a PyTorch model can be trained in. */
const DENSE: readonly WeightFormat[] = ['fp32', 'fp16', 'bf16'];
const isGguf = (w: WeightFormat) => w.startsWith('gguf-');

/** Ranges and enum values of every scalar key (NaN, Infinity and out-of-range numbers included). */
export function checkRanges(s: Scenario): FieldError[] {
  const out: FieldError[] = [];
  for (const f of SCENARIO_FIELDS) {
    const v = s[f.prop] as unknown;
    const k = f.kind;
    if (k.type === 'int' || k.type === 'float') {
      if (v === null && k.type === 'int' && k.nullToken !== undefined) continue;
      const ok = typeof v === 'number' && Number.isFinite(v) && v >= k.min && v <= k.max && (k.type === 'float' || Number.isInteger(v));
      if (!ok) out.push(err(f.prop, 'out-of-range', `${f.name}: expected ${k.type === 'int' ? 'a whole number' : 'a number'} from ${k.min} to ${k.max}`, { min: k.min, max: k.max }));
    } else if (k.type === 'enum') {
      if (!k.values.includes(String(v))) out.push(err(f.prop, 'invalid-value', `${f.name}: expected one of ${k.values.join(', ')}`));
    }
  }
  if (!Array.isArray(s.loraTargets)) out.push(err('loraTargets', 'invalid-value', 'lora-targets: expected a list'));
  if (s.params !== null && !(typeof s.params === 'number' && Number.isFinite(s.params) && s.params >= 1 && s.params <= 1e15)) {
    out.push(err('params', 'out-of-range', 'params: expected a parameter count from 1 to 1e15'));
  }
  return out;
}

/** Combinations that no runtime accepts. Run after checkRanges passed. */
export function checkCombinations(s: Scenario): FieldError[] {
  const out: FieldError[] = [];
  const grid = s.tp * s.pp;
  if (s.gpus % grid !== 0) out.push(err('gpus', 'grid-mismatch', `${s.gpus} GPUs cannot be split into groups of tensor parallel ${s.tp} × pipeline parallel ${s.pp} = ${grid}: use a multiple of ${grid} GPUs`, { gpus: s.gpus, tp: s.tp, pp: s.pp, grid }));
  // split=layers is one process spreading one model (scenario/rules.ts layerSplitRules)
  if (s.split === 'layers') {
    if (grid > 1) out.push(err('split', 'split-grid', 'Layer split (device_map="auto") runs one process over all GPUs: set tp = 1 and pp = 1'));
    if (s.mode === 'training' && s.zero > 0) out.push(err('split', 'split-zero', 'A device_map="auto" model trains in one process: accelerate refuses it for DeepSpeed / FSDP; set ZeRO to 0'));
    if (s.mode === 'inference' && s.engine !== 'transformers') out.push(err('split', 'split-engine', 'Layer split is transformers\' device_map="auto": choose the transformers engine'));
  }
  const plain = s.mode === 'training' ? plainRefusal(s.weights, 'training') : s.engine === 'transformers' ? null : plainRefusal(s.weights, s.engine);
  if (plain) out.push(err('weights', s.mode === 'training' ? 'plain-not-trainable' : 'plain-engine', plain, { weights: s.weights, engine: s.engine }));
  if (s.mode === 'training') {
    if (!plain && s.method === 'qlora' && !ADAPTER_QUANTIZED.includes(s.weights)) {
      out.push(err('weights', 'qlora-needs-quantized', `QLoRA trains adapters over a quantized base: choose ${ADAPTER_QUANTIZED.join(', ')} weights (a float base is method lora)`));
    }
    if (!plain && s.method === 'full' && !DENSE.includes(s.weights)) {
      out.push(err('weights', 'full-needs-dense', 'Full fine-tuning updates every weight: quantized storage cannot be trained; choose fp32, fp16 or bf16'));
    }
    if ((s.method === 'lora' || s.method === 'freeze') && isGguf(s.weights)) {
      out.push(err('weights', 'gguf-not-trainable', 'GGUF files are for llama.cpp inference; PyTorch training cannot use them'));
    }
    if (s.offload === 'optimizer' && s.zero === 0) out.push(err('offload', 'offload-needs-zero', 'Optimizer offload is ZeRO-Offload: set ZeRO stage 1, 2 or 3'));
    if (s.offload === 'params' && s.zero !== 3) out.push(err('offload', 'offload-params-needs-zero3', 'Parameter offload needs ZeRO stage 3'));
    if (s.optimStep === 'in-backward') {
      // see scenario/rules.ts optimStepRules for the runtime behaviour behind each
      if (s.gradAccum > 1) out.push(err('optimStep', 'optim-in-bwd-accum', 'Optimizer step in backward frees each gradient after its step: gradient accumulation must be 1'));
      if (s.pp > 1) out.push(err('optimStep', 'optim-in-bwd-pp', 'Optimizer step in backward cannot run with pipeline parallelism (gradients accumulate over micro-batches)'));
      if (s.zero === 1 || s.zero === 2) out.push(err('optimStep', 'optim-in-bwd-zero', 'Optimizer step in backward needs ZeRO 0 or 3: ZeRO-1/2 step their flat optimizer partition after the reduce'));
    }
    if ((s.precision === 'fp32') && s.attn === 'flash') out.push(err('attn', 'flash-needs-16bit', 'FlashAttention runs in fp16/bf16 only; use sdpa or eager with fp32'));
    return out;
  }
  if (s.engine === 'llama.cpp') {
    if (!plain && !isGguf(s.weights) && !DENSE.includes(s.weights)) out.push(err('weights', 'llamacpp-format', 'llama.cpp loads GGUF files (or f32/f16/bf16 GGUF): choose a gguf-* format'));
  } else {
    if (isGguf(s.weights)) out.push(err('weights', 'gguf-needs-llamacpp', `${s.engine} does not run GGUF quantized weights: choose the llama.cpp engine`));
  }
  const kvAllowed = KV_BY_ENGINE[s.engine];
  if (!kvAllowed.includes(s.kv)) out.push(err('kv', 'kv-engine', `${s.engine} cannot store a ${s.kv} KV cache (allowed: ${kvAllowed.join(', ')})`, { engine: s.engine, kv: s.kv, allowed: kvAllowed.join(', ') }));
  if ((s.weights === 'fp32' || s.weights === 'fp64') && s.attn === 'flash' && s.engine === 'transformers') out.push(err('attn', 'flash-needs-16bit', `FlashAttention runs in fp16/bf16 only; use sdpa or eager with ${s.weights} weights`));
  return out;
}

/** Shape checks once the architecture is known. */
export function checkArch(s: Scenario, arch: ModelArch): FieldError[] {
  const out: FieldError[] = [];
  const dims: (keyof ModelArch)[] = ['hidden', 'layers', 'heads', 'kvHeads', 'headDim', 'ffn', 'vocab'];
  for (const k of dims) {
    const v = arch[k];
    if (!(typeof v === 'number' && Number.isFinite(v) && v >= 1 && v <= 2 ** 30)) out.push(err('arch', 'arch-dim', `arch.${k}: expected a positive whole number`, { field: k }));
  }
  if (out.length > 0) return out;
  const bad = badNumber(arch, 'arch');
  if (bad) return [err('arch', 'arch-number', `${bad}: expected a finite, non-negative number`, { field: bad })];
  if (arch.kvHeads > arch.heads) out.push(err('arch', 'arch-kv-heads', 'arch.kvHeads cannot exceed arch.heads'));
  if (s.tp > 1 && arch.heads % s.tp !== 0) out.push(err('tp', 'tp-heads', `tp (${s.tp}) must divide the ${arch.heads} attention heads`, { heads: arch.heads }));
  if (s.pp > arch.layers) out.push(err('pp', 'pp-layers', `pp (${s.pp}) exceeds the ${arch.layers} layers`, { layers: arch.layers }));
  const h = arch.hybrid;
  if (h) {
    // the layer pattern (hybrid-config.ts) fixes which layer is which: a bare layer count cannot change it
    const pattern = h.blocks.reduce((n, b) => n + b.count, 0);
    if (pattern !== arch.layers) out.push(err('layers', 'hybrid-layers', `layers (${arch.layers}) cannot differ from the ${pattern} layers of this hybrid model's layer pattern`, { layers: pattern }));
    if (s.mode === 'inference' && s.engine === 'llama.cpp') {
      out.push(err('engine', 'llamacpp-hybrid', `llama.cpp's recurrent-state cache (llama-memory-recurrent) for ${arch.family} is not modelled yet: choose the transformers or vLLM engine`, { family: arch.family }));
    }
  }
  return out;
}

/** Path of the first nested number (MoE, MLA, sliding window, …) that is NaN, infinite or negative. */
function badNumber(v: unknown, path: string): string | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 && v <= 2 ** 40 ? null : path;
  if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      const b = badNumber(x, `${path}.${k}`);
      if (b) return b;
    }
  }
  return null;
}
