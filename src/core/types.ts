/**
 * The core's public contract: the scenario every front end (page, URL, CLI) feeds in,
 * and the estimate that comes back. Pure data, no behaviour.
 *
 * Units: every byte count is a plain number of bytes (float64 is exact to 2^53 B = 8 PiB).
 */

import type * as S from './scenario/schema';

/** The value type of one schema array. */
type Of<T extends readonly unknown[]> = T[number];
/** '0' | '1' → 0 | 1 */
type ToNumber<T> = T extends `${infer N extends number}` ? N : never;

export type Mode = Of<typeof S.MODES>;
export type Method = Of<typeof S.METHODS>;
export type Engine = Of<typeof S.ENGINES>;
/** Training recipe: pure fp32, AMP with fp32 master weights, or pure 16-bit. */
export type Precision = Of<typeof S.PRECISIONS>;
export type Optimizer = Of<typeof S.OPTIMIZERS>;
export type GradCkpt = Of<typeof S.GRAD_CKPTS>;
/**
 * How gradients are cleared between optimizer steps: 'none' = `zero_grad(set_to_none=True)`
 * (the default since PyTorch 2.0: gradients freed, re-created in backward); 'zeros' =
 * `set_to_none=False` (the default before 2.0: gradient tensors kept, filled with zeros).
 */
export type GradZero = Of<typeof S.GRAD_ZEROS>;
/** training sample lengths: all `seq`, or varied (truncated at seq, padded per batch) */
export type Lengths = Of<typeof S.LENGTHS>;
export type AllocConf = Of<typeof S.ALLOC_CONFS>;
/** torch.optim step implementation: multi-tensor (default on CUDA), fused kernel, or per-parameter loop. */
export type OptimImpl = Of<typeof S.OPTIM_IMPLS>;
/** bitsandbytes 4-bit `bnb_4bit_compute_dtype` (transformers BitsAndBytesConfig default: float32). */
export type BnbCompute = Of<typeof S.BNB_COMPUTES>;
/**
 * Element type of LoRA adapters under pure 16-bit training: 'fp32' = PEFT's default upcast
 * (`autocast_adapter_dtype=True`), 'base' = the model dtype (torchtune `LoRALinear`, or PEFT with
 * `autocast_adapter_dtype=False`).
 */
export type AdapterDtype = Of<typeof S.ADAPTER_DTYPES>;
export type Autocast = Of<typeof S.AUTOCASTS>;
/**
 * PEFT `prepare_model_for_kbit_training` called on the quantized model ('on', what QLoRA recipes
 * run) or not ('off': torchtune, or plain get_peft_model).
 */
export type KbitPrep = Of<typeof S.KBIT_PREPS>;
export type DoubleQuant = Of<typeof S.DOUBLE_QUANTS>;
export type BnbVersion = Of<typeof S.BNB_VERSIONS>;
export type DescAct = Of<typeof S.DESC_ACTS>;
export type GptqKernel = Of<typeof S.GPTQ_KERNELS>;
/** PEFT `modules_to_save`: embedding and/or LM head trained in full next to the adapters. */
export type LoraSave = Of<typeof S.LORA_SAVES>;
export type Attn = Of<typeof S.ATTNS>;
/** torch.compile of the transformer layers: 'none' = eager; 'inductor' = AOTAutograd + Inductor (min-cut partitioner). */
export type CompileMode = Of<typeof S.COMPILE_MODES>;
/**
 * When the optimizer steps: 'after-backward' = one optimizer.step() over all gradients;
 * 'in-backward' = per-parameter step from a post-accumulate-grad hook (torchtune `optimizer_in_bwd`).
 */
