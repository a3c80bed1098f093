/**
 * The shape of HF transformers' prompt pass (which models hf-prefill.ts and hf-prefill-gemma2.ts lay
 * out, and with what sizes), kept apart from the allocator events themselves so the closed form
 * (inference/transformers.ts) reads it without pulling the step replay's sequence into the page's
 * first load. Sources as in hf-prefill.ts.
 */
import type { ModelArch } from '../types';
import { sdpaRepeatsKv, slideEvery, windowMasked } from '../sdpa';

/** One allocator event of the sequence: allocate `bytes` as `id`, free `id`, or rename `id` to `to`. */
export type PrefillOp = { op: 'alloc'; id: string; bytes: number } | { op: 'free'; id: string } | { op: 'rename'; id: string; to: string };

/** The shapes the sequence needs (one GPU, batch b, a prompt of s tokens). */
export interface PrefillShape {
  /**
   * whose forward: LlamaModel's (hf-prefill.ts), Phi3Model's (hf-prefill.ts with the fused qkv and
   * gate_up projections), Gemma2Model's (hf-prefill-gemma2.ts), or a model's own file
   * (remote-prefill.ts: ChatGLM2/3's `ChatGLMModel`, Baichuan-13B's ALiBi `BaichuanModel`, Qwen-1's
   * `QWenModel` under SDPA, or with its own 8-bit cache and eager `_attn`)
   */
  forward: 'llama' | 'phi3' | 'gemma2' | OwnForward;
  b: number;
  s: number;
  /** bytes per activation element (2: bf16 / fp16) */
  e: number;
  /** bytes per cached K / V element: e, or Qwen-1's 8-bit cache with its scale and zero point, 1 + 2e/d */
  kvBytes: number;
  hidden: number;
  heads: number;
  kvHeads: number;
  headDim: number;
  ffn: number;
  vocab: number;
  qkNorm: boolean;
  /** tokens a sliding layer's cache keeps (0: no sliding layers) */
  window: number;
  /** layer i slides when i % slideEvery = 0: 1, every layer (Mistral); 2, the even ones (Gemma-2's `layer_types`) */
  slideEvery: number;
  /** keys the sliding-window mask spans (0: SDPA runs `is_causal` without a mask in every layer) */
  maskKv: number;
  /** SDPA gets K and V repeated to all heads in a layer with the mask / without one */
  repeatKv: { masked: boolean; causal: boolean };
  /** eager attention (hf-prefill.ts `eagerCall`): the scores in fp16 (softmax upcasts in one kernel) or not; null under SDPA */
  eager: { fp16: boolean } | null;
  /** Baichuan2's `NormHead`: its first call replaces the head's weight by a normalised copy */
  normHead: boolean;
}

/** The remote-code files whose prompt pass remote-prefill.ts lays out (inference/remote-runtime.ts names them). */
export type OwnForward = 'chatglm2' | 'baichuan-alibi' | 'qwen' | 'qwen-kv8';

const LLAMA_FAMILIES = new Set(['llama', 'qwen2', 'qwen3', 'mistral']);

/**
 * The detailed sequence covers the Llama-style dense decoder (RMSNorm, gated MLP, RoPE), Phi-3's
 * (the same with fused projections; laid out as full rotary) and Gemma-2 (hf-prefill-gemma2.ts) in
 * 16-bit.
 */
export function prefillShape(arch: ModelArch, b: number, s: number, e: number, eager: { fp16: boolean } | null = null): PrefillShape | null {
  const gemma2 = arch.family === 'gemma2';
  const phi3 = arch.family === 'phi3';
  const llamaLike = (LLAMA_FAMILIES.has(arch.family) || phi3) && arch.normsPerLayer === 2;
  if (!(llamaLike || gemma2) || e !== 2 || !arch.gatedMlp || arch.norm !== 'rmsnorm' || arch.moe || arch.mla || arch.hybrid || arch.encoderDecoder || arch.positionEmbeddings) return null;
  // eager is laid out for the Llama-style forward (Gemma-2's softcapped eager path is not)
  if (eager && gemma2) return null;
  const masked = s > 1 && windowMasked(arch, s);
  return shapeOf(arch, b, s, e, {
    forward: gemma2 ? 'gemma2' : phi3 ? 'phi3' : 'llama',
    kvBytes: e,
    qkNorm: arch.qkNorm === true,
    window: arch.slidingWindow?.window ?? 0,
    slideEvery: slideEvery(arch),
    maskKv: masked ? s : 0,
    repeatKv: { masked: sdpaRepeatsKv(arch, true), causal: sdpaRepeatsKv(arch, false) },
    eager,
    normHead: false,
  });
}

/** What a pass sets beyond the model's widths. */
type PassTraits = Pick<PrefillShape, 'forward' | 'kvBytes' | 'qkNorm' | 'window' | 'slideEvery' | 'maskKv' | 'repeatKv' | 'eager' | 'normHead'>;

/** A shape from the model's widths and a pass's traits (one literal, so every shape has the same layout). */
export function shapeOf(arch: ModelArch, b: number, s: number, e: number, t: PassTraits): PrefillShape {
  return {
    forward: t.forward,
    b,
    s,
    e,
    kvBytes: t.kvBytes,
    hidden: arch.hidden,
    heads: arch.heads,
    kvHeads: arch.kvHeads,
    headDim: arch.headDim,
    ffn: arch.ffn,
    vocab: arch.vocab,
    qkNorm: t.qkNorm,
    window: t.window,
    slideEvery: t.slideEvery,
    maskKv: t.maskKv,
    repeatKv: t.repeatKv,
    eager: t.eager,
    normHead: t.normHead,
  };
}

export const FP32 = 4;

/**
 * Families whose HF model computes one rotary cos / sin pair of the full head_dim before its layers
 * (`LlamaRotaryEmbedding`); `FalconModel.forward` calls its `FalconRotaryEmbedding` the same way,
 * ALiBi models included (modeling_falcon.py).
 */
const ROPE_FAMILIES = new Set(['llama', 'qwen2', 'qwen3', 'mistral', 'mixtral', 'qwen3_moe', 'phi3', 'gemma2', 'falcon']);

/** Width of HF's rotary cos and sin (b·s·width each, held through the layers); 0 where not read from source. */
export function hfRopeDim(arch: ModelArch): number {
  return ROPE_FAMILIES.has(arch.family) ? arch.headDim : 0;
}
