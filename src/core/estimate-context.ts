/**
 * What the per-mode term builders (inference/terms.ts, training/terms.ts) receive from
 * estimate(): the validated scenario plus the resolved model, and what they hand back.
 */
import type { Derivation, EngineInfo, Message, ModelArch, ParamBreakdown, Scenario, Term, TermId, TermLevel } from './types';
import { CUBLAS_WORKSPACE, cublasWorkspaceBytes, type TensorGroup } from './runtime';
import { derive, evaluate, mul, sym, type DerivationInfo, type Expr } from './formula';
import type { ActivationTotal } from './training/activations';
import type { LossSequence } from './training/loss';
import type { TiedGrad } from './training/tied-grad';
import type { AmpCopies } from './training/amp-cache';
import type { LayerPlans } from './training/layer-plan';
import type { LayerSplit } from './inference/device-map';
import type { PrefillShape } from './inference/hf-prefill-shape';
import type { ScoreTensors } from './inference/transient';
import type { ImageGrid } from './model/vision-tokens';

/** Weight bytes of the whole model in the scenario's storage format, split by placement. */
export interface WeightParts {
  total: number;
  /** transformer blocks (all L layers) */
  blocks: number;
  embedding: number;
  /** untied LM head (0 when tied) */
  head: number;
  /**
   * bytes of each repeating layer, summing to `blocks` (GGUF: its per-layer tensor types, the
   * norms and other small tensors shared evenly); absent when every layer weighs blocks / L
   */
  perLayer?: readonly number[];
  derivation: Derivation;
}

export interface Ctx {
  s: Scenario;
  arch: ModelArch;
  params: ParamBreakdown;
  weights: WeightParts;
  /** the architecture was guessed from a bare parameter count */
  guessed: boolean;
  /** KV bytes per element for s.kv */
  kvElementBytes: number;
  /** device capacity when a GPU is chosen (vLLM fills it) */
  capacityBytes: number | null;
  /** split=layers over several GPUs: accelerate's device_map="auto" placement (inference/device-map.ts) */
  split: LayerSplit | null;
  /**
   * Training under split=layers: the modules of the GPU being priced (training/layer-split.ts);
   * absent for a whole model (or a pipeline stage, which `pp` describes)
   */
  stage?: { embedding: boolean; head: boolean };
  /**
   * Vision-language inference with images: what one image becomes (model/vision-tokens.ts) and
   * how many each sequence holds. `s.prompt` then already counts their image tokens, so the KV
   * cache, prefill and logits see them; `textPrompt` is the prompt the user gave.
   */
  images?: { grid: ImageGrid; perSeq: number; textPrompt: number };
}

/** A builder's result: terms, the peak of live bytes, and the tensors live at that peak. */
export interface Built {
  terms: Term[];
  /** ≈ torch.cuda.max_memory_allocated (or the engine's allocation) */
  allocatedBytes: number;
  /** tensors live at the peak, for the allocator's segment rounding */
  live: TensorGroup[];
  /** split=layers: allocated bytes of every GPU (the estimate is the largest) */
  perGpu?: number[];
  /** engine bookkeeping beyond the caching allocator (vLLM fill) */
  engineReserveBytes?: number;
  /** false for runtimes without PyTorch's caching allocator (llama.cpp) */
  torchAllocator: boolean;
  engine?: EngineInfo;
  /** parameters updated by training (0 at inference) */
  trainable: number;
  /**
   * Share of the model's weight tensors this GPU holds, in parameters (tp, pp, ZeRO-3), where the
   * weights term's bytes per parameter differ from the weight format's: a full fine-tune's term
   * is in its working dtype (AMP: the 16-bit copies of fp32 parameters). Absent: the weights
   * term's bytes over the format's total.
   */
  weightShare?: number;
  /** device memory outside PyTorch's caching allocator (bitsandbytes paged state): device total only */
  outsideAllocatorBytes?: number;
  /** training: the quantities of each phase of one step, for the step timeline (core/timeline) */
  phases?: TrainingPhases;
  /** transformers inference: the quantities of prefill and decode, for the timeline */
  inference?: InferencePhases;
  notes: Message[];
}

/** What inference/transformers.ts adds up at prefill and decode, per GPU (bytes). */
export interface InferencePhases {
  weights: number;
  workspace: number;
  /** KV-holding layers on this GPU (0: no cache, encoder-only) */
  layers: number;
  kvPrompt: number;
  kvFull: number;
  /** what a remote file's prompt-pass cache entries hold beyond their K and V, until the first decode step (remote-runtime.ts OwnCache) */
  promptViews: number;
  /** a remote file's tuple cache: each decode step's old cache is freed only when the step returns */
  tupleCache: boolean;
  /** largest forward transient of the prompt pass / of one decode step */
  prefill: number;
  decode: number;
  /** the prompt pass's largest transient's eager score tensors (Transient.scores), the rest one block; null: one block */
  prefillScores: ScoreTensors | null;
  /** bytes per key² of a decode step's held mask, part of `decode` at the last step's keys (remote-runtime.ts `decodeMaskPerKey2`) */
  decodeMaskPerKey2: number;
  /** GPTQ kernel buffers allocated at load (formats/gptq-kernel.ts) */
  kernel: number;
  /** a remote-code model's own buffers (inference/remote-runtime.ts `remoteBuffers`) */
  buffers: number;
  /** the vision tower's forward before the prefill (inference/vision-encoder.ts); 0 without images */
  vision: number;
  prompt: number;
  gen: number;
  atPrefill: number;
  atDecode: number;
  /** the prompt pass tensor by tensor (inference/hf-prefill.ts), where its source applies; else one block per layer */
  sequence: PrefillShape | null;
}

