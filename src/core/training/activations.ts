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
 * - torch.compile (Inductor): see compiledLlamaLinear; activation offloading: see activationBytes.
 */
import type { Attn, GradCkpt, ModelArch } from '../types';
import { FAMILIES } from '../model/families';
import { mlpWidth, moeLayerCount } from '../model/tensors';
import { glmExpandsKv, hfExpandsKv, sdpaRepeatsKv, sdpaRunsMath, windowMasked } from '../sdpa';
import { add, evaluate, min, mul, sub, sym, type Expr } from '../formula';
import { fusedQkvViewWidth } from './fused-views';
import { actFormula, actSavesBytes, composedActBackward, mlpActSaves, NO_ACT_SAVES, type ActSaves } from './act-saves';

export interface LayerActivation {
  /** bytes that scale with s (linear part) */
  linear: number;
  /** bytes of the s² attention-score part (0 with flash / SDPA kernels) */
  scores: number;
  style: 'llama' | 'gpt';
  formula: string;
  /**
   * How many of the `linear` bytes are token × hidden fp32 tensors (4·s·b·h each) where the matmul
   * dtype is narrower (e < 4): the norms' fp32 tensors. The step replay lays them out at their own
   * size (timeline/training.ts); with e = 4 every tensor is fp32 and this is 0.
   */
  fp32Hidden: number;
  /** f-wide tensors a Python-composed MLP activation saves beyond a fused one's (act-saves.ts) */
  act: ActSaves;
}

/**
 * The fp32 token × hidden tensors of a layer's norms, per layer, when e < 4 (the inventories'
 * 4-byte h-wide terms): the eager RMSNorm (transformers LlamaRMSNorm.forward:
 * `hidden_states.to(torch.float32)`, then `pow(2)` and `*` save it) saves one fp32 copy of its
 * input per norm, and its normalised tensor too where the residual stream is fp32 (e_res = 4: AMP);
 * a native or compiled norm saves only its input, fp32 where e_res = 4. `norms`: norms per layer.
 */
export function fp32HiddenTensors(dt: ActDtypes, norms: number, upcasts: boolean, normalisedFp32 = upcasts && dt.eRes >= 4): number {
  if (dt.e >= 4) return 0;
  const res = dt.eRes >= 4 ? 1 : 0;
  return upcasts ? norms * (1 + (normalisedFp32 ? 1 : 0)) : norms * res;
}

/**
 * Bytes per element of the normalised tensor an eager RMSNorm saves for its trained weight, for an
 * input of `inputBytes`:
 * - LlamaRMSNorm (models/llama/modeling_llama.py, also Qwen2/Qwen3/Mistral):
 *   `self.weight * hidden_states.to(input_dtype)` — the mul saves the cast back to the input dtype
 *   (the fp32 normalised tensor itself when the input is fp32 and the cast is a no-op);
 * - GemmaRMSNorm (models/gemma/modeling_gemma.py, Gemma2RMSNorm, Gemma3RMSNorm):
 *   `output * (1.0 + self.weight.float())` then `.type_as(x)` — the mul runs in fp32 and saves the
 *   fp32 normalised tensor whatever the input dtype (FAMILIES `normScaledFp32`).
 */
export function normalisedBytes(arch: ModelArch, inputBytes: number): number {
  return FAMILIES[arch.family]?.normScaledFp32 ? 4 : inputBytes;
}

/**
 * Bytes per element of its input that an eager RMSNorm keeps besides its fp32 copy: a norm that
 * multiplies the input itself by the rsqrt (families.ts `normSavesInput`: the old LlamaRMSNorm of
 * ChatGLM2/3, Baichuan and InternLM's own files) keeps that 16-bit tensor — the residual stream,
 * which nothing else saves — for the mul's backward. 0 where the input already is fp32 (`.to` then
 * returns it: the one tensor is the copy), for compiled norms (recomputed), and for other norms.
 */
export function normInputBytes(arch: ModelArch, dt: ActDtypes, compiled: boolean): number {
  // the cheap tests first: this runs several times per estimate
  return dt.eRes < 4 && !compiled && FAMILIES[arch.family]?.normSavesInput === true && layerStyle(arch) === 'llama' ? dt.eRes : 0;
}