export type OptimStep = Of<typeof S.OPTIM_STEPS>;
/** How a single process spreads the model over its GPUs: 'layers' = transformers device_map="auto". */
export type LayerSplitMode = Of<typeof S.SPLITS>;
/** Saved activations: kept on the GPU ('none') or moved to pinned CPU memory ('cpu', torchtune OffloadActivations). */
export type ActOffload = Of<typeof S.ACT_OFFLOADS>;
/**
 * Which code computes the LM-head logits and the loss (src/core/logits-path.ts): 'current' =
 * transformers ≥ 4.46 (logits in the model dtype, ForCausalLMLoss upcasts; generate keeps the last
 * position); 'upcast-in-model' = older native models with `logits.float()` in forward over the
 * whole sequence; 'remote-code' = trust_remote_code files such as Qwen-1's modeling_qwen.py
 * (16-bit logits and cross-entropy, whole prompt); 'torchtune' = TransformerDecoder + recipe loss;
 * 'auto' = 'remote-code' for configs with an `auto_map`, else 'current'.
 */
export type LogitsPath = Of<typeof S.LOGITS_PATHS>;
export type ZeroStage = ToNumber<Of<typeof S.ZERO_STAGES>>;
export type Offload = Of<typeof S.OFFLOADS>;
/** Which framework shards under `zero`: DeepSpeed's ZeRO optimizers, or PyTorch FSDP (ZeRO-2/3 equivalents). */
export type ZeroImpl = Of<typeof S.ZERO_IMPLS>;
/** DeepSpeed `overlap_comm`: 'auto' = DeepSpeed's default (on for ZeRO-3 only, zero/config.py overlap_comm_valid). */
export type OverlapComm = Of<typeof S.OVERLAP_COMMS>;
export type LoraTarget = Of<typeof S.LORA_TARGETS>;
/** Classifier-free guidance of an image pipeline ('auto' = the pipeline's default). */
export type Cfg = Of<typeof S.CFGS>;
/** diffusers enable_model_cpu_offload: only the running component on the GPU. */
export type OffloadModel = Of<typeof S.OFFLOAD_MODELS>;

/**
 * Storage format of the weights (see src/core/formats). `int8` / `int4` are plain integer storage
 * at the nominal width for every parameter; `bnb-int8` is bitsandbytes LLM.int8, which keeps the
 * embeddings and LM head in 16-bit.
 */
export type WeightFormat = Of<typeof S.WEIGHT_FORMATS>;

/** Element type of the KV cache. q8_0/q4_0 are llama.cpp's block types. */
export type KvFormat = Of<typeof S.KV_FORMATS>;

/**
 * A normalised transformer architecture (decoder-only or encoder), whatever the
 * config.json family spelled. Optional fields absent mean "not this feature".
 */
