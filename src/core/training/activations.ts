/**
 * Activation memory saved for backward (formulas.md §5).
 *
 * - GPT/BERT-style layers (LayerNorm, plain GeLU MLP, dropout): Korthikanti et al. 2022
 *   (arXiv 2205.05198) §4.1, generalised to any a·d, g, f and element size e:
 *   per layer s·b·[(2h + h + (a + 2g)·d + a·d + h + 2f)·e + 2h] + a·s²·b·(2e + 1) — with
 *   h = a·d, g = a, f = 4h, e = 2 this is sbh(34 + 5as/h).
 * - Llama-style layers (RMSNorm, gated MLP, no dropout): formulas.md §5.3,
 *   s·b·e·[4h + 2·a·d + 2·g·d + 4f] (8h + 4ad + 4gd + 8f at e = 2) for fused norms; the eager
 *   RMSNorm's fp32 upcast adds 4·sbh per norm (see layerActivation). Eager attention adds the
 *   fp32 softmax output plus its 16-bit copy fed to the PV matmul: b·a·s²·(4 + e).
 * - Tensor parallel without sequence parallel (Korthikanti Table 2): norm outputs/inputs and
 *   masks stay replicated, the attention and MLP internals divide by t.
 * - Checkpointing: 'full' keeps each layer's input (s·b·h·e) plus one recomputed layer;
 *   'selective' recomputes only the attention core (drops the s² terms).
 */
import type { Attn, GradCkpt, ModelArch } from '../types';
import { FAMILIES } from '../model/families';
import { moeLayerCount } from '../model/tensors';

export interface LayerActivation {
  /** bytes that scale with s (linear part) */
  linear: number;
  /** bytes of the s² attention-score part (0 with flash / SDPA kernels) */
  scores: number;
  style: 'llama' | 'gpt';
  formula: string;
}

/** Llama-style (no dropout) when the MLP is gated or the norm is RMSNorm. */
export function layerStyle(arch: ModelArch): 'llama' | 'gpt' {
  return arch.gatedMlp || arch.norm === 'rmsnorm' ? 'llama' : 'gpt';
}

/** Intermediate width per token of one layer's MLP (MoE: k routed experts + shared ones). */
export function mlpWidth(arch: ModelArch, moeLayer: boolean): number {
  const m = arch.moe;
  if (!m || !moeLayer) return arch.ffn;
  return m.expertsPerToken * m.expertFfn + m.sharedExperts * m.sharedFfn;
}

/**
 * Element sizes of saved activations.
 * - `e`: matmul inputs/outputs (2 B under AMP or 16-bit training, 4 B in fp32);
 * - `eRes`: the residual stream that norms read (4 B whenever the parameters are fp32, i.e.
 *   fp32 and AMP: fp32 + 16-bit adds promote to fp32);
 * - `eSoftmax`: eager softmax output (autocast runs softmax in fp32 under AMP).
 */
export interface ActDtypes {
  e: number;
  eRes: number;
  eSoftmax: number;
}

/** Dtypes for a uniform precision (no AMP): everything in `e`. */
export const uniform = (e: number): ActDtypes => ({ e, eRes: e, eSoftmax: e });

/**
 * Extra 16-bit copies of the normalised hidden state that AMP saves per token and layer, in
 * elements. Under autocast an fp32 norm output is cast to 16-bit by every Linear that reads it,
 * and only leaf parameters' casts are cached (aten/src/ATen/autocast_mode.cpp `cached_cast`:
 * `arg.is_leaf() && arg.requires_grad()`), so separate q, k and v projections save three copies
 * and separate gate / up projections two, where the base formula counts one each. Fused
 * projections (FAMILIES `fusedQkv`, `fusedGateUp`: GPT-2's c_attn, Phi-3's qkv_proj / gate_up_proj)
 * read it once. MLA's q_a / kv_a projections are two readers. 0 unless the residual stream is
 * wider than the matmul dtype (AMP).
 */
export function ampCastCopies(arch: ModelArch, dt: ActDtypes): number {
  if (dt.eRes <= dt.e) return 0;
  const traits = FAMILIES[arch.family];
  const attnReaders = arch.mla ? 2 : traits?.fusedQkv ? 1 : 3;
  const mlpReaders = arch.gatedMlp && !traits?.fusedGateUp ? 2 : 1;
  return (attnReaders - 1 + mlpReaders - 1) * arch.hidden;
}

/**
 * Bytes one layer saves for backward at micro-batch b, sequence s.
 * Llama-style norms are the eager HF / torchtune RMSNorm, which upcasts: it saves the fp32 input
 * copy and the normalised tensor (4 + eRes), and the next Linear saves its own input (e) —
 * formulas.md §5.3 notes this adds about 4·sbh per norm to the fused-kernel count.
 * GPT-style LayerNorm (native kernel) saves its input (eRes); the next Linear its input (e).
 */