/**
 * Bytes per token (before tensor parallelism) that the per-head q / k RMSNorms save: Qwen3 and
 * Gemma-3 normalise the projections over head_dim before RoPE (models/qwen3/modeling_qwen3.py
 * Qwen3Attention.forward: `self.q_norm(self.q_proj(hidden_states).view(hidden_shape))`, likewise k;
 * modeling_gemma3.py Gemma3Attention). Each norm's input is the projection's output (element size e):
 * - its fp32 copy, saved by `pow` and `*` (the projection output itself when e = 4);
 * - when the norm weight trains (full fine-tuning), the normalised tensor saved by the weight mul
 *   (normalisedBytes); a frozen weight (LoRA, QLoRA) saves only itself (autograd saves an operand
 *   only for an input that needs a gradient: gen_variable_type.py `should_compute_output`).
 * The norm's output feeds RoPE, whose muls by the constant cos / sin save no copy of it.
 * Compiled (Inductor) layers: 0 — the min-cut partitioner saves the projection output (already in the
 * inventory as the rotated q / k's place) and the per-token rstd, and recomputes the norm and RoPE.
 */
export function qkNormPerToken(arch: ModelArch, e: number, weightTrains: boolean, compiled: boolean): number {
  if (!arch.qkNorm || compiled || arch.mla) return 0;
  const width = (arch.heads + arch.kvHeads) * arch.headDim;
  return width * (4 + (weightTrains ? normalisedBytes(arch, e) : 0));
}

/** Llama-style (no dropout) when the MLP is gated or the norm is RMSNorm. */
export function layerStyle(arch: ModelArch): 'llama' | 'gpt' {
  return arch.gatedMlp || arch.norm === 'rmsnorm' ? 'llama' : 'gpt';
}

/**
 * Element sizes of saved activations.
 * - `e`: matmul inputs/outputs (2 B under AMP or 16-bit training, 4 B in fp32);
 * - `eRes`: the residual stream that norms read (4 B whenever the parameters are fp32, i.e.
 *   fp32 and AMP: fp32 + 16-bit adds promote to fp32);
 * - `eF32`: what autocast's fp32-list ops (softmax without a dtype, pow) output: 4 under
 *   autocast (AMP, or 16-bit weights with autocast on), else e.
 */
export interface ActDtypes {
  e: number;
  eRes: number;
  eF32: number;
}

/**
 * Bytes per element of the input a native LayerNorm saves, and of its output (`native_layer_norm`
 * keeps its input for backward): autocast runs `layer_norm` on its fp32 list
 * (aten/src/ATen/autocast_mode.cpp), so under autocast it normalises — and saves — an fp32 cast of
 * a 16-bit stream and returns fp32; without autocast, the stream as it is (e_res).
 */
export function layerNormBytes(dt: ActDtypes): number {
  return Math.max(dt.eRes, dt.eF32);
}

/**
 * A GPT-style layer's LayerNorms and residual-dropout masks. Each norm keeps its input (e_ln); its
 * output reaches the attention and the MLP Linears, whose inputs (e each) are counted here: two
 * norms one each (GPT-2's ln_1 → attention, ln_2 → MLP), one norm both (the parallel blocks of
 * GPT-J, Phi, Falcon-7B: `ln_1` feeds `attn` and `mlp`, modeling_gptj.py GPTJBlock.forward). The
 * two residual dropouts keep a 1-byte mask each unless config.json's dropout, or else the config
 * class's default (families.ts `residDropout`), is 0.
 */
export function gptNorms(arch: ModelArch): { norms: number; masks: number } {
  const dropout = arch.residDropout ?? FAMILIES[arch.family]?.residDropout ?? true;
  return { norms: Math.max(1, Math.min(2, arch.normsPerLayer)), masks: dropout ? 2 : 0 };
}

/** The per-layer formulas' text for gptNorms: `2·(e_ln + e)·h` and `+ 2h` for the common layout. */
export function gptNormsFormula(g: { norms: number; masks: number }, ln: string): { norms: string; masks: string } {
  return { norms: g.norms === 2 ? `2·(${ln} + e)·h` : `(${ln} + 2e)·h`, masks: g.masks > 0 ? ' + 2h' : '' };
}

/** The per-layer formulas' note where a LayerNorm saves an fp32 cast of its input (layerNormBytes). */
export const LN_NOTE = ', e_ln = 4: autocast’s fp32 copy of the LayerNorm input';

/** Dtypes for a uniform precision (no AMP): everything in `e`. */
export const uniform = (e: number): ActDtypes => ({ e, eRes: e, eF32: e });

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
  if ((layerStyle(arch) === 'gpt' ? layerNormBytes(dt) : dt.eRes) <= dt.e) return 0;
  const traits = FAMILIES[arch.family];
  const attnReaders = arch.mla ? 2 : traits?.fusedQkv ? 1 : 3;
  const mlpReaders = arch.gatedMlp && !traits?.fusedGateUp ? 2 : 1;
  return (attnReaders - 1 + mlpReaders - 1) * arch.hidden;
}