/**
 * The quantities training/terms.ts combines into its peak, by phase, per GPU (bytes). The
 * closed form and the step timeline (core/timeline/training.ts) both read these, so they agree.
 */
export interface TrainingPhases {
  /** weights on the GPU: the frozen base, or the trained weights of a full fine-tune */
  weights: number;
  /** LoRA / QLoRA adapter weights */
  adapters: number;
  /** fp32 master copy */
  master: number;
  /** optimizer states in the caching allocator (created by the first optimizer step) */
  optimizer: number;
  /** DDP buckets / ZeRO reduce bucket */
  comm: number;
  workspace: number;
  /** all trainable gradients (0 when stepped in backward) */
  gradients: number;
  /**
   * How the gradients live: 'step' — made by the backward (with accumulation, the first
   * micro-step's: AccumulateGrad keeps the incoming tensor as `.grad`,
   * torch/csrc/autograd/functions/accumulate_grad.h; later ones add into it) and freed by
   * zero_grad(set_to_none=True) after the optimizer step (torch/optim/optimizer.py `zero_grad`);
   * 'kept' — made by the first backward, zeroed in place by zero_grad(set_to_none=False), never
   * freed; 'setup' — held buffers allocated before the first step (DeepSpeed's flat buffers, ZeRO /
   * FSDP, pipeline and device_map stages: not followed tensor by tensor).
   */
  gradsLife: 'setup' | 'step' | 'kept';
  /** LM-head gradient, the first one backward makes (full fine-tune) */
  headGrad: number;
  /** decoder (and encoder) blocks on this GPU: all of them, or a split=layers GPU's */
  layers: number;
  /** embedding gradient, made after the layers' (full fine-tune, untied) */
  embedGrad: number;
  /** a tied embedding's gradient sum at its backward (training/tied-grad.ts) */
  tiedGrad: TiedGrad;
  /** AMP's 16-bit weight copies when they live in autocast's cache (training/amp-cache.ts), else null (in `weights`) */
  ampCopies: AmpCopies | null;
  /** weight-gradient bytes each layer's backward makes (training/layer-backward.ts) */
  layerGrad: number;
  /** optimizer step in backward: the largest gradient and its step temporary */
  inBackward: { gradient: number; temp: number } | null;
  acts: ActivationTotal;
  /** one layer's forward in order (training/layer-plan.ts: LoRA's loraLayerPlan, a full fine-tune's fullLayerPlan); null: not laid out */
  layerPlan: LayerPlans | null;
  /**
   * the attention mask the model's forward builds before its layers (training/terms.ts
   * attentionMask): `count` masks (one per layer type), each the bool (b, 1, s, s) and for eager
   * attention its additive copy in e_res (float, 0 for SDPA); absent: none laid out
   */
  attnMask?: { bool: number; float: number; count: number };
  logits: { peak: number; held: number; backward: number; headBackward: number; sequence?: LossSequence };
  /** ZeRO-3 gathered units (current + prefetch) */
  gathered: number;
  /** bitsandbytes dequantized weight of the largest Linear */
  dequant: number;
  /** optimizer step temporary (foreach list or one tensor) */
  stepTemp: number;
  atForward: number;
  atBackward: number;
  /** inside the layers' backward (training/layer-backward.ts) */
  atLayers: number;
  atStep: number;
}

/**
 * Builds a Term from one expression: its bytes are the expression's value, and the formula and
 * values shown for it are read from the same expression. A guessed architecture downgrades
 * shape-dependent terms to 'guess'.
 */
export function term(ctx: Pick<Ctx, 'guessed'>, id: TermId, expr: Expr, info: DerivationInfo, level: TermLevel = 'allocated', shapeDependent = true): Term {
  const guessed = ctx.guessed && shapeDependent;
  const note = guessed && !info.note ? { code: 'term.guessed-shape', text: 'Shape guessed from the parameter count; pick a preset for exact numbers.' } : info.note;
  const bytes = evaluate(expr);
  const derivation: Derivation = derive(expr, { values: info.values, source: info.source, confidence: guessed ? 'guess' : info.confidence, note });
  // bytes are whole numbers: a fractional share (bits per weight, a GPU's part of a tensor) rounds up
  return { id, bytes: Number.isFinite(bytes) && bytes > 0 ? Math.ceil(bytes) : 0, level, derivation };
}

/** The cuBLAS workspaces PyTorch allocates through the caching allocator (runtime.ts): one per handle. */
export function workspaceTerm(ctx: Pick<Ctx, 'guessed'>, handles = 1): Term {
  return term(
    ctx,
    'workspace',
    handles === 1 ? CUBLAS_WORKSPACE : mul(sym('handles', handles), CUBLAS_WORKSPACE),
    {
      // the size on compute capability 9 and later, counted for every card; before Hopper it is smaller
      values: { sm90_bytes: cublasWorkspaceBytes(9), before_sm90_bytes: cublasWorkspaceBytes(8) },
      source: 'aten/src/ATen/cuda/CublasHandlePool.cpp parseChosenWorkspaceSize, setWorkspaceForHandle (one workspace per handle and stream); training: + autograd’s device thread (runtime.ts)',
      confidence: 'derived',
    },
    'allocated',
    false,
  );
}
