/**
 * THE table of option combinations no runtime can run. Each rule names the key that gives way
 * (`key`, which falls back to `fallback`) and the key it clashes with (`with`), says when the
 * pair clashes, and carries a stable code (`id`) with its English sentence. Every consumer reads
 * this one table:
 * - the parser (rules.ts applyRules): an 'incompatible' error on `key` and the fallback value,
 *   except for a clash involving a typed number (rules.ts typedClash), which it keeps as the form does;
 * - the estimator (estimate-checks.ts): an error with code `id`, before any arithmetic;
 * - the form (ui/calculator/compat.ts): an option is disabled when choosing it breaks a rule,
 *   with the rule's reason in plain words (i18n `why.<id>`, English and Chinese);
 * - the CLI, through the parser.
 * A new rule is one row here (plus its `why.<id>` words); nothing else lists combinations.
 */
import type { ModelArch, Scenario, WeightFormat } from '../types';
import { plainRefusal } from '../formats/plain';
import { ENCODER_ONLY } from '../model/families';
import { ADAPTER_QUANTIZED } from '../formats/quantized';
import { DEFAULT_SCENARIO, KV_BY_ENGINE, LLAMA_MAX_DEVICES } from './schema';
import { DIFFUSION_WEIGHTS } from '../diffusion/keys';
import { isDiffusionModel } from '../diffusion/presets';
import { isQuantizedCacheKv } from '../inference/quantized-cache';
import { REMOTE_FAMILIES } from '../inference/remote-provider';

/**
 * The shape a rule may look at: the preset merged with overrides, the Llama-style guess behind a
 * bare parameter count (`guessed`), or null when unknown.
 */
export type RuleArch = (Partial<ModelArch> & { guessed?: boolean }) | null;

type Other = keyof Scenario | 'heads' | 'layers';

export interface ConflictRule {
  /** stable code: the estimator's error code and the form's `why.<id>` reason */
  id: string;
  /** the key that gives way: named by the error, reset by the parser */
  key: keyof Scenario;
  /** the parser names `alt` instead of `key` when the user gave `alt` but not `key` (tp / pp) */
  alt?: keyof Scenario;
  /** the field the estimator's error sits on, when not `key` (the page shows it there) */
  showOn?: keyof Scenario;
  /** the key (or architecture field) it clashes with */
  with: Other | ((s: Scenario) => Other);
  /** true: the rule needs the model's shape (skipped while it is unknown) */
  arch?: true;
  /** true when `s` breaks the rule */
  when: (s: Scenario, arch: RuleArch) => boolean;
  /** the value(s) the parser falls back to */
  fallback: (s: Scenario) => Partial<Scenario>;
  /** English sentence for a link / CLI user, with the keys as they write them (the parser's error) */
  message: (s: Scenario, arch: RuleArch) => string;
  /** the same in plain words, for the page (the estimator's error; Chinese by `id` in the UI) */
  words: (s: Scenario, arch: RuleArch) => string;
  /** values for the translated message */
  params?: (s: Scenario, arch: RuleArch) => Record<string, string | number>;
}

const isGguf = (w: WeightFormat) => w.startsWith('gguf-');
/** Plain float formats PyTorch can train and llama.cpp can load as GGUF f32/f16/bf16. */
const DENSE: readonly WeightFormat[] = ['fp32', 'fp16', 'bf16'];
const training = (s: Scenario) => s.mode === 'training';
const inference = (s: Scenario) => s.mode === 'inference';
const defaultWeights = () => ({ weights: DEFAULT_SCENARIO.weights });
const noOptimInBackward = () => ({ optimStep: 'after-backward' as const });
const noSplit = () => ({ split: 'none' as const });
/** fp64 and plain int8 / int4 (formats/plain.ts): transformers inference only. */
const plainTraining = (s: Scenario) => (training(s) ? plainRefusal(s.weights, 'training') : null);
const plainEngine = (s: Scenario) => (inference(s) && s.engine !== 'transformers' ? plainRefusal(s.weights, s.engine) : null);