/**
 * Norms per layer beyond the two pre-norms: Gemma-2/3's post-attention and post-feedforward
 * RMSNorms (modeling_gemma2.py Gemma2DecoderLayer). Each upcasts its input to fp32 (saved by pow and
 * mul) and, when its weight trains, saves the normalised tensor; its output goes to the residual
 * add, not to a Linear.
 */
export function extraNorms(arch: ModelArch): number {
  return layerStyle(arch) === 'llama' ? Math.max(0, arch.normsPerLayer - 2) : 0;
}

/**
 * Bytes per eager score element saved beyond the softmax output and its cast: attention-logit
 * softcapping's tanh output (Gemma-2's eager_attention_forward, modeling_gemma2.py), and the masked
 * scores a clamp keeps (families.ts `clampsScores`: InternLM's `torch.max(attn_weights, …)`).
 */
export function extraScoreBytes(arch: ModelArch, e: number): number {
  return (arch.attnSoftcap ? e : 0) + (FAMILIES[arch.family]?.clampsScores ? e : 0);
}

/**
 * Share of the layers whose SDPA call gets a materialised mask in training (transformers
 * masking_utils.py `_ignore_causal_mask_sdpa`: SDPA runs `is_causal` without a mask only for a plain
 * causal pattern with no padding and no local window ≤ kv_length):
 * - padded batches (`padded`: lengths vary and b > 1, so the 2-D attention_mask has zeros): every layer;
 * - a sliding window no longer than the sequence: the sliding layers;
 * - a family whose layers build their own square masks (families.ts `layerMasks`: Qwen-1's
 *   `masked_fill(~causal_mask, finfo.min)` in every layer): every layer;
 * - otherwise none.
 */
export function sdpaMaskedShare(arch: ModelArch, s: number, attn: Attn, padded: boolean): number {
  if (attn !== 'sdpa') return 0;
  if (padded || FAMILIES[arch.family]?.layerMasks) return 1;
  return windowMasked(arch, s) ? Math.min(1, arch.slidingWindow!.layers / Math.max(1, arch.layers)) : 0;
}

/**
 * Elements per token of the K and V that attention saves for backward (before tp). transformers
 * repeats K and V to all a heads with `repeat_kv` (a copy) in `eager_attention_forward`, whose two
 * matmuls save them, and in `sdpa_attention_forward` unless `use_gqa_in_sdpa` holds (no mask and
 * head_dim ≤ 256: `enable_gqa`), so masked SDPA layers save 2·a·d; flash_attention_2 takes the g
 * heads as they are (integrations/sdpa_attention.py, modeling_llama.py; core/sdpa.ts). MLA keeps
 * its own count.
 */
export function savedKvWidth(arch: ModelArch, attn: Attn, maskedShare: number): number {
  const { heads: a, kvHeads: g, headDim: d } = arch;
  // grouped K/V expanded to all heads by the model's own code: Falcon-40B in transformers, ChatGLM2/3 (sdpa.ts)
  if (hfExpandsKv(arch) || glmExpandsKv(arch)) return 2 * a * d;
  // no grouped heads to repeat (g = a, or MLA)
  if (!sdpaRepeatsKv(arch, true)) return 2 * g * d;
  if (attn === 'eager' || (attn === 'sdpa' && sdpaRepeatsKv(arch, false))) return 2 * a * d;
  return 2 * g * d + (attn === 'sdpa' ? maskedShare * 2 * (a - g) * d : 0);
}

/**
 * What SDPA's math kernel saves for backward where the model hands it K and V of fewer heads
 * without `enable_gqa` (core/sdpa.ts `sdpaRunsMath`: transformers' multi-query Falcon). PyTorch's
 * `_scaled_dot_product_attention_math` (aten/src/ATen/native/transformers/attention.cpp) is a
 * composite op, so autograd records the ops it runs: 16-bit q, k and v are copied to fp32 (the
 * default `allow_fp16_bf16_reduction_math_sdp(False)`), q and kᵀ are multiplied by the scale (new
 * fp32 tensors, which the QKᵀ matmul saves), `_safe_softmax` saves its fp32 output, and the PV
 * matmul saves that output and the fp32 v. Per token 4·(a + 2g)·d bytes in place of the q, K and V
 * a fused kernel saves; per layer b·a·s²·4 of probabilities (Falcon-7B at 1,024 tokens: 71 × 1,024²
 * × 4 = 298 MB a layer). Our H200 run n005 traced the same fp32 scores and softmax at generate's peak.
 * Null where SDPA runs a fused kernel. (PyTorch before 2.5 ran the math kernel in the input dtype.)
 */
