/**
 * The ONE declarative schema of a Scenario: for every key its external (URL / CLI) name, type,
 * allowed values or range, default and help text. The URL codec, the CLI flags, the form and
 * docs/url-schema.md all read this table; nothing else lists the keys.
 *
 * The scenario's value types (types.ts Mode, WeightFormat, …) are derived from the `as const`
 * arrays below, so a new value is added here once.
 *
 * Defaults follow each runtime's own default where one exists (vLLM gpu_memory_utilization 0.9,
 * PEFT's Llama target modules q_proj/v_proj — docs/reference/formulas.md §6.1).
 */
import type { Engine, Mode, Scenario } from '../types';

export const MODES = ['inference', 'training'] as const;
export const METHODS = ['full', 'lora', 'qlora', 'freeze'] as const;
export const ENGINES = ['transformers', 'vllm', 'llama.cpp'] as const;
export const WEIGHT_FORMATS = [
  'fp32',
  'fp16',
  'bf16',
  'fp64',
  'fp8',
  'int8',
  'int4',
  'bnb-int8',
  'nf4',
  'fp4',
  'gptq-int4',
  'gptq-int8',
  'awq-int4',
  'gguf-q8_0',
  'gguf-q6_k',
  'gguf-q5_k_m',
  'gguf-q4_k_m',
  'gguf-q4_k_s',
  'gguf-q4_0',
  'gguf-q3_k_m',
  'gguf-q2_k',
] as const;
export const KV_FORMATS = ['fp32', 'fp16', 'bf16', 'fp8', 'int8', 'int4', 'q8_0', 'q4_0'] as const;
/**
 * KV element types each engine can store: llama.cpp --cache-type-k/v (f32, f16, bf16, q8_0,
 * q4_0, …); vLLM kv_cache_dtype (auto = model dtype, fp8); transformers' QuantizedCache (quanto
 * int4/int8) besides the model dtype. The URL/CLI rules and the estimator both check this one table.
 */