export interface ModelArch {
  /** Free-text family label, e.g. 'llama', 'qwen2', 'gpt2', 'bert', 'deepseek_v3'. */
  family: string;
  hidden: number; // h
  layers: number; // L
  heads: number; // a
  kvHeads: number; // g (= a for MHA, 1 for MQA)
  headDim: number; // d (often h/a, not always)
  ffn: number; // f, dense MLP intermediate size
  vocab: number; // V
  gatedMlp: boolean; // SwiGLU/GeGLU (3 matrices) vs plain fc1/fc2
  norm: 'rmsnorm' | 'layernorm';
  /** Norm modules per layer (2 usual, 4 for Gemma-2/3). */
  normsPerLayer: number;
  tiedEmbeddings: boolean;
  qkvBias: boolean;
  oBias: boolean;
  mlpBias: boolean;
  /** Learned absolute positions (GPT-2, BERT): n_positions x h parameters. */
  positionEmbeddings?: number;
  /** BERT token-type embeddings. */
  typeVocab?: number;
  /** Qwen3-style per-head q/k norms. */
  qkNorm?: boolean;
  maxContext?: number;
  moe?:
    | {
        experts: number; // E
        expertsPerToken: number; // k
        expertFfn: number; // f_e
        sharedExperts: number;
        sharedFfn: number; // intermediate size of one shared expert
        denseLayers: number; // first_k_dense_replace: dense layers before MoE ones
        /** every n-th layer is MoE (moe_layer_freq); 1 = all non-dense layers */
        layerFreq: number;
        routerBias?: boolean; // e_score_correction_bias
        /** Qwen2-MoE: sigmoid gate Linear(h, 1) on the shared expert. */
        sharedExpertGate?: boolean;
      }
    | undefined;
  mla?: {
    qLoraRank: number | null;
    kvLoraRank: number;
    qkNopeHeadDim: number;
    qkRopeHeadDim: number;
    vHeadDim: number;
  };
  /** BERT-style pooler after the encoder: one h×h Linear with bias. */
  pooler?: boolean;
  /** Encoder-decoder (T5): `layers` counts encoder blocks; the decoder adds this many blocks with cross-attention. */
  encoderDecoder?: { decoderLayers: number } | undefined;
  /** T5 relative-position bias: buckets × heads parameters in the first block of each stack. */
  relPosBuckets?: number;
  /** Multimodal: parameters of the vision tower and its projector (e.g. Gemma-3's SigLIP), counted in `other`. */
  visionParams?: number;
  /** Multimodal: the vision tower's forward shape and how many prompt tokens an image becomes (model/vision.ts). */
  vision?: VisionTower;
  /** Sliding-window attention: window size and how many of the L layers use it. */
  slidingWindow?: { window: number; layers: number };
  /** config.json names its own modeling code (`auto_map` → AutoModelForCausalLM): trust_remote_code models. */
  remoteCode?: boolean;
  /** ALiBi position bias instead of rotary positions (Baichuan-13B's modeling file: a per-head mask buffer). */
  alibi?: boolean;
  /** Baichuan2's NormHead: the LM head's weight is replaced by its row-normalised copy at the first eval call. */
  normHead?: boolean;
  /** Gemma-2 `final_logit_softcapping`: logits = tanh(logits / c) · c before the loss (tanh saves its output) */
  logitSoftcap?: boolean;
  /** Gemma-2 `attn_logit_softcapping`: the eager attention scores go through tanh (saved, s² per head) */
  attnSoftcap?: boolean;
  /** Hybrid / linear-attention model: recurrent mixer layers next to (or instead of) attention (model/hybrid.ts). */
  hybrid?: HybridArch;
  /**
   * An MLP activation whose saves differ from a fused GELU / SiLU's (training/act-saves.ts): composed
   * by transformers from Python tensor ops (activations.py), or ReLU; absent: a fused kernel (F.gelu, F.silu, …).
   */
  mlpAct?: MlpAct;
  /**
   * Whether the residual branches drop out in training, from config.json (`resid_pdrop`,
   * `hidden_dropout`, `residual_dropout`, `hidden_dropout_prob`, OPT's `dropout`) where it says;
   * absent: the config class's default (families.ts `residDropout`).
   */
  residDropout?: boolean;
}

/**
 * The MLP activation as transformers runs it (activations.py ACT2CLS): 'fused', one kernel
 * (F.gelu, F.silu, …; what an absent field means), or composed from Python tensor ops:
 * - 'tanh-gelu': `gelu_new` (NewGELUActivation; GPT-2, GPT-J, GPT-Neo, CodeGen, Phi-1/2, T5 v1.1's
 *   gated-gelu) and `gelu_python_tanh`: 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)));
 * - 'fast-gelu': `gelu_fast` (FastGELUActivation): 0.5·x·(1 + tanh(x·0.7978845608·(1 + 0.044715·x·x)));
 * - 'quick-gelu': `quick_gelu` (QuickGELUActivation): x·sigmoid(1.702·x);
 * - 'relu': `relu` (nn.ReLU; OPT, T5 v1.0): one kernel, but its backward reads the result
 *   (derivatives.yaml `relu: threshold_backward(grad, result, 0)`), so it saves its output, not its input.
 */