export function sdpaMathSaves(arch: ModelArch, attn: Attn, s: number, b: number, tp: number): { perToken: number; scores: number } | null {
  if (attn !== 'sdpa' || !sdpaRunsMath(arch)) return null;
  const t = Math.max(1, tp);
  const { heads: a, kvHeads: g, headDim: d } = arch;
  return { perToken: (4 * (a + 2 * g) * d) / t, scores: (b * a * s * s * 4) / t };
}

/**
 * What a GPT-style eager layer saves, at matmul dtype `e` (2 under AMP) and softmax dtype
 * `eF32` (fp32 under autocast): bytes per score element (`perScore`, in the formula's words
 * `text`) and bytes per token beyond the 16-bit q and K (`perToken`).
 * - The rule: the softmax output and, with attention dropout (families.ts `attnDropout`), the 1-byte
 *   mask and the 16-bit dropout output the PV matmul reads; without, the 16-bit cast it reads if the
 *   softmax ran wider than `e` (`nn.functional.dropout` with p = 0 returns its input, ATen
 *   `_dropout_impl`).
 * - Falcon (`softmax(..., dtype=hidden_states.dtype)`, families.ts `eager`): autocast keeps the dtype
 *   given (autocast_mode.cpp `fp32_set_opt_dtype`), so the softmax runs in e and saves its output,
 *   which the PV matmul reads as it is; its rotary path applies no dropout: e per element.
 * - GPT-J (`GPTJAttention._attn`: `query.to(torch.float32)`, `key.to(torch.float32)`): the QKᵀ
 *   matmul saves the fp32 copies, (4 − e)·(a + g)·d more per token than 16-bit q and K — without
 *   autocast. Under autocast `matmul` is on the lower-precision list: it casts the fp32 copies back
 *   to 16-bit and saves those casts, the size counted for q and K (our H200 run t044: two 16 MiB
 *   bf16 blocks per layer from that line, 2,048 tokens × 4,096).
 */
export function gptEagerSaves(arch: ModelArch, eF32: number, e: number): { perScore: number; text: string; perToken: number } {
  const traits = FAMILIES[arch.family];
  const perToken = traits?.eager?.softmax === 'fp32-scores' && eF32 <= e ? Math.max(0, 4 - e) * (arch.heads + arch.kvHeads) * arch.headDim : 0;
  if (traits?.eager?.softmax === 'model-dtype') return { perScore: e, text: 'e', perToken };
  if (traits?.attnDropout !== false) return { perScore: eF32 + 1 + e, text: '(e_sm + 1 + e)', perToken };
  return eF32 > e ? { perScore: eF32 + e, text: '(e_sm + e)', perToken } : { perScore: eF32, text: 'e_sm', perToken };
}

/**
 * What SDPA's math kernel's backward holds beside the probabilities it saved: three fp32 b·a·s²
 * tensors. aten/src/ATen/native/transformers/attention.cpp `_scaled_dot_product_attention_math`
 * runs as composite ops (fp32 since PyTorch 2.5 for 16-bit inputs): `matmul(q, kᵀ·scale)`,
 * `at::_safe_softmax(attn, -1)` (a softmax whose all-masked rows are zeroed), `matmul(attn, v)`.
 * In backward the PV matmul writes the probabilities' gradient and the softmax's backward the
 * scores' gradient; a third tensor of that size is live between them. The count is the one our H200
 * trace of t031 shows (Falcon-7B LoRA, 2,048 tokens, 71 heads): three 1,136 MiB blocks at the first
 * layer's attention backward, 71 × 2,048² × 4 B each.
 */
export function mathBackwardBytes(arch: ModelArch, attn: Attn, s: number, b: number, tp: number): number {
  return 3 * (sdpaMathSaves(arch, attn, s, b, tp)?.scores ?? 0);
}

/** The per-layer formulas' note for the math kernel's saves (sdpaMathSaves). */
export const MATH_FORMULA = ' [+ b·a·s²·4/t and 4·(a + 2g)·d/t per token for the fp32 q, K, V copies: SDPA math kernel]';

/**
 * Bytes per layer (averaged over the layers) of the additive masks that masked SDPA calls save:
 * PyTorch's `scaled_dot_product_attention` (aten/src/ATen/native/transformers/attention.cpp,
 * `convert_boolean_attn_mask`) turns transformers' bool mask into one of the query's dtype in every
 * call, and the fused kernel's autograd node saves it as `attn_bias` (tools/autograd/derivatives.yaml
 * `_scaled_dot_product_efficient_attention`): b·s·s·e per masked layer.
 */