export const KV_BY_ENGINE: Record<(typeof ENGINES)[number], readonly (typeof KV_FORMATS)[number][]> = {
  'llama.cpp': ['fp32', 'fp16', 'bf16', 'q8_0', 'q4_0'],
  vllm: ['fp32', 'fp16', 'bf16', 'fp8'],
  transformers: ['fp32', 'fp16', 'bf16', 'int8', 'int4'],
};
export const PRECISIONS = ['fp32', 'amp-fp16', 'amp-bf16', 'bf16', 'fp16'] as const;
export const OPTIMIZERS = ['adamw', 'adamw-8bit', 'paged-adamw', 'paged-adamw-8bit', 'sgd', 'sgd-momentum', 'adafactor', 'lion'] as const;
export const GRAD_CKPTS = ['none', 'full', 'selective'] as const;
/** optimizer.zero_grad(set_to_none=True | False): see GradZero in types.ts. */
export const GRAD_ZEROS = ['none', 'zeros'] as const;
export const LENGTHS = ['fixed', 'varied'] as const;
/** PYTORCH_CUDA_ALLOC_CONF the replay's caching allocator runs with: the defaults, or expandable_segments:True. */
export const ALLOC_CONFS = ['default', 'expandable'] as const;
export const ATTNS = ['flash', 'sdpa', 'eager'] as const;
export const COMPILE_MODES = ['none', 'inductor'] as const;
export const OPTIM_STEPS = ['after-backward', 'in-backward'] as const;
export const ACT_OFFLOADS = ['none', 'cpu'] as const;
/** Code path of the LM-head logits and loss (src/core/logits-path.ts). */
export const LOGITS_PATHS = ['auto', 'current', 'upcast-in-model', 'remote-code', 'torchtune'] as const;
/** transformers from_pretrained(device_map="auto"): accelerate's layer split over the GPUs of one process. */
export const SPLITS = ['none', 'layers'] as const;
/** torch.optim `foreach` (default on CUDA since PyTorch 2.0) / `fused=True` / `foreach=False`. */
export const OPTIM_IMPLS = ['foreach', 'fused', 'for-loop'] as const;
export const BNB_COMPUTES = ['fp32', 'fp16', 'bf16'] as const;
/** bitsandbytes bnb_4bit_use_double_quant: 'auto' = on for nf4 (the QLoRA recipe), off for fp4 (BitsAndBytesConfig's default). */
export const DOUBLE_QUANTS = ['auto', 'on', 'off'] as const;
export const BNB_VERSIONS = ['current', 'legacy'] as const;
/** GPTQ quantized in order of decreasing activation (quantize_config desc_act) or not. */
export const DESC_ACTS = ['off', 'on'] as const;
/** The GPTQ kernel transformers loads (formats/gptq-kernel.ts): 'auto' = ExLlama v1 for 4-bit (GPTQConfig's default with AutoGPTQ), Triton for 8-bit. */
export const GPTQ_KERNELS = ['auto', 'exllamav2', 'exllama', 'triton'] as const;
/** PEFT fp32 upcast (default) or the model dtype (torchtune). */
export const ADAPTER_DTYPES = ['fp32', 'base'] as const;
/** torch.autocast around the forward of a 16-bit model (HF Trainer / accelerate with bf16=True or fp16=True) or not (torchtune, plain loops). */
export const AUTOCASTS = ['on', 'off'] as const;
/** PEFT prepare_model_for_kbit_training called (QLoRA recipes) or not. */
export const KBIT_PREPS = ['on', 'off'] as const;
/** PEFT modules_to_save choices. */
export const LORA_SAVES = ['none', 'embed', 'head', 'embed,head'] as const;
export const ZERO_STAGES = ['0', '1', '2', '3'] as const;
export const OFFLOADS = ['none', 'optimizer', 'params'] as const;
export const ZERO_IMPLS = ['deepspeed', 'fsdp'] as const;
export const OVERLAP_COMMS = ['auto', 'on', 'off'] as const;
/** Classifier-free guidance of an image pipeline: 'auto' = the pipeline's default (core/diffusion/presets.ts cfgDefault). */
export const CFGS = ['auto', 'on', 'off'] as const;
/** diffusers `enable_model_cpu_offload()` called ('on') or every component moved to the GPU ('off'). */
export const OFFLOAD_MODELS = ['off', 'on'] as const;
/** Largest DeepSpeed bucket / threshold accepted (elements). */
const MAX_DS_ELEMENTS = 1e13;
/** Canonical order of LoRA targets (attention then MLP), used when writing lists. */
export const LORA_TARGETS = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] as const;

/**
 * llama_max_devices() (src/llama.cpp, 16). common/arg.cpp --tensor-split throws when it is given
 * `>= llama_max_devices()` weights, so at most 15 are accepted.
 */
export const LLAMA_MAX_DEVICES = 16;

/** Largest token count accepted for prompt / gen / seq (16 Mi tokens). */
export const MAX_TOKENS = 2 ** 24;

/** Value types a key can hold; `nullToken` is the external spelling of null ('all', 'auto'). */
export type FieldKind =
  | { type: 'enum'; values: readonly string[] }
  | { type: 'int'; min: number; max: number; nullToken?: string | undefined }
  | { type: 'float'; min: number; max: number }
  | { type: 'targets' }
  | { type: 'ratios'; maxCount: number }
  | { type: 'count' }
  | { type: 'model' }
  | { type: 'gpu' };

export interface FieldSpec {
  /** Scenario property */
  prop: keyof Scenario;
  /** external kebab-case name (URL key, CLI flag without --) */
  name: string;
  kind: FieldKind;
  help: string;
  /** the modes whose estimate reads the key (absent: both); given in another mode it warns 'unused-key' */
  modes?: readonly Mode[];
  /** the inference engines that read the key (absent: every engine); the form disables it for the others */
  engines?: readonly Engine[];
  /**
   * the models that read the key (absent: every model; scenario/model-kind.ts): 'generate' = models
   * that generate tokens (not encoder-only embedding models), 'image' = models that take or make
   * images. Given for another model it warns 'unused-for-model'; the form hides it.
   */
  models?: ModelKind;
  /** the CLI's `--network` layer estimate takes it too */
  network?: true;
  /**
   * The form's slider for a number key: its end (narrower than the accepted range, so the thumb stays
   * useful; the box takes any accepted value) and whether it moves in powers (a range over decades).
   */
  slider?: { max: number; log?: true };
}