export const CONFLICTS: readonly ConflictRule[] = [
  // Image-generation pipelines are estimated as diffusers runs them at inference (core/diffusion):
  // their training (UNet / DiT fine-tuning) is not modelled, so it is refused rather than guessed.
  {
    id: 'diffusion-inference-only',
    key: 'mode',
    with: 'model',
    when: (s) => training(s) && isDiffusionModel(s.model),
    fallback: () => ({ mode: 'inference' }),
    message: (s) => `model=${s.model} is an image-generation pipeline: it is estimated for inference only (diffusers); training it is not modelled`,
    words: () => 'Image-generation models are estimated for inference only (diffusers pipelines): training them is not modelled',
    params: (s) => ({ model: s.model }),
  },
  // diffusers pipelines load in torch_dtype float32 / float16 / bfloat16 (quantized UNets / DiTs are not modelled)
  {
    id: 'diffusion-weights',
    key: 'weights',
    with: 'model',
    when: (s) => isDiffusionModel(s.model) && !DIFFUSION_WEIGHTS.includes(s.weights),
    fallback: defaultWeights,
    message: (s) => `model=${s.model} is estimated in fp32, fp16 or bf16 (the pipeline's torch_dtype), not weights=${s.weights}`,
    words: () => 'Image-generation pipelines are estimated in fp32, fp16 or bf16',
    params: (s) => ({ model: s.model, weights: s.weights }),
  },
  // PyTorch only gives gradients to floating-point tensors and PEFT has no LoRA layer over plain
  // integer storage; fp64 is not a training format here (the precision key sets what training stores).
  {
    id: 'plain-not-trainable',
    key: 'weights',
    with: 'mode',
    when: (s) => plainTraining(s) !== null,
    fallback: (s) => ({ weights: s.method === 'qlora' ? 'nf4' : DEFAULT_SCENARIO.weights }),
    message: (s) => plainTraining(s) ?? '',
    words: (s) => plainTraining(s) ?? '',
    params: (s) => ({ weights: s.weights, engine: s.engine }),
  },
  // vLLM and llama.cpp have no plain int8 / int4 or fp64 weights (their own 8- and 4-bit formats instead)
  {
    id: 'plain-engine',
    key: 'weights',
    with: 'engine',
    when: (s) => plainEngine(s) !== null,
    fallback: defaultWeights,
    message: (s) => plainEngine(s) ?? '',
    words: (s) => plainEngine(s) ?? '',
    params: (s) => ({ weights: s.weights, engine: s.engine }),
  },
  // QLoRA = LoRA adapters over a quantized frozen base (Dettmers et al. 2023 with bitsandbytes
  // nf4/fp4; PEFT trains the same way over LLM.int8, GPTQ and AWQ Linears: training/quant-base.ts).
  // A float base is plain LoRA; GGUF is llama.cpp's; fp8 weight-only Linears have no backward here.
  {
    id: 'qlora-needs-quantized',
    key: 'weights',
    with: 'method',
    when: (s) => training(s) && !plainTraining(s) && s.method === 'qlora' && !ADAPTER_QUANTIZED.includes(s.weights),
    fallback: () => ({ weights: 'nf4' }),
    message: (s) =>
      `method=qlora trains LoRA adapters over a quantized base (${ADAPTER_QUANTIZED.join(', ')}), not ${s.weights}${DENSE.includes(s.weights) ? '; for a float base use method=lora' : ''}`,
    words: () => `QLoRA trains adapters over a quantized base: choose ${ADAPTER_QUANTIZED.join(', ')} weights (a float base is method lora)`,
  },
  // Full fine-tuning updates every base weight: fp32/fp16/bf16 only (PEFT adapts quantized bases, full FT cannot).
  {
    id: 'full-needs-dense',
    key: 'weights',
    with: 'method',
    when: (s) => training(s) && !plainTraining(s) && s.method === 'full' && !DENSE.includes(s.weights),
    fallback: defaultWeights,
    message: (s) => `method=full trains every weight, which cannot be stored as ${s.weights}; use fp32, fp16, bf16 or lora/qlora`,
    words: () => 'Full fine-tuning updates every weight: quantized storage cannot be trained; choose fp32, fp16 or bf16',
  },
  // GGUF is a llama.cpp inference format; PyTorch cannot train on it.
  {
    id: 'gguf-not-trainable',
    key: 'weights',
    with: 'method',
    when: (s) => training(s) && (s.method === 'lora' || s.method === 'freeze') && isGguf(s.weights),
    fallback: defaultWeights,
    message: (s) => `method=${s.method} cannot train on ${s.weights} (GGUF is a llama.cpp inference format)`,
    words: () => 'GGUF files are for llama.cpp inference; PyTorch training cannot use them',
  },
  // The ExLlama kernels multiply 4-bit weights only (ExllamaV2QuantLinear / ExllamaQuantLinear SUPPORTS_BITS = [4])
  {
    id: 'exllama-4bit-only',
    key: 'gptqKernel',
    with: 'weights',
    when: (s) => inference(s) && s.engine === 'transformers' && s.weights === 'gptq-int8' && (s.gptqKernel === 'exllamav2' || s.gptqKernel === 'exllama'),
    fallback: () => ({ gptqKernel: 'auto' }),
    message: (s) => `gptq-kernel=${s.gptqKernel} multiplies 4-bit weights only; gptq-int8 runs with triton (gptq-kernel=auto)`,
    words: () => 'The ExLlama kernels take 4-bit GPTQ weights only; 8-bit GPTQ runs with the Triton kernel',
    params: (s) => ({ kernel: s.gptqKernel }),
  },
  // PyTorch FSDP shards gradients + states (SHARD_GRAD_OP) or everything (FULL_SHARD): no ZeRO-1 form
  {
    id: 'fsdp-no-zero1',
    key: 'zeroImpl',
    with: 'zero',
    when: (s) => training(s) && s.zeroImpl === 'fsdp' && s.zero === 1,
    fallback: () => ({ zeroImpl: 'deepspeed' }),
    message: () => 'zero-impl=fsdp has no ZeRO-1 form (FSDP ShardingStrategy: SHARD_GRAD_OP = ZeRO-2, FULL_SHARD = ZeRO-3); use zero 2 or 3, or zero-impl=deepspeed',
    words: () => 'PyTorch FSDP has no ZeRO-1 form (SHARD_GRAD_OP is ZeRO-2, FULL_SHARD is ZeRO-3): choose ZeRO stage 2 or 3, or DeepSpeed',
  },
  // DeepSpeed: offload_optimizer needs ZeRO ≥ 1, offload_param needs ZeRO-3.
  {
    id: 'offload-needs-zero',
    key: 'offload',
    with: 'zero',
    when: (s) => training(s) && s.offload === 'optimizer' && s.zero < 1,
    fallback: () => ({ offload: 'none' }),
    message: () => 'offload=optimizer needs zero 1, 2 or 3 (DeepSpeed ZeRO-Offload)',
    words: () => 'Optimizer offload is ZeRO-Offload: set ZeRO stage 1, 2 or 3',
  },
  {
    id: 'offload-params-needs-zero3',
    key: 'offload',
    with: 'zero',
    when: (s) => training(s) && s.offload === 'params' && s.zero !== 3,
    fallback: () => ({ offload: 'none' }),
    message: () => 'offload=params needs zero=3 (DeepSpeed ZeRO-Infinity)',
    words: () => 'Parameter offload needs ZeRO stage 3',
  },
  // Optimizer step fused into backward (torchtune `optimizer_in_bwd`: one optimizer per parameter,
  // stepped by `register_post_accumulate_grad_hook`, then the gradient is set to None).
  // torchtune full_finetune_single_device raises "Requires gradient_accumulation_steps=1": the hook
  // steps on the first micro-batch's gradient and frees it, so nothing is left to accumulate into.
  {
    id: 'optim-in-bwd-accum',
    key: 'optimStep',
    with: 'gradAccum',
    when: (s) => training(s) && s.optimStep === 'in-backward' && s.gradAccum > 1,
    fallback: noOptimInBackward,
    message: () => 'optim-step=in-backward steps each parameter as soon as its gradient exists, so gradients cannot accumulate over micro-batches: needs grad-accum=1',
    words: () => 'Optimizer step in backward frees each gradient after its step: gradient accumulation must be 1',
  },
  // A pipeline accumulates gradients over its micro-batches until the flush (1F1B): same conflict.
  {
    id: 'optim-in-bwd-pp',
    key: 'optimStep',
    with: 'pp',
    when: (s) => training(s) && s.optimStep === 'in-backward' && s.pp > 1,
    fallback: noOptimInBackward,
    message: () => 'optim-step=in-backward cannot run with pipeline parallelism: a pipeline accumulates gradients over its micro-batches before the step',
    words: () => 'Optimizer step in backward cannot run with pipeline parallelism (gradients accumulate over micro-batches)',
  },
  // DeepSpeed ZeRO-1/2 keep the optimizer partition in flat fp32 buffers and step it after the
  // gradient reduce, with no per-parameter hook. Full sharding (zero=3) is allowed: torchtune's FSDP2
  // recipe accepts optimizer_in_bwd from 1814feb1 (Nov 2024), stepping each local shard in its hook.
  {
    id: 'optim-in-bwd-zero',
    key: 'optimStep',
    with: 'zero',
    when: (s) => training(s) && s.optimStep === 'in-backward' && (s.zero === 1 || s.zero === 2),
    fallback: noOptimInBackward,
    message: (s) => `optim-step=in-backward needs zero 0 or 3: ZeRO-${s.zero} steps its flat optimizer partition after the gradient reduce, not per parameter inside backward`,
    words: () => 'Optimizer step in backward needs ZeRO 0 or 3: ZeRO-1/2 step their flat optimizer partition after the reduce',
  },
  // FlashAttention kernels take fp16/bf16 only (Dao-AILab/flash-attention README).
  {
    id: 'flash-needs-16bit',
    key: 'attn',
    with: 'precision',
    when: (s) => training(s) && s.attn === 'flash' && s.precision === 'fp32',
    fallback: () => ({ attn: 'sdpa' }),
    message: () => 'attn=flash needs fp16 or bf16 activations, not precision=fp32',
    words: () => 'FlashAttention runs in fp16/bf16 only; use sdpa or eager with fp32',
  },
  // llama.cpp loads GGUF files: f32/f16/bf16 or its own block types, not bnb/GPTQ/AWQ/fp8.
  {
    id: 'llamacpp-format',
    key: 'weights',
    with: 'engine',
    when: (s) => inference(s) && !plainEngine(s) && s.engine === 'llama.cpp' && !DENSE.includes(s.weights) && !isGguf(s.weights),
    fallback: defaultWeights,
    message: (s) => `engine=llama.cpp runs GGUF weights (or f32/f16/bf16), not ${s.weights}`,
    words: () => 'llama.cpp loads GGUF files (or f32/f16/bf16 GGUF): choose a gguf-* format',
  },
  // GGUF block types are estimated as llama.cpp runs them (transformers would dequantize on load).
  {
    id: 'gguf-needs-llamacpp',
    key: 'weights',
    with: 'engine',
    when: (s) => inference(s) && s.engine !== 'llama.cpp' && isGguf(s.weights),
    fallback: defaultWeights,
    message: (s) => `${s.weights} weights run in llama.cpp; choose engine=llama.cpp`,
    words: (s) => `${s.engine} does not run GGUF quantized weights: choose the llama.cpp engine`,
  },
  {
    id: 'kv-engine',
    key: 'kv',
    with: 'engine',
    when: (s) => inference(s) && !KV_BY_ENGINE[s.engine].includes(s.kv),
    fallback: () => ({ kv: DEFAULT_SCENARIO.kv }),
    message: (s) => `engine=${s.engine} cannot store a ${s.kv} KV cache (allowed: ${KV_BY_ENGINE[s.engine].join(', ')})`,
    words: (s) => `${s.engine} cannot store a ${s.kv} KV cache (allowed: ${KV_BY_ENGINE[s.engine].join(', ')})`,
    params: (s) => ({ engine: s.engine, kv: s.kv, allowed: KV_BY_ENGINE[s.engine].join(', ') }),
  },
  {
    id: 'flash-needs-16bit-weights',
    key: 'attn',
    with: 'weights',
    when: (s) => inference(s) && s.engine === 'transformers' && s.attn === 'flash' && (s.weights === 'fp32' || s.weights === 'fp64'),
    fallback: () => ({ attn: 'sdpa' }),
    message: (s) => `attn=flash needs fp16 or bf16 activations, not ${s.weights} weights`,
    words: (s) => `FlashAttention runs in fp16/bf16 only; use sdpa or eager with ${s.weights} weights`,
  },
  // Megatron / DeepSpeed: world size = dp · tp · pp, so tp·pp must divide the GPU count.
  {
    id: 'grid-mismatch',
    key: 'tp',
    alt: 'pp',
    showOn: 'gpus',
    with: 'gpus',
    when: (s) => s.gpus % (s.tp * s.pp) !== 0,
    fallback: () => ({ tp: 1, pp: 1 }),
    message: (s) => `tp·pp = ${s.tp * s.pp} must divide gpus = ${s.gpus}`,
    words: (s) => `${s.gpus} GPUs cannot be split into groups of tensor parallel ${s.tp} × pipeline parallel ${s.pp} = ${s.tp * s.pp}: use a multiple of ${s.tp * s.pp} GPUs`,
    params: (s) => ({ gpus: s.gpus, tp: s.tp, pp: s.pp, grid: s.tp * s.pp }),
  },
  // vLLM / Megatron split attention heads across tp ranks: heads must be divisible by tp.
  // A guessed shape (bare parameter count) has no real head or layer count to hold tp / pp to.
  {
    id: 'tp-heads',
    key: 'tp',
    with: 'heads',
    arch: true,
    when: (s, a) => !a?.guessed && !!a?.heads && a.heads % s.tp !== 0,
    fallback: () => ({ tp: 1 }),
    message: (s, a) => `tp = ${s.tp} must divide the model's ${a?.heads} attention heads`,
    words: (s, a) => `Tensor parallel ${s.tp} must divide the model's ${a?.heads} attention heads`,
    params: (s, a) => ({ heads: a?.heads ?? 0 }),
  },
  {
    id: 'pp-layers',
    key: 'pp',
    with: 'layers',
    arch: true,
    when: (s, a) => !a?.guessed && !!a?.layers && s.pp > a.layers,
    fallback: () => ({ pp: 1 }),
    message: (s, a) => `pp = ${s.pp} exceeds the model's ${a?.layers} layers`,
    words: (s, a) => `Pipeline parallel ${s.pp} exceeds the model's ${a?.layers} layers`,
    params: (s, a) => ({ layers: a?.layers ?? 0 }),
  },
  // llama.cpp spreads a model over its GPUs itself (--split-mode layer, the default: whole layers
  // by --tensor-split; src/llama-model.cpp load_tensors); it has no Megatron tp × pp grid.
  {
    id: 'llamacpp-grid',
    key: 'tp',
    alt: 'pp',
    with: 'engine',
    when: (s) => inference(s) && s.engine === 'llama.cpp' && (s.tp > 1 || s.pp > 1),
    fallback: () => ({ tp: 1, pp: 1 }),
    message: (s) =>
      `engine=llama.cpp splits whole layers over its gpus (--split-mode layer, --tensor-split), not a tp × pp grid: set tp = 1 and pp = 1 (not tp = ${s.tp}, pp = ${s.pp}) and give the GPU count with gpus`,
    words: () => 'llama.cpp spreads whole layers over its GPUs (--tensor-split): set tensor and pipeline parallel to 1 and choose the GPU count',
  },
  // llama_max_devices() = 16 (src/llama.cpp): one llama.cpp process drives at most 16 devices
  {
    id: 'llamacpp-gpus',
    key: 'gpus',
    with: 'engine',
    when: (s) => inference(s) && s.engine === 'llama.cpp' && s.gpus > LLAMA_MAX_DEVICES,
    fallback: () => ({ gpus: DEFAULT_SCENARIO.gpus }),
    message: (s) => `engine=llama.cpp drives at most ${LLAMA_MAX_DEVICES} GPUs in one process (llama_max_devices()), not gpus = ${s.gpus}`,
    words: () => `llama.cpp drives at most ${LLAMA_MAX_DEVICES} GPUs in one process`,
    params: () => ({ max: LLAMA_MAX_DEVICES }),
  },
  // --tensor-split gives one weight per device (common/arg.cpp fills tensor_split[i] in order)
  {
    id: 'tensor-split-gpus',
    key: 'tensorSplit',
    with: 'gpus',
    when: (s) => inference(s) && s.engine === 'llama.cpp' && s.tensorSplit !== null && s.tensorSplit.length !== s.gpus,
    fallback: () => ({ tensorSplit: null }),
    message: (s) => `tensor-split gives ${s.tensorSplit?.length ?? 0} weights for gpus = ${s.gpus}: give one weight per GPU, or 'auto'`,
    words: (s) => `The tensor split needs one weight per GPU: ${s.tensorSplit?.length ?? 0} weights for ${s.gpus} GPUs`,
    params: (s) => ({ count: s.tensorSplit?.length ?? 0, gpus: s.gpus }),
  },
  // split=layers: one process holding the whole model spread over its GPUs by transformers
  // device_map="auto" (accelerate infer_auto_device_map). No tp/pp grid, only transformers loads
  // models that way; training it is one process (training/layer-split.ts).
  {
    id: 'split-grid',
    key: 'split',
    with: (s) => (s.tp > 1 ? 'tp' : 'pp'),
    when: (s) => s.split === 'layers' && (s.tp > 1 || s.pp > 1),
    fallback: noSplit,
    message: (s) => `split=layers (device_map="auto") runs one process over all GPUs: it needs tp = 1 and pp = 1, not tp = ${s.tp}, pp = ${s.pp}`,
    words: () => 'Layer split (device_map="auto") runs one process over all GPUs: set tensor and pipeline parallel to 1',
  },
  // accelerate.py prepare_model: a device_map="auto" model cannot train in any distributed mode
  {
    id: 'split-zero',
    key: 'split',
    with: 'zero',
    when: (s) => s.split === 'layers' && training(s) && s.zero > 0,
    fallback: noSplit,
    message: (s) => `split=layers trains a device_map="auto" model in one process, which accelerate refuses for DeepSpeed / FSDP: set zero = 0, not ${s.zero}`,
    words: () => 'A device_map="auto" model trains in one process: accelerate refuses it for DeepSpeed / FSDP; set ZeRO to 0',
  },
  {
    id: 'split-engine',
    key: 'split',
    with: 'engine',
    when: (s) => s.split === 'layers' && inference(s) && s.engine !== 'transformers',
    fallback: noSplit,
    message: (s) => `split=layers is transformers' device_map="auto"; engine=${s.engine} spreads a model with its own options (vLLM tensor/pipeline parallel, llama.cpp --split-mode)`,
    words: () => 'Layer split is transformers\' device_map="auto": choose the transformers engine',
  },
  // an encoder-only embedding model (BERT, XLM-R) is estimated as transformers runs it (one forward,
  // no KV cache); vLLM's pooling runner and llama.cpp's embedding mode are not modelled
  {
    id: 'encoder-engine',
    key: 'engine',
    with: 'model',
    arch: true,
    when: (s, a) => inference(s) && s.engine !== 'transformers' && ENCODER_ONLY.has(a?.family ?? ''),
    fallback: () => ({ engine: 'transformers' }),
    message: (s, a) => `${a?.family} is an encoder-only (embedding) model, estimated as transformers runs it; engine=${s.engine} is not modelled for it`,
    words: () => 'Encoder-only (embedding) models are estimated for the transformers engine',
  },
  // the remote-code chat models' own files keep K and V themselves (tuples they torch.cat:
  // modeling_qwen.py `layer_past`, modeling_chatglm.py `kv_cache`, modeling_baichuan.py
  // `past_key_value`), so transformers' QuantizedCache never reaches them; Qwen-1 has its own
  // 8-bit cache (`use_cache_quantization`, inference/remote-runtime.ts), no 4-bit one
  {
    id: 'remote-quantized-kv',
    key: 'kv',
    with: 'model',
    arch: true,
    when: (s, a) => inference(s) && s.engine === 'transformers' && isQuantizedCacheKv(s.kv) && REMOTE_FAMILIES.has(a?.family ?? '') && !(a?.family === 'qwen' && s.kv === 'int8'),
    fallback: () => ({ kv: DEFAULT_SCENARIO.kv }),
    message: (s, a) =>
      `${a?.family}'s own modeling code keeps its K/V cache itself: transformers' quantized cache (kv=${s.kv}) does not apply${a?.family === 'qwen' ? "; Qwen-1's own 8-bit cache is kv=int8" : ''}`,
    words: (s, a) => `This model's own code keeps its K/V cache itself: no ${s.kv} cache${a?.family === 'qwen' ? " (Qwen-1's own cache is int8)" : ''}`,
    params: (s, a) => ({ family: a?.family ?? '', kv: s.kv }),
  },
  {
    id: 'split-layers',
    key: 'split',
    with: 'gpus',
    arch: true,
    when: (s, a) => s.split === 'layers' && !!a?.layers && s.gpus > a.layers,
    fallback: noSplit,
    message: (s, a) => `split=layers puts whole layers on each GPU: gpus = ${s.gpus} exceeds the model's ${a?.layers} layers`,
    words: (s, a) => `Layer split puts whole layers on each GPU: ${s.gpus} GPUs exceed the model's ${a?.layers} layers`,
    params: (s, a) => ({ layers: a?.layers ?? 0 }),
  },
];

/** The key a rule clashes with, in `s`. */
export function otherKey(r: ConflictRule, s: Scenario): Other {
  return typeof r.with === 'function' ? r.with(s) : r.with;
}

/**
 * The rules `s` breaks, in table order. `arch` null skips the shape rules (model not resolved
 * yet); `only` 'arch' checks the shape rules alone (the estimator, once it knows the shape).
 */
export function brokenRules(s: Scenario, arch: RuleArch, only?: 'arch'): ConflictRule[] {
  return CONFLICTS.filter((r) => (only === 'arch' ? r.arch : true) && (!r.arch || arch !== null) && r.when(s, arch));
}