export function savedMaskBytes(s: number, b: number, e: number, maskedShare: number): number {
  return maskedShare * b * s * s * e;
}

/**
 * Bytes one layer saves for backward at micro-batch b, sequence s.
 * Llama-style norms are the eager HF / torchtune RMSNorm, which upcasts: it saves the fp32 input
 * copy and the normalised tensor (4 + eRes), and the next Linear saves its own input (e) —
 * formulas.md §5.3 notes this adds about 4·sbh per norm to the fused-kernel count.
 * GPT-style LayerNorm (native kernel) saves its input (eRes); the next Linear its input (e).
 */
export function layerActivation(arch: ModelArch, s: number, b: number, dt: ActDtypes, attn: Attn, tp: number, moeLayer = false, compiled = false, maskedShare = 0): LayerActivation {
  const t = Math.max(1, tp);
  const { hidden: h, heads: a, headDim: d } = arch;
  const { e, eRes, eF32 } = dt;
  const f = mlpWidth(arch, moeLayer);
  const sb = s * b;
  const materialised = attn === 'eager';
  // v saved as a slice of a fused qkv output keeps the whole output (fused-views.ts)
  const viewed = fusedQkvViewWidth(arch, attn, b, maskedShare);
  const kv = savedKvWidth(arch, attn, maskedShare) + viewed;
  const mask = savedMaskBytes(s, b, e, maskedShare);
  if (compiled) return compiledLayer(arch, sb, b * s * s, dt, f, t, materialised, kv, mask, viewed > 0);
  // the math kernel keeps fp32 q, K, V in place of the 16-bit q, K, V (o_proj's input stays) and its probabilities
  const math = sdpaMathSaves(arch, attn, s, b, t);
  const mathLinear = math ? sb * (math.perToken - (e * (a * d + kv)) / t) : 0;
  const mathScores = math ? math.scores : 0;
  const mathNote = math ? MATH_FORMULA : '';
  // AMP cast copies are made after the (tp-replicated) norm, by each rank for its own Linears
  const casts = ampCastCopies(arch, dt) * e;
  // a Python-composed activation's intermediates (act-saves.ts), per f-wide element
  const act = mlpActSaves(arch, dt);
  const actBytes = actSavesBytes(act, e);
  if (layerStyle(arch) === 'llama') {
    const mlpTensors = arch.gatedMlp ? 4 : 2;
    const n = normalisedBytes(arch, eRes);
    const kept = normInputBytes(arch, dt, false);
    const norms = 2 * (4 + kept + n + e) * h + casts + extraNorms(arch) * (4 + kept + n) * h;
    const qk = qkNormPerToken(arch, e, true, false);
    const linear = sb * (norms + (e * (2 * a * d + kv + mlpTensors * f) + qk + actBytes * f) / t) + mathLinear;
    // HF eager: softmax(dtype=float32) output, then its cast to the query dtype for the PV matmul
    const scores = (materialised ? (b * a * s * s * ((e >= 4 ? 4 : 4 + e) + extraScoreBytes(arch, e))) / t : 0) + mask + mathScores;
    return {
      linear,
      scores,
      style: 'llama',
      fp32Hidden: fp32HiddenTensors(dt, 2 + extraNorms(arch), true, n >= 4),
      act,
      formula: `s·b·(2·(4 + ${kept > 0 ? 'e_res + ' : ''}${n === eRes ? 'e_res' : '4'} + e)·h + n_post·(4 + ${kept > 0 ? 'e_res + ' : ''}${n === eRes ? 'e_res' : '4'})·h + e·c·h + ${qk > 0 ? '(e·(2ad + kv + 4f) + (4 + e_n)·(a + g)·d)' : 'e·(2ad + kv + 4f)'}/t) [+ b·a·s²·(4+e [+ e softcap])/t eager]${maskFormula(viewed > 0)}${mathNote}; c = AMP cast copies, n_post = norms beyond two per layer${qk > 0 ? ', (4 + e_n)·(a + g)·d: the q / k norms’ fp32 copies and normalised tensors' : ''}${actFormula(act, e)}`,
    };
  }
  const eager = gptEagerSaves(arch, eF32, e);
  const upcast = materialised ? eager.perToken : 0;
  const ln = layerNormBytes(dt);
  const g = gptNorms(arch);
  const text = gptNormsFormula(g, ln === eRes ? 'e_res' : 'e_ln');
  const linear = sb * ((g.norms * ln + 2 * e) * h + casts + (e * (2 * a * d + kv + 2 * f) + upcast + actBytes * f) / t + g.masks * h) + mathLinear;
  // softmax output, 1-byte dropout mask, dropout output (or its 16-bit cast under AMP) for the PV matmul
  const scores = (materialised ? (b * a * s * s * eager.perScore) / t : 0) + mask + mathScores;
  return {
    linear,
    scores,
    style: 'gpt',
    fp32Hidden: fp32HiddenTensors({ ...dt, eRes: ln }, g.norms, false),
    act,
    formula: `s·b·(${text.norms} + e·c·h + ${upcast > 0 ? '(e·(2ad + kv + 2f) + (4 − e)·(a + g)·d)' : 'e·(2ad + kv + 2f)'}/t${text.masks}) [+ a·s²·b·${eager.text}/t eager]${maskFormula(viewed > 0)}${mathNote}; c = AMP cast copies${upcast > 0 ? ', (4 − e)·(a + g)·d: the fp32 q and k copies the QKᵀ matmul saves' : ''}${ln === eRes ? '' : LN_NOTE}${actFormula(act, e)}`,
  };
}