/** Which models read a key (FieldSpec.models). */
export type ModelKind = 'generate' | 'image';

const TRAINING: readonly Mode[] = ['training'];
const INFERENCE: readonly Mode[] = ['inference'];
const int = (min: number, max: number, nullToken?: string): FieldKind => ({ type: 'int', min, max, nullToken });
const oneOf = (values: readonly string[]): FieldKind => ({ type: 'enum', values });

/** Every top-level Scenario key except `arch` (whose keys are in arch-fields.ts). */
export const SCENARIO_FIELDS: readonly FieldSpec[] = [
  { prop: 'model', name: 'model', kind: { type: 'model' }, help: "Preset Hugging Face id (e.g. meta-llama/Llama-2-7b-hf) or 'custom' with architecture keys" },
  { prop: 'params', name: 'params', kind: { type: 'count' }, help: "Bare parameter count for a quick estimate, e.g. '7b', '350m', '1.5e9' (use without model)" },
  { prop: 'mode', name: 'mode', kind: oneOf(MODES), help: 'Inference (serving / generation) or training', network: true },
  {
    prop: 'method',
    name: 'method',
    kind: oneOf(METHODS),
    help: 'Training method: full fine-tune, LoRA, QLoRA (LoRA over a quantized base: bitsandbytes nf4/fp4/bnb-int8, GPTQ, AWQ) or freeze (train a subset)',
    modes: TRAINING,
  },
  {
    prop: 'weights',
    name: 'weights',
    kind: oneOf(WEIGHT_FORMATS),
    help: 'Storage format of the model weights. int8 / int4 are plain integer storage, every parameter at 1 / 0.5 byte (ChatGLM: its own quantize()); bnb-int8 is bitsandbytes LLM.int8, which keeps the embeddings and LM head in 16-bit',
  },
  {
    prop: 'doubleQuant',
    name: 'double-quant',
    kind: oneOf(DOUBLE_QUANTS),
    help: "bnb_4bit_use_double_quant (nf4, fp4): 8-bit block scales, 0.37 bit per weight less; 'auto' = on for nf4, off for fp4",
  },
  {
    prop: 'groupSize',
    name: 'group-size',
    slider: { max: 1024, log: true },
    kind: int(16, 65536, 'auto'),
    help: "GPTQ / AWQ group size: one scale and zero point per group of inputs; 'auto' = 128",
  },
  {
    prop: 'descAct',
    name: 'desc-act',
    kind: oneOf(DESC_ACTS),
    help: 'GPTQ act-order (quantize_config desc_act): the checkpoint stores the same tensors either way; only the ExLlama v1 kernel then keeps a 2048-token buffer to reorder the input',
  },
  {
    prop: 'gptqKernel',
    name: 'gptq-kernel',
    kind: oneOf(GPTQ_KERNELS),
    help: "GPTQ kernel transformers loads: 'exllama' (v1: GPTQConfig's default with AutoGPTQ) keeps the largest layer unpacked to fp16; 'exllamav2' (what GPTQModel, AutoGPTQ's successor, selects) one scratch per GPU for that plus its output over 8 × 2048 tokens; 'triton' none; 'auto' = exllama for gptq-int4, triton for gptq-int8",
    modes: INFERENCE,
    engines: ['transformers'],
  },
  { prop: 'kv', name: 'kv', kind: oneOf(KV_FORMATS), help: 'Element type of the KV cache (q8_0/q4_0: llama.cpp only)', modes: INFERENCE, models: 'generate' },
  {
    prop: 'kvResidual',
    name: 'kv-residual',
    slider: { max: 4096, log: true },
    kind: int(1, 1_000_000),
    help: "transformers QuantizedCache (kv int4 / int8) residual_length: the newest tokens kept in the model's dtype until they are quantized together",
    modes: INFERENCE,
    engines: ['transformers'],
    models: 'generate',
  },
  { prop: 'engine', name: 'engine', kind: oneOf(ENGINES), help: 'Inference runtime' },
  { prop: 'batch', name: 'batch', slider: { max: 1024, log: true }, kind: int(1, 65536), help: 'Sequences per step (micro-batch per GPU in training)', network: true },
  { prop: 'prompt', name: 'prompt', slider: { max: 2 ** 20, log: true }, kind: int(1, MAX_TOKENS), help: 'Inference: prompt tokens per sequence', modes: INFERENCE },
  { prop: 'gen', name: 'gen', slider: { max: 2 ** 17, log: true }, kind: int(0, MAX_TOKENS), help: 'Inference: generated tokens per sequence', modes: INFERENCE, models: 'generate' },
  {
    prop: 'images',
    name: 'images',
    slider: { max: 64 },
    kind: int(0, 4096),
    help: "Inference: images per sequence. A vision-language model's tower encodes each, and each adds its image tokens to the prompt",
    modes: INFERENCE,
    models: 'image',
  },
  {
    prop: 'resolution',
    name: 'resolution',
    slider: { max: 4096, log: true },
    kind: int(8, 16384, 'auto'),
    help: "Image side in pixels (square images); 'auto' = the model's native size (a vision tower's input size; image generation: SD 1.5 512, SDXL and Flux 1024)",
    modes: INFERENCE,
    models: 'image',
  },
  { prop: 'seq', name: 'seq', slider: { max: 2 ** 20, log: true }, kind: int(1, MAX_TOKENS), help: 'Training: sequence length in tokens', modes: TRAINING },
  { prop: 'precision', name: 'precision', kind: oneOf(PRECISIONS), help: 'Training precision: fp32, AMP (fp32 master weights) or pure 16-bit', modes: TRAINING, network: true },
  { prop: 'optimizer', name: 'optimizer', kind: oneOf(OPTIMIZERS), help: 'Optimizer (8-bit and paged variants from bitsandbytes)', modes: TRAINING, network: true },
  { prop: 'gradCkpt', name: 'grad-ckpt', kind: oneOf(GRAD_CKPTS), help: 'Activation (gradient) checkpointing', modes: TRAINING, network: true },
  {
    prop: 'gradAccum',
    name: 'grad-accum',
    slider: { max: 256, log: true },
    kind: int(1, 65536),
    help: 'Training: micro-batches accumulated per optimizer step (gradient_accumulation_steps); gradients stay allocated across them',
    modes: TRAINING,
  },
  {
    prop: 'optimImpl',
    name: 'optim-impl',
    kind: oneOf(OPTIM_IMPLS),
    help: "Training: optimizer step implementation. 'foreach' (torch.optim default on CUDA) builds one temporary as large as one state over all parameters; 'fused' (fused=True) none; 'for-loop' (foreach=False, transformers' old adamw_hf) one parameter's worth at a time",
    modes: TRAINING,
  },
  {
    prop: 'bnbCompute',
    name: 'bnb-compute',
    kind: oneOf(BNB_COMPUTES),
    help: 'bitsandbytes nf4/fp4: bnb_4bit_compute_dtype. The default float32 (transformers BitsAndBytesConfig) casts each dequantized 16-bit weight to fp32 for the matmul; recipes such as QLoRA set bf16. In training a 4-bit Linear whose input is fp32 or bf16 computes in that dtype instead (Linear4bit.set_compute_type)',
  },
  {
    prop: 'bnbVersion',
    name: 'bnb-version',
    kind: oneOf(BNB_VERSIONS),
    help: "Training over bitsandbytes weights (nf4, fp4, bnb-int8): 'current' (0.43.2, July 2024, and later) keeps no input of a 4-bit Linear for backward; 'legacy' (0.43.1 and earlier) keeps each 4-bit Linear's input cast to the compute dtype (MatMul4Bit ctx.tensors = (A, B)), a copy per Linear unless the input already has that dtype, and each LLM.int8 Linear its input's int8 transpose CAt (double_quant) beside the input",
    modes: TRAINING,
  },
  {
    prop: 'gradZero',
    name: 'grad-zero',
    kind: oneOf(GRAD_ZEROS),
    help: "Training: zero_grad(set_to_none=True) frees gradients between steps ('none', PyTorch ≥ 2.0 default); 'zeros' keeps them (set_to_none=False, the default before 2.0)",
    modes: TRAINING,
  },
  { prop: 'attn', name: 'attn', kind: oneOf(ATTNS), help: 'Attention kernel: FlashAttention, PyTorch SDPA or eager (materialises the score matrix)' },
  {
    prop: 'compile',
    name: 'compile',
    kind: oneOf(COMPILE_MODES),
    help: "Training: torch.compile of the layers ('inductor'): the min-cut partitioner recomputes cheap pointwise ops (norm internals, SiLU) in backward instead of saving them",
    modes: TRAINING,
  },
  {
    prop: 'optimStep',
    name: 'optim-step',
    kind: oneOf(OPTIM_STEPS),
    help: "Training: 'in-backward' steps each parameter as soon as its gradient is ready and frees it (torchtune optimizer_in_bwd), so the full gradient set is never held",
    modes: TRAINING,
  },
  {
    prop: 'actOffload',
    name: 'act-offload',
    kind: oneOf(ACT_OFFLOADS),
    help: "Training: 'cpu' moves saved activations to pinned CPU memory (torchtune enable_activation_offloading; with checkpointing, the layer inputs), keeping only those in flight",
    modes: TRAINING,
  },
  {
    prop: 'lengths',
    name: 'lengths',
    kind: oneOf(LENGTHS),
    help: "Training: 'fixed' = every sample padded / packed to seq; 'varied' = samples of different lengths truncated at seq and padded per batch (no packing): reserved memory comes from replaying, through the caching-allocator model, the steps of a 1,000-step run longer than all before them",
    modes: TRAINING,
  },
  {
    prop: 'lenMean',
    name: 'len-mean',
    slider: { max: 2 ** 20, log: true },
    kind: int(1, MAX_TOKENS, 'auto'),
    help: "Training, lengths=varied: mean sample length in tokens before truncation at seq; 'auto' = seq/2 (an assumption)",
    modes: TRAINING,
  },
  {
    prop: 'lenSpread',
    name: 'len-spread',
    kind: { type: 'float', min: 0, max: 3 },
    help: 'Training, lengths=varied: spread of the sample lengths, the σ of a lognormal (default 0.6, an assumption); above 0, batches of more than one sample carry padding, so SDPA gets an attention mask',
    modes: TRAINING,
  },
  {
    prop: 'allocConf',
    name: 'alloc-conf',
    kind: oneOf(ALLOC_CONFS),
    help: "Training, lengths=varied: PYTORCH_CUDA_ALLOC_CONF of the replayed run. 'default' = fixed-size segments that stay cached; 'expandable' = expandable_segments:True (segments grow in place, so shapes that change from step to step reuse the same memory)",
    modes: TRAINING,
  },
  {
    prop: 'lossChunks',
    name: 'loss-chunks',
    slider: { max: 64, log: true },
    kind: int(1, 1024),
    help: 'Training: chunks of the LM-head output for the cross-entropy (torchtune CEWithChunkedOutputLoss uses 8); the fp32 upcast exists for one chunk at a time. 1 = unchunked',
    modes: TRAINING,
  },
  {
    prop: 'logitsPath',
    name: 'logits-path',
    kind: oneOf(LOGITS_PATHS),
    models: 'generate',
    help: "Code that computes the LM-head logits and the loss: 'current' (transformers ≥ 4.46: model-dtype logits, fp32 upcast in the loss, generate keeps the last position), 'upcast-in-model' (transformers < 4.45: logits.float() in forward over the whole sequence, a shifted fp32 copy), 'remote-code' (trust_remote_code files such as Qwen-1: 16-bit logits and loss over the whole prompt), 'torchtune' (training: fp32 decoder output, deleted before backward); 'auto' = remote-code for configs with an auto_map (known families: their own file), else current",
  },
  { prop: 'loraRank', name: 'lora-rank', slider: { max: 1024, log: true }, kind: int(1, 65536), help: 'LoRA rank r', modes: TRAINING },
  {
    prop: 'loraTargets',
    name: 'lora-targets',
    kind: { type: 'targets' },
    help: "Adapted projections, comma list of q,k,v,o,gate,up,down, or 'all' / 'all-linear' (PEFT's target_modules='all-linear': every Linear of the blocks, not the LM head; PEFT matches nn.Linear subclasses such as bitsandbytes', while GPTQ and AWQ layers must be named)",
    modes: TRAINING,
  },
  {
    prop: 'loraDropout',
    name: 'lora-dropout',
    kind: { type: 'float', min: 0, max: 1 },
    help: 'LoRA dropout probability (PEFT lora_dropout, default 0). Above 0 each adapter saves its own dropped-out input and a 1-byte mask for backward',
    modes: TRAINING,
  },
  {
    prop: 'adapterDtype',
    name: 'adapter-dtype',
    kind: oneOf(ADAPTER_DTYPES),
    help: "LoRA adapter dtype with a pure bf16/fp16 model: 'fp32' (PEFT autocast_adapter_dtype=True, the default) upcasts adapters, their gradients and optimizer states to fp32; 'base' keeps them in the model dtype (torchtune)",
    modes: TRAINING,
  },
  {
    prop: 'autocast',
    name: 'autocast',
    kind: oneOf(AUTOCASTS),
    help: "Training with bf16/fp16 weights (precision=bf16 or fp16): 'on' = the forward runs under torch.autocast, as HF Trainer does with bf16=True / fp16=True even when the weights are already 16-bit (accelerate prepare_model), so fp32 parameters (PEFT's fp32 LoRA adapters, kbit-prep's fp32 layers) compute in 16-bit; 'off' = no autocast (torchtune, plain loops). AMP precisions always run under autocast",
    modes: TRAINING,
  },
  {
    prop: 'loraSave',
    name: 'lora-save',
    kind: oneOf(LORA_SAVES),
    help: "LoRA: PEFT modules_to_save — 'embed', 'head' or 'embed,head' train a full copy of the embedding / LM head next to the adapters (the original stays, frozen); the copy, its gradient and optimizer states are in the module's dtype, and a trained head saves its input for backward",
    modes: TRAINING,
  },
  {
    prop: 'kbitPrep',
    name: 'kbit-prep',
    kind: oneOf(KBIT_PREPS),
    help: "LoRA over a bitsandbytes (nf4/fp4/bnb-int8) or AWQ base: 'on' = PEFT prepare_model_for_kbit_training, as QLoRA recipes call it: embeddings, norms, biases and LM head become fp32 parameters, so the residual stream, the norm outputs and the quantized Linears' outputs are fp32 activations (PEFT skips the cast for GPTQ). Its default gradient checkpointing is the separate grad-ckpt key",
  },
  {
    prop: 'cfg',
    name: 'cfg',
    kind: oneOf(CFGS),
    help: "Image generation: classifier-free guidance. SD 1.5 / SDXL with guidance_scale > 1 (their default) run the UNet on a doubled batch (negative + positive prompt); Flux runs a second transformer call of the same size (true_cfg_scale > 1); 'auto' = the pipeline's default (on for SD / SDXL, off for Flux, whose dev model is guidance-distilled)",
    modes: INFERENCE,
  },
  {
    prop: 'offloadModel',
    name: 'offload-model',
    kind: oneOf(OFFLOAD_MODELS),
    help: 'Image generation: `on` = diffusers enable_model_cpu_offload(): only the component that runs (a text encoder, the UNet / transformer, the VAE) is on the GPU; `off` = pipe.to("cuda"), every component resident',
    modes: INFERENCE,
  },
  { prop: 'gpus', name: 'gpus', slider: { max: 1024, log: true }, kind: int(1, 1_000_000), help: 'Total GPUs (data-parallel × tp × pp)' },
  { prop: 'zero', name: 'zero', kind: oneOf(ZERO_STAGES), help: 'DeepSpeed ZeRO stage (3 ≈ FSDP full shard)', modes: TRAINING },
  { prop: 'tp', name: 'tp', slider: { max: 64, log: true }, kind: int(1, 4096), help: 'Tensor-parallel degree' },
  { prop: 'pp', name: 'pp', slider: { max: 64, log: true }, kind: int(1, 4096), help: 'Pipeline-parallel degree' },
  {
    prop: 'split',
    name: 'split',
    kind: oneOf(SPLITS),
    help: "'layers' = one process loads the model with transformers device_map=\"auto\", accelerate's balanced split of the layers over all gpus (tp = pp = 1; training: naive model parallelism, no ZeRO); the estimate is the most-loaded GPU",
  },
  { prop: 'offload', name: 'offload', kind: oneOf(OFFLOADS), help: 'ZeRO-Offload: optimizer state (ZeRO ≥ 1) or also parameters (ZeRO-3) to CPU', modes: TRAINING },
  {
    prop: 'zeroImpl',
    name: 'zero-impl',
    kind: oneOf(ZERO_IMPLS),
    help: "Framework behind zero: 'deepspeed' (its flat buffers, reduce bucket and ZeRO-3 parameter fetching, below) or 'fsdp' (PyTorch FSDP: SHARD_GRAD_OP = 2, FULL_SHARD = 3, the current and the prefetched block gathered)",
    modes: TRAINING,
  },
  {
    prop: 'dsReduceBucket',
    name: 'ds-reduce-bucket',
    slider: { max: 1e9, log: true },
    kind: int(1, MAX_DS_ELEMENTS, 'auto'),
    help: "DeepSpeed reduce_bucket_size in elements (DeepSpeed's default 500000000); 'auto' = HF Trainer's fill-in hidden² (integrations/deepspeed.py trainer_config_finalize)",
    modes: TRAINING,
  },
  {
    prop: 'dsOverlapComm',
    name: 'ds-overlap-comm',
    kind: oneOf(OVERLAP_COMMS),
    help: "DeepSpeed overlap_comm. ZeRO-1/2 then allocate a second reduce buffer (stage_1_and_2.py backward); 'auto' = DeepSpeed's default, on for ZeRO-3 only",
    modes: TRAINING,
  },
  {
    prop: 'dsPrefetchBucket',
    name: 'ds-prefetch-bucket',
    slider: { max: 1e9, log: true },
    kind: int(0, MAX_DS_ELEMENTS, 'auto'),
    help: "ZeRO-3 stage3_prefetch_bucket_size in elements (DeepSpeed's default 50000000); 'auto' = HF's 0.9·hidden²",
    modes: TRAINING,
  },
  {
    prop: 'dsPersistThreshold',
    name: 'ds-persist-threshold',
    slider: { max: 1e7, log: true },
    kind: int(0, MAX_DS_ELEMENTS, 'auto'),
    help: "ZeRO-3 stage3_param_persistence_threshold: parameters this small stay whole on every GPU (DeepSpeed's default 100000); 'auto' = HF's 10·hidden",
    modes: TRAINING,
  },
  {
    prop: 'dsMaxLive',
    name: 'ds-max-live',
    slider: { max: 1e10, log: true },
    kind: int(0, MAX_DS_ELEMENTS),
    help: 'ZeRO-3 stage3_max_live_parameters: gathered parameters beyond which no more are prefetched (DeepSpeed default 1000000000)',
    modes: TRAINING,
  },
  {
    prop: 'dsReuseDistance',
    name: 'ds-reuse-distance',
    slider: { max: 1e10, log: true },
    kind: int(0, MAX_DS_ELEMENTS),
    help: 'ZeRO-3 stage3_max_reuse_distance: a gathered parameter used again within this many parameter elements is not released, so the last layers stay gathered across the forward→backward turn (DeepSpeed default 1000000000)',
    modes: TRAINING,
  },
  { prop: 'gpu', name: 'gpu', kind: { type: 'gpu' }, help: "GPU catalogue id (e.g. a100-80gb-sxm4), a short name (a100-80gb, h100, 4090) or a capacity such as '24GiB' / '24GB'", network: true },
  {
    prop: 'gpuUtil',
    name: 'gpu-util',
    kind: { type: 'float', min: 0.01, max: 1 },
    help: 'vLLM gpu_memory_utilization (fraction of device memory vLLM may use)',
    engines: ['vllm'],
    modes: INFERENCE,
  },
  {
    prop: 'ngl',
    name: 'ngl',
    slider: { max: 200 },
    kind: int(0, 100_000, 'all'),
    help: "llama.cpp layers offloaded to the GPU (-ngl); 'all' = every layer",
    engines: ['llama.cpp'],
    modes: INFERENCE,
  },
  {
    prop: 'tensorSplit',
    name: 'tensor-split',
    kind: { type: 'ratios', maxCount: LLAMA_MAX_DEVICES - 1 },
    help: "llama.cpp over gpus > 1 (--split-mode layer): --tensor-split, one weight per GPU, e.g. 3,1 puts three quarters of the layers on GPU 0; 'auto' = by each GPU's free memory (equal for identical cards)",
    modes: INFERENCE,
    engines: ['llama.cpp'],
  },
  {
    prop: 'ubatch',
    name: 'ubatch',
    slider: { max: 2 ** 16, log: true },
    kind: int(1, MAX_TOKENS, 'auto'),
    help: "Prefill chunk: llama.cpp n_ubatch / vLLM max_num_batched_tokens; 'auto' = engine default",
    engines: ['vllm', 'llama.cpp'],
    modes: INFERENCE,
  },
  {
    prop: 'mfu',
    name: 'mfu',
    kind: { type: 'float', min: 0.01, max: 1 },
    help: 'Training: model FLOPs utilisation assumed by the step-time bound (fraction of the tensor-core peak; 0.4 is a well-tuned large run, PaLM reports 0.46)',
    modes: TRAINING,
  },
];