export type MlpAct = 'fused' | 'tanh-gelu' | 'fast-gelu' | 'quick-gelu' | 'relu';

/**
 * A vision tower as it runs at inference (model/vision.ts reads it from `vision_config`): a ViT of
 * `layers` pre-norm blocks of width `hidden` (plain fc1/fc2 MLP of `ffn`) over the patches of
 * each image, then a projector into the language model's prompt.
 */
export interface VisionTower {
  hidden: number;
  layers: number;
  heads: number;
  ffn: number;
  /** patch side in pixels */
  patch: number;
  /** square side the processor resizes every image to (CLIP / SigLIP `image_size`); null: dynamic resolution */
  imageSize: number | null;
  /** prompt tokens per image at a fixed size (LLaVA: the patches; Gemma-3: `mm_tokens_per_image`) */
  tokensPerImage: number | null;
  /** dynamic resolution (Qwen2-VL): merge × merge patches become one prompt token; the processor's pixel bounds */
  merge: { side: number; minPixels: number; maxPixels: number } | null;
  /** a class token is prepended to the patches (CLIP) */
  classToken: boolean;
  /** every layer's hidden states are kept through the forward (output_hidden_states: LLaVA's vision_feature_layer −2) */
  keepsAllHidden: boolean;
  /** attention runs image by image (Qwen2-VL splits the packed patches by cu_seqlens), not as one batch */
  perImageAttention: boolean;
}

/** What one block of a hybrid model holds; `count` blocks share it (sum of counts = layers). */
export interface HybridBlock {
  /** softmax attention (holds a KV cache) */
  attn: boolean;
  /** recurrent mixer (holds conv + SSM / delta state) */
  ssm: boolean;
  ffn: 'dense' | 'moe' | 'none';
  count: number;
}

/**
 * Recurrent mixer of a hybrid model, from its config fields. Mamba-1 (Jamba), Mamba-2 (Bamba,
 * granite-4.0-h, Nemotron-H, Falcon-H1, Zamba2), Gated DeltaNet (Qwen3-Next) or RWKV-7 time mixing.
 */
export interface HybridArch {
  mixer: 'mamba' | 'mamba2' | 'gdn' | 'rwkv7';
  blocks: HybridBlock[];
  /** mamba: expand·h; mamba2: heads·head_dim; gdn: value heads·value head dim; rwkv7: value_dim */
  dInner: number;
  /** mamba / mamba2: d_state N; gdn: key head dim; rwkv7: head_dim */
  dState: number;
  /** mamba2: SSM heads; gdn: value heads; rwkv7: heads (hidden / head_dim); mamba: 0 */
  ssmHeads: number;
  /** mamba2: n_groups (B and C groups); gdn: key heads; mamba: 0 */
  groups: number;
  /** depthwise conv1d kernel size (rwkv7: 1, the token shift keeps one previous token) */
  convKernel: number;
  /** mamba: dt_rank; others 0 */
  dtRank: number;
  convBias: boolean;
  projBias: boolean;
  /** mamba2: gated RMSNorm of d_inner before out_proj (Falcon-H1 only with mamba_rms_norm) */
  gatedNorm: boolean;
  /** the cache keeps the SSM state in fp32 whatever the model dtype (config mamba_ssm_cache_dtype) */
  stateFp32: boolean;
  /** attention q_proj also emits a sigmoid output gate: 2·a·d outputs (Qwen3-Next) */
  attnGate: boolean;
  /** Zamba2: transformer blocks shared by the attention layers (model/hybrid-shared.ts) */
  shared?: SharedBlocks;
  /** RWKV-7: ranks of the low-rank decay (w), in-context rate (a), value-residual (v) and gate (g) projections */
  lowRank?: { w: number; a: number; v: number; g: number };
}