/** How the saved K/V and SDPA masks enter the per-layer formulas (savedKvWidth, savedMaskBytes). */
const maskFormula = (viewed: boolean): string =>
  ` [+ m·b·s²·e masked SDPA]; kv = 2gd (2ad eager or masked SDPA with g < a)${viewed ? ' [+ (a + g)d where v is a slice of a fused qkv output]' : ''}, m = share of masked layers`;

/**
 * One layer's saved bytes under torch.compile (AOTAutograd + Inductor). The min-cut partitioner
 * (torch/_functorch/partitioners.py `min_cut_rematerialization_partition`, default config) saves a
 * tensor for backward unless it can recompute it cheaply from other saved tensors. Its rules:
 * (1) matmul and attention outputs are never recomputed (`is_compute_intensive`), nor random ops
 * such as dropout masks (`is_random`); (2) a result that a backward matmul reads must exist in full
 * in backward, so it is saved, not recomputed (`ban_recompute_materialized_backward`): every Linear
 * input; (3) the rest — fusible pointwise chains — is recomputed inside fused backward kernels.
 * Applied to the eager inventory of layerActivation:
 * - norms: the eager RMSNorm's fp32 copy and normalised intermediate are pointwise (recomputed from
 *   the norm input and its per-token fp32 rstd, reductions are not recomputed:
 *   `ban_recompute_reductions`); kept: norm input (e_res) + rstd (4 B/token) + Linear input (e);
 * - AMP: the per-Linear casts of one norm output are identical graph nodes, merged by AOTAutograd's
 *   CSE (torch/_functorch/config.py `cse = True`): one e-sized copy (the Linear input above);
 * - attention: q, k, v and the output stay (matmul / attention-kernel inputs and outputs); the
 *   eager s² scores stay (softmax output feeds the PV matmul);
 * - gated MLP: gate and up outputs (matmul outputs) and their product (down-projection input, read
 *   by its weight-gradient matmul) stay; the SiLU output is recomputed: 3 f-wide tensors, not 4;
 *   a plain MLP keeps both of its tensors (the activation output is the fc2 input);
 * - GPT-style: native LayerNorm already saves only its input; dropout masks stay (random ops),
 *   where the config drops out (gptNorms);
 * - a Python-composed activation (act-saves.ts) is a pointwise chain: recomputed, nothing more saved.
 */
function compiledLayer(arch: ModelArch, sb: number, bss: number, dt: ActDtypes, f: number, t: number, materialised: boolean, kv: number, mask: number, viewed: boolean): LayerActivation {
  const { hidden: h, heads: a, headDim: d } = arch;
  const { e, eRes, eF32 } = dt;
  // per-token norm statistics (rstd, 4 B) are saved in eager too and left out of both counts
  const norms = 2 * (eRes + e) * h;
  if (layerStyle(arch) === 'llama') {
    const mlpTensors = arch.gatedMlp ? 3 : 2;
    const linear = sb * (norms + (e * (2 * a * d + kv + mlpTensors * f)) / t);
    const scores = (materialised ? (bss * a * (e >= 4 ? 4 : 4 + e)) / t : 0) + mask;
    return {
      linear,
      scores,
      style: 'llama',
      fp32Hidden: fp32HiddenTensors(dt, 2, false),
      act: NO_ACT_SAVES,
      formula: `compiled: s·b·(2·(e_res + e)·h + e·(2ad + kv + 3f)/t) [+ b·a·s²·(4+e)/t eager]${maskFormula(viewed)}`,
    };
  }
  const g = gptNorms(arch);
  const linear = sb * ((g.norms * eRes + 2 * e) * h + (e * (2 * a * d + kv + 2 * f)) / t + g.masks * h);
  const scores = (materialised ? (bss * a * gptEagerSaves(arch, eF32, e).perScore) / t : 0) + mask;
  const text = gptNormsFormula(g, 'e_res');
  return {
    linear,
    scores,
    style: 'gpt',
    fp32Hidden: fp32HiddenTensors(dt, g.norms, false),
    act: NO_ACT_SAVES,
    formula: `compiled: s·b·(${text.norms} + e·(2ad + kv + 2f)/t${text.masks}) [+ a·s²·b·(e_sm + 1 + e)/t eager]${maskFormula(viewed)}`,
  };
}