export function layerActivation(arch: ModelArch, s: number, b: number, dt: ActDtypes, attn: Attn, tp: number, moeLayer = false): LayerActivation {
  const t = Math.max(1, tp);
  const { hidden: h, heads: a, kvHeads: g, headDim: d } = arch;
  const { e, eRes, eSoftmax } = dt;
  const f = mlpWidth(arch, moeLayer);
  const sb = s * b;
  const materialised = attn === 'eager';
  // AMP cast copies are made after the (tp-replicated) norm, by each rank for its own Linears
  const casts = ampCastCopies(arch, dt) * e;
  if (layerStyle(arch) === 'llama') {
    const mlpTensors = arch.gatedMlp ? 4 : 2;
    const norms = 2 * (4 + eRes + e) * h + casts;
    const linear = sb * (norms + (e * (2 * a * d + 2 * g * d + mlpTensors * f)) / t);
    // HF eager: softmax(dtype=float32) output, then its cast to the query dtype for the PV matmul
    const scores = materialised ? (b * a * s * s * (e >= 4 ? 4 : 4 + e)) / t : 0;
    return { linear, scores, style: 'llama', formula: 's·b·(2·(4 + e_res + e)·h + e·c·h + e·(2ad + 2gd + 4f)/t) [+ b·a·s²·(4+e)/t eager]; c = AMP cast copies' };
  }
  const linear = sb * (2 * (eRes + e) * h + casts + (e * (2 * a * d + 2 * g * d + 2 * f)) / t + 2 * h);
  // softmax output, 1-byte dropout mask, dropout output (or its 16-bit cast under AMP) for the PV matmul
  const scores = materialised ? (b * a * s * s * (eSoftmax + 1 + e)) / t : 0;
  return { linear, scores, style: 'gpt', formula: 's·b·(2·(e_res + e)·h + e·c·h + e·(2ad + 2gd + 2f)/t + 2h) [+ a·s²·b·(e_sm + 1 + e)/t eager]; c = AMP cast copies' };
}

/**
 * Korthikanti et al. 2022 Table 2, per-layer bytes (16-bit activations, 1-byte masks).
 * Used to cross-check `layerActivation` in tests.
 */
export function korthikantiTable2(s: number, b: number, h: number, a: number, t: number, setting: 'none' | 'tp' | 'tp-sp' | 'tp-selective' | 'tp-sp-selective' | 'full'): number {
  const sbh = s * b * h;
  switch (setting) {
    case 'none': return sbh * (34 + (5 * a * s) / h);
    case 'tp': return sbh * (10 + 24 / t + (5 * a * s) / (h * t));
    case 'tp-sp': return (sbh / t) * (34 + (5 * a * s) / h);
    case 'tp-selective': return sbh * (10 + 24 / t);
    case 'tp-sp-selective': return (34 * sbh) / t;
    case 'full': return 2 * sbh;
  }
}

export interface ActivationTotal {
  bytes: number;
  perLayer: number;
  style: 'llama' | 'gpt';
  formula: string;
}

/** Layers of activations one GPU keeps: 1F1B keeps p micro-batches × L/p layers ≈ L (Korthikanti §4.2.3). */
function totalLayers(arch: ModelArch): number {
  return arch.layers + (arch.encoderDecoder?.decoderLayers ?? 0);
}

/** Whole-model saved activations for one micro-batch under a checkpointing mode. */
export function activationBytes(arch: ModelArch, s: number, b: number, dt: ActDtypes, attn: Attn, ckpt: GradCkpt, tp: number): ActivationTotal {
  const L = totalLayers(arch);
  const moe = Math.min(L, moeLayerCount(arch));
  const dense = layerActivation(arch, s, b, dt, attn, tp, false);
  const sparse = moe > 0 ? layerActivation(arch, s, b, dt, attn, tp, true) : dense;
  const maxLayer = Math.max(dense.linear + dense.scores, sparse.linear + sparse.scores);
  // final norm input + LM-head input
  const head = s * b * arch.hidden * (dt.eRes + dt.e);
  let bytes: number;
  let formula: string;
  if (ckpt === 'full') {
    bytes = L * s * b * arch.hidden * dt.eRes + maxLayer + head;
    formula = 'L·s·b·h·e_res + A_layer (one layer recomputed) + s·b·h·(e_res + e)';
  } else {
    const keepScores = ckpt === 'none' ? 1 : 0;
    bytes = (L - moe) * (dense.linear + keepScores * dense.scores) + moe * (sparse.linear + keepScores * sparse.scores) + head;
    formula = `L·A_layer${ckpt === 'selective' ? ' (attention core recomputed: no s² term)' : ''} + s·b·h·(e_res + e); A_layer = ${dense.formula}`;
  }
  return { bytes, perLayer: maxLayer, style: dense.style, formula };
}

/**
 * LM-head logits and cross-entropy (formulas.md §5.3, HF ForCausalLMLoss): 16-bit logits (e),
 * their fp32 upcast (4) and the fp32 log-softmax (4) coexist: peak s·b·V·(e + 4 + 4) for e < 4;
 * held into backward: logits + log-softmax output, s·b·V·(e + 4). fp32 training skips the upcast.
 */
export function logitsBytes(s: number, b: number, vocab: number, e: number): { peak: number; held: number } {
  const sbv = s * b * vocab;
  return { peak: sbv * (e + 4 + (e < 4 ? 4 : 0)), held: sbv * (e + 4) };
}