/** The scenario the app opens with (and what every bad value falls back to). */
export const DEFAULT_SCENARIO: Readonly<Scenario> = Object.freeze({
  model: 'meta-llama/Llama-3.1-8B',
  params: null,
  resolution: null,
  cfg: 'auto',
  offloadModel: 'off',
  arch: null,
  mode: 'inference',
  method: 'full',
  weights: 'bf16',
  kv: 'bf16',
  engine: 'transformers',
  batch: 1,
  prompt: 2048,
  gen: 256,
  seq: 2048,
  precision: 'amp-bf16',
  optimizer: 'adamw',
  gradCkpt: 'none',
  gradAccum: 1,
  gradZero: 'none',
  optimImpl: 'foreach',
  bnbCompute: 'fp32',
  doubleQuant: 'auto',
  bnbVersion: 'current',
  groupSize: null,
  descAct: 'off',
  gptqKernel: 'auto',
  attn: 'sdpa',
  compile: 'none',
  optimStep: 'after-backward',
  actOffload: 'none',
  lossChunks: 1,
  logitsPath: 'auto',
  lengths: 'fixed',
  lenMean: null,
  lenSpread: 0.6,
  allocConf: 'default',
  loraRank: 16,
  loraTargets: ['q', 'v'],
  loraDropout: 0,
  adapterDtype: 'fp32',
  autocast: 'on',
  kbitPrep: 'on',
  loraSave: 'none',
  gpus: 1,
  zero: 0,
  tp: 1,
  pp: 1,
  split: 'none',
  offload: 'none',
  zeroImpl: 'deepspeed',
  dsReduceBucket: null,
  dsPrefetchBucket: null,
  dsPersistThreshold: null,
  dsMaxLive: 1_000_000_000,
  dsReuseDistance: 1_000_000_000,
  dsOverlapComm: 'auto',
  gpu: '',
  gpuUtil: 0.9,
  ngl: null,
  tensorSplit: null,
  kvResidual: 128,
  images: 1,
  ubatch: null,
  mfu: 0.4,
} satisfies Scenario);

/** A fresh mutable copy of the defaults. */
export function defaultScenario(): Scenario {
  return { ...DEFAULT_SCENARIO, loraTargets: [...DEFAULT_SCENARIO.loraTargets] };
}