export interface ActivationTotal {
  bytes: number;
  perLayer: number;
  /**
   * Bytes of `bytes` that exist only while a checkpointed layer is recomputed in backward (full
   * checkpointing: one layer), not during the loss; 0 otherwise.
   */
  recompute: number;
  /** saved bytes of the final norm and LM-head input (part of `bytes`) */
  head: number;
  /** layers whose saved tensors (full checkpointing: inputs) are on the GPU at once (offloading: 2) */
  layersOnGpu: number;
  /** fp32 token × hidden tensors of one (dense) layer's inventory (LayerActivation `fp32Hidden`) */
  fp32Hidden: number;
  /** the extra f-wide tensors of one (dense) layer's composed activation (LayerActivation `act`) */
  act: ActSaves;
  /**
   * Bytes of gradients one layer's backward holds beside its saved tensors, the larger of: a
   * composed activation's beyond a fused one's (act-saves.ts composedActBackward); SDPA's math
   * kernel's (mathBackwardBytes). 0 for compiled layers.
   */
  backwardTemp: number;
  style: 'llama' | 'gpt';
  /** `bytes` as an expression over L, s, b, h and the per-layer inventories A_layer (A_moe) */
  expr: Expr;
  /** how A_layer is counted, in words (the per-layer inventory's formula) */
  layerFormula: string;
}

/**
 * Whether a layer's first op saves the layer's input tensor itself rather than a copy of it:
 * LayerNorm (native `layer_norm` saves its input, unless autocast casts a 16-bit stream to fp32
 * first: layerNormBytes) and compiled norms do; the eager RMSNorm's
 * `hidden_states.to(torch.float32)` is a copy unless the stream already is fp32 (AMP, fp32), when
 * `.to` returns the tensor itself. Under full checkpointing that input is the checkpoint's saved
 * one (torch/utils/checkpoint.py), so the recomputed layer does not hold it a second time.
 */
export function inputSavedAsIs(style: 'llama' | 'gpt', compiled: boolean, dt: ActDtypes): boolean {
  return compiled || dt.eRes >= 4 || (style === 'gpt' && layerNormBytes(dt) === dt.eRes);
}

/** Layers of activations one GPU keeps: 1F1B keeps p micro-batches × L/p layers ≈ L (Korthikanti §4.2.3). */
function totalLayers(arch: ModelArch): number {
  return arch.layers + (arch.encoderDecoder?.decoderLayers ?? 0);
}

/** How the layers run and where their saved tensors live. */
export interface ActivationOptions {
  /** torch.compile (Inductor) of the layers: compiledLayer's inventory */
  compiled?: boolean;
  /** saved tensors offloaded to CPU by saved-tensor hooks (torchtune OffloadActivations) */
  offload?: boolean;
  /** per-layer inventory replacing layerActivation's (frozen base Linears: lora-activations.ts) */
  layer?: (moeLayer: boolean) => LayerActivation;
  /** saved bytes per token of the final norm and LM head, replacing h·(e_res + e) */
  headPerToken?: number;
  /** share of the layers whose SDPA call is masked (sdpaMaskedShare) */
  maskedShare?: number;
}

/**
 * Layers whose saved tensors stay on the GPU under activation offloading. torchtune's
 * OffloadActivations (torchtune/training/_activation_offloading.py) copies every saved tensor of
 * at least `min_offload_size` = 1024 B to pinned CPU memory in forward; in backward it brings a
 * tensor back on a side stream when its autograd node runs and frees the previous node's copies
 * once the compute stream is done with them: the tensors in flight are those of the layer being
 * differentiated and the next one being prefetched.
 */
export const OFFLOAD_RESIDENT_LAYERS = 2;