/**
 * Zamba2's shared transformer blocks (transformers models/zamba2/modeling_zamba2.py): `blocks`
 * (num_mem_blocks) attention + MLP blocks reading concat(hidden, embeddings), applied in turn at
 * the attention layers, each use with its own low-rank adapters of rank `adapterRank`.
 */
export interface SharedBlocks {
  blocks: number;
  adapterRank: number;
  /** q/k/v adapters too (use_shared_attention_adapter); the MLP's gate_up adapter is always built */
  attnAdapter: boolean;
}

/** Where a term's number comes from: shown verbatim on the page (Explain). */
export interface Derivation {
  /** Symbolic formula, language-neutral, e.g. "2 · L · g · d · s · b · bytes_kv". */
  formula: string;
  /** The user's values for each symbol in the formula. */
  values: Record<string, number | string>;
  /** Citation: paper (arXiv id) or repository file. */
  source: string;
  /** How much to trust it. */
  confidence: 'exact' | 'derived' | 'heuristic' | 'guess';
  /** Optional message code (translated by the UI) with parameters. */
  note?: Message;
}

/** A translatable message: a stable code plus parameters; `text` is the English default. */
export interface Message {
  code: string;
  params?: Record<string, number | string> | undefined;
  text: string;
}

export type TermId =
  | 'weights'
  | 'lora-adapters'
  | 'kv-cache'
  | 'kv-held'
  | 'recurrent-state'
  | 'activations'
  | 'vision-encoder'
  | 'logits'
  | 'workspace'
  | 'gradients'
  | 'optimizer'
  | 'master-weights'
  | 'dequant-buffer'
  | 'load-copy'
  | 'model-buffers'
  | 'comm-buffers'
  | 'zero-grad-buffers'
  | 'zero-gathered-params'
  | 'zero-step-grads'
  | 'cuda-context'
  | 'allocator-reserve'
  | 'engine-reserve'
  | 'text-encoding'
  | 'denoising'
  | 'vae-decode';

/** Which total a term belongs to: allocated ⊂ reserved ⊂ device. */
export type TermLevel = 'allocated' | 'reserved' | 'device';

export interface Term {
  id: TermId;
  bytes: number;
  level: TermLevel;
  derivation: Derivation;
}

export interface ParamCounts {
  total: number;
  trainable: number;
  /** per-token active (MoE: k of E experts) */
  active: number;
}

export interface GpuFit {
  id: string;
  capacityBytes: number;
  fits: boolean;
  headroomBytes: number;
}

export interface EngineInfo {
  /** vLLM: tokens of KV cache that fit in the pre-allocated pool. */
  kvTokens?: number;
  /** vLLM: kvTokens / max_model_len. */
  concurrency?: number;
  /** llama.cpp: layers on the GPU. */
  gpuLayers?: number;
  /** llama.cpp over several GPUs: repeating layers on each GPU, first to last (the output layer sits with the last non-empty one) */
  layersPerGpu?: number[];
  /** llama.cpp: host RAM the run holds (inference/llamacpp.ts hostMemory) */
  host?: HostMemory;
}

/** llama.cpp host memory by part (bytes); `bytes` is their sum. */
export interface HostMemory {
  bytes: number;
  /** token_embd (always on the host) and, with -ngl ≤ L, output.weight */
  embeddingAndOutput: number;
  /** the repeating layers not offloaded */
  layers: number;
  /** their KV cells */
  kv: number;
  /** CPU compute buffer (layers or output on the host), CUDA_Host compute buffer and the logits output buffer */
  buffers: number;
}