/**
 * Whole-model saved activations for one micro-batch under a checkpointing mode.
 * Offloading (opts.offload): with full checkpointing the tensors saved are the checkpoint inputs
 * (non-reentrant torch.utils.checkpoint saves the layer inputs with `ctx.save_for_backward` in
 * `_NoopSaveInputs`, outside its own hooks, so the offloading hooks see them), so all but OFFLOAD_RESIDENT_LAYERS of them leave the GPU while the recomputed layer stays;
 * without checkpointing every layer's saved tensors leave but those of OFFLOAD_RESIDENT_LAYERS
 * layers. torchtune keeps the LM head out of offloading (its input stays), and the final norm's
 * tensors are the most recent ones, still in flight when backward starts: the head term stays.
 */
export function activationBytes(arch: ModelArch, s: number, b: number, dt: ActDtypes, attn: Attn, ckpt: GradCkpt, tp: number, opts: ActivationOptions = {}): ActivationTotal {
  const L = totalLayers(arch);
  const moe = Math.min(L, moeLayerCount(arch));
  const compiled = opts.compiled === true;
  const layer = opts.layer ?? ((moeLayer: boolean) => layerActivation(arch, s, b, dt, attn, tp, moeLayer, compiled, opts.maskedShare));
  const dense = layer(false);
  const sparse = moe > 0 ? layer(true) : dense;
  const maxLayer = Math.max(dense.linear + dense.scores, sparse.linear + sparse.scores);
  // final norm + LM-head input: an eager RMSNorm keeps its fp32 copy and normalised tensor (as a
  // layer's norms do), a LayerNorm or compiled norm its input
  const kept = normInputBytes(arch, dt, compiled);
  const finalNorm = compiled ? dt.eRes : dense.style === 'llama' ? 4 + kept + normalisedBytes(arch, dt.eRes) : layerNormBytes(dt);
  const head = s * b * (opts.headPerToken ?? arch.hidden * (finalNorm + dt.e));
  const resident = Math.min(L, OFFLOAD_RESIDENT_LAYERS);
  const S = sym('s', s);
  const B = sym('b', b);
  const H = sym('h', arch.hidden);
  const Ls = sym('L', L);
  const E_RES = sym('e_res', dt.eRes);
  const headExpr = opts.headPerToken === undefined ? mul(S, B, H, add(finalNorm === dt.eRes ? E_RES : sym('n_norm', finalNorm), sym('e', dt.e))) : mul(S, B, sym('n_head', opts.headPerToken));
  // the per-layer inventories (layerActivation / lora-activations.ts) enter as their byte counts
  const layerSym = (name: string, x: LayerActivation, keepScores: number) => sym(name, x.linear + keepScores * x.scores);
  let expr: Expr;
  let recompute = 0;
  if (ckpt === 'full') {
    // the recomputed layer's first op saves the checkpoint's input itself where it saves its input
    // as it is: that tensor is already among the L checkpoint inputs
    const again = inputSavedAsIs(dense.style, compiled, dt) || kept > 0 ? s * b * arch.hidden * dt.eRes : 0;
    recompute = maxLayer - again;
    const largest = moe > 0 && sparse.linear + sparse.scores > dense.linear + dense.scores ? layerSym('A_moe', sparse, 1) : layerSym('A_layer', dense, 1);
    const rerun = again > 0 ? sub(largest, mul(S, B, H, E_RES)) : largest;
    expr = add(mul(opts.offload ? sym('L_gpu', resident) : Ls, S, B, H, E_RES), rerun, headExpr);
  } else {
    const keepScores = ckpt === 'none' ? 1 : 0;
    const aDense = layerSym('A_layer', dense, keepScores);
    const aMoe = layerSym('A_moe', sparse, keepScores);
    const all = moe > 0 ? add(mul(sub(Ls, sym('L_moe', moe)), aDense), mul(sym('L_moe', moe), aMoe)) : mul(Ls, aDense);
    const largest = moe > 0 && evaluate(aMoe) > evaluate(aDense) ? aMoe : aDense;
    expr = add(opts.offload ? min(all, mul(sym('L_gpu', resident), largest)) : all, headExpr);
  }
  const bytes = evaluate(expr);
  return {
    bytes,
    perLayer: maxLayer,
    recompute,
    head,
    layersOnGpu: opts.offload ? resident : L,
    fp32Hidden: dense.fp32Hidden,
    act: dense.act,
    backwardTemp: compiled ? 0 : Math.max((composedActBackward(arch, dt) * s * b * mlpWidth(arch, false)) / Math.max(1, tp), mathBackwardBytes(arch, attn, s, b, tp)),
    style: dense.style,
    expr,
    layerFormula: dense.formula + (opts.offload ? `; offloaded to CPU: ${resident} layers in flight on the GPU` : ''),
  };
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