export interface Estimate {
  params: ParamCounts;
  terms: Term[];
  /** torch.cuda.max_memory_allocated */
  allocatedBytes: number;
  /** torch.cuda.max_memory_reserved */
  reservedBytes: number;
  /** what nvidia-smi shows: reserved + CUDA context (+ non-torch). Fit decisions use this. */
  deviceBytes: number;
  engine?: EngineInfo;
  /** split=layers, or llama.cpp over several GPUs: the allocated bytes of each GPU, first to last (the totals above are the largest) */
  perGpu?: number[];
  /**
   * lengths=varied, from the replay (timeline/index.ts estimateWithReplay): reserved bytes at the
   * 10th and 90th percentile of the drawn orders of the lengths (`orders` of them), the spread the
   * order alone makes
   */
  orderSpread?: { p10: number; p90: number; orders: number };
  /** Things the user should know (shape guesses, unknown terms). */
  notes: Message[];
}

/** A validation problem tied to one scenario key, for display next to the field. */
export interface FieldError {
  key: string;
  code: string;
  message: string;
  params?: Record<string, number | string>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/**
 * Parameter counts by role, from the architecture (src/core/model/params.ts).
 * Storage formats quantize some roles and not others, so estimates need the split.
 */
export interface ParamBreakdown {
  total: number;
  /** per-token active parameters (MoE: shared + k routed experts). */
  active: number;
  /** token embedding (+ learned position / type embeddings) */
  embedding: number;
  /** untied LM head (0 when tied) */
  lmHead: number;
  /** weights of nn.Linear layers inside the blocks (what GPTQ/AWQ/bnb quantize) */
  blockLinear: number;
  /** norms, biases, routers and other 1-D/small tensors, never quantized */
  other: number;
  /** largest single Linear weight (elements): QLoRA dequant buffer, FSDP unit size */
  largestLinear: number;
  /** parameters of one transformer block (largest if they differ) */
  perLayer: number;
}

/**
 * One fully validated scenario: the single schema shared by the URL, the CLI and the core.
 * External spelling (URL / CLI flags) is kebab-case, e.g. gradCkpt <-> `grad-ckpt`.
 */
export interface Scenario {
  /** preset HF id (e.g. 'meta-llama/Llama-2-7b-hf'), 'custom' (arch below), or '' (bare count in `params`) */
  model: string;
  /** bare parameter count for quick mode, e.g. 7e9 from '7b' */
  params: number | null;
  /** custom architecture, or overrides applied on top of the preset */
  arch: Partial<ModelArch> | null;
  mode: Mode;
  /** image generation: classifier-free guidance ('auto' = the pipeline's default) */
  cfg: Cfg;
  /** image generation: diffusers enable_model_cpu_offload */
  offloadModel: OffloadModel;
  method: Method;
  weights: WeightFormat;
  kv: KvFormat;
  engine: Engine;
  batch: number;
  /** inference: prompt tokens */
  prompt: number;
  /** inference: generated tokens */
  gen: number;
  /** training: sequence length */
  seq: number;
  precision: Precision;
  optimizer: Optimizer;
  gradCkpt: GradCkpt;
  /** training: micro-batches accumulated per optimizer step (gradient_accumulation_steps) */
  gradAccum: number;
  /** training: gradients freed ('none') or kept as zeros ('zeros') between steps */
  gradZero: GradZero;
  /** training: optimizer step implementation (its temporaries at the step) */
  optimImpl: OptimImpl;
  /** nf4 / fp4 weights: dtype the dequantized weight is cast to for the matmul */
  bnbCompute: BnbCompute;
  /** bitsandbytes 4-bit double quantization (schema DOUBLE_QUANTS) */
  doubleQuant: DoubleQuant;
  /** bitsandbytes release line for 4-bit training (schema BNB_VERSIONS): whether MatMul4Bit keeps its input */
  bnbVersion: BnbVersion;
  /** GPTQ / AWQ group size (null: 128) */
  groupSize: number | null;
  /** GPTQ act-order (desc_act) */
  descAct: DescAct;
  /** GPTQ kernel transformers loads (formats/gptq-kernel.ts) */
  gptqKernel: GptqKernel;
  /** transformers QuantizedCache residual_length (tokens kept unquantized; QuantizedCacheConfig default 128) */
  kvResidual: number;
  /** vision-language inference: images per sequence */
  images: number;
  /** square image side in pixels; null = the model's native size */
  resolution: number | null;
  attn: Attn;
  /** training: torch.compile of the layers (Inductor recomputes cheap pointwise ops in backward) */
  compile: CompileMode;
  /** training: optimizer step after backward, or fused into backward per parameter */
  optimStep: OptimStep;
  /** training: saved activations offloaded to CPU (saved-tensor hooks) */
  actOffload: ActOffload;
  /** training: chunks of the LM-head output / cross-entropy (torchtune CEWithChunkedOutputLoss: 8); 1 = unchunked */
  lossChunks: number;
  /** which code path computes the logits and the loss (LogitsPath); 'auto' resolves per model */
  logitsPath: LogitsPath;
  /** training: every sample at `seq`, or varied lengths truncated at seq (reserved from a replay) */
  lengths: Lengths;
  /** lengths=varied: mean sample length in tokens; null = seq/2 */
  lenMean: number | null;
  /** lengths=varied: lognormal σ of the sample lengths */
  lenSpread: number;
  /** PYTORCH_CUDA_ALLOC_CONF of the replay (expandable = expandable_segments:True) */
  allocConf: AllocConf;
  loraRank: number;
  loraTargets: LoraTarget[];
  /** LoRA dropout probability on the adapter input (PEFT `lora_dropout`, default 0) */
  loraDropout: number;
  /** LoRA adapter element type under pure 16-bit training */
  adapterDtype: AdapterDtype;
  /** 16-bit training: torch.autocast around the forward (HF Trainer with bf16/fp16=True) */
  autocast: Autocast;
  /** LoRA over a quantized base: PEFT prepare_model_for_kbit_training (fp32 upcast of the unquantized parameters) */
  kbitPrep: KbitPrep;
  /** LoRA: PEFT modules_to_save (a trainable copy of the embedding / LM head) */
  loraSave: LoraSave;
  /** data-parallel world size times tp times pp: total GPUs */
  gpus: number;
  zero: ZeroStage;
  tp: number;
  pp: number;
  /** 'layers': one process, model spread over all `gpus` by transformers device_map="auto" (accelerate) */
  split: LayerSplitMode;
  offload: Offload;
  /** framework behind `zero`: DeepSpeed (its buffers, below) or FSDP */
  zeroImpl: ZeroImpl;
  /** DeepSpeed reduce_bucket_size (elements); null = HF Trainer 'auto' (hidden²) */
  dsReduceBucket: number | null;
  /** DeepSpeed stage3_prefetch_bucket_size (elements); null = HF 'auto' (0.9·hidden²) */
  dsPrefetchBucket: number | null;
  /** DeepSpeed stage3_param_persistence_threshold (elements); null = HF 'auto' (10·hidden) */
  dsPersistThreshold: number | null;
  /** DeepSpeed stage3_max_live_parameters (elements) */
  dsMaxLive: number;
  /** DeepSpeed stage3_max_reuse_distance (elements) */
  dsReuseDistance: number;
  /** DeepSpeed overlap_comm (ZeRO-1/2: a second reduce buffer) */
  dsOverlapComm: OverlapComm;
  /** GPU catalogue id ('' = none chosen), e.g. 'a100-80gb' */
  gpu: string;
  /** vLLM gpu_memory_utilization */
  gpuUtil: number;
  /** llama.cpp layers on GPU (-ngl); null = all */
  ngl: number | null;
  /** llama.cpp --tensor-split: one non-negative weight per GPU; null = by free memory (equal for identical cards) */
  tensorSplit: number[] | null;
  /** llama.cpp n_ubatch / vLLM max_num_batched_tokens style prefill chunk; null = engine default */
  ubatch: number | null;
  /** training: model FLOPs utilisation assumed by the step-time bound (0–1] */
  mfu: number;
}
