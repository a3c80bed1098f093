/**
 * Largest transient buffer of one forward pass in eager PyTorch (HF transformers) — formulas.md
 * §3.2. Layers run one after another and free their temporaries, so only the biggest set of
 * tensors alive at one moment matters.
 *
 * Derived from the HF Llama/Qwen2 forward (modeling_llama.py / modeling_qwen2.py):
 * - At a gated MLP, `down_proj(act(gate_proj(x)) * up_proj(x))` holds act(·), up(·) and the
 *   product together: 3·s·b·f·e. A plain MLP holds fc1 output and activation: 2·s·b·f·e.
 * - Hidden states alive at that moment (`hiddenRows`): HF keeps the model's `inputs_embeds`, the
 *   layer input held by the caller, the residual and the normed MLP input: 4·s·b·h·e. vLLM's fused
 *   add-RMSNorm keeps three (residual, normed input, attention output): see vllm.ts.
 * - Eager attention materialises the scores (`eagerScoreBytes`: bf16 QKᵀ with the fp32 copy and
 *   result of the softmax, e + 8 bytes per element; fp16 2e + 4), plus HF's 4-D causal mask:
 *   b·a·s_q·s_kv·(bytes per score) + b·s_q·s_kv·e. Flash/SDPA kernels keep O(s) (except where SDPA
 *   falls back to its math kernel, sdpa.ts `sdpaRunsMath`: b·a·s_q·s_kv·9 bytes),
 *   but SDPA gets a mask tensor when the model has a sliding window shorter than the keys:
 *   transformers masking_utils.py `sdpa_mask` skips the mask (`is_causal`) only for a plain causal
 *   pattern (`_ignore_causal_mask_sdpa`: no padding and no `local_attention_size` below kv_length),
 *   otherwise (`local_attention_size` ≤ kv_length) it builds a (b, 1, s_q, s_kv) bool tensor that
 *   lives through the layers: b·s_q·s_kv bytes (Mistral-7B-v0.1, window 4096, 32,768-token prompt:
 *   1 GiB; our H200 generate run g020 measured 1.17 GiB above the count without it).
 * - A layer that gets that mask runs a heavier SDPA call (the `attention-mask` set):
 *   transformers integrations/sdpa_attention.py `sdpa_attention_forward` passes `enable_gqa` only
 *   when `use_gqa_in_sdpa` holds (no mask and head_dim ≤ 256), else `repeat_kv` copies K and V out
 *   to all a heads: 2·b·a·s_kv·d·e. PyTorch's `scaled_dot_product_attention`
 *   (aten/src/ATen/native/transformers/attention.cpp, `convert_boolean_attn_mask`) turns the bool
 *   mask into an additive one of the query's dtype for the fused kernels: b·s_q·s_kv·e more, freed
 *   when the call returns. With the query b·a·s_q·d·e and the output b·a·s_q·d·e, and one hidden
 *   row fewer than at the MLP (the attention input is normed; the residual sum not yet made). The
 *   last such call is the last sliding layer's: where full layers follow it (Gemma-2's last layer),
 *   their K and V are not yet cached (`absentAtMask`).
 * - HF's rotary position embeddings: `LlamaModel.forward` makes `position_embeddings = self.rotary_emb(...)`
 *   once, cos and sin of b·s·d_rope in the activation dtype, and holds them through every layer
 *   (modeling_llama.py `LlamaRotaryEmbedding.forward`): 2·b·s·d_rope·e at the MLP and mask moments
 *   (`ropeDim`; 0 for models without RoPE and for vLLM, whose rotary cache is a weight-like buffer).
 *   Our H200 generate runs: measured minus the count without it grows by 16.5 MiB from a 1,024- to a
 *   32,768-token prompt on Llama-3.1-8B, where cos and sin grow by 15.5 MiB.
 * - Logits: b·rows·V·bytes, rows and bytes per logit from the logits path (logits-path.ts):
 *   `generate` on transformers ≥ 4.45 computes only the last position (logits_to_keep) plus its
 *   fp32 copy, b·V·(e + 4); older and remote-code models compute every prompt position.
 */
import type { Attn, ModelArch, WeightFormat } from '../types';
import { FAMILIES, ownEagerHeld } from '../model/families';
import { SDPA_MATH_BYTES, sdpaRepeatsKv, sdpaRunsMath, windowMasked } from '../sdpa';
import { add, div, evaluate, max, mul, sub, sym, type Expr } from '../formula';
import { mlpF, quantMlp, type QuantLinear } from './quant-linear';

export interface Transient {
  bytes: number;
  /** which buffer set is the largest */
  kind: 'mlp' | 'attention-scores' | 'attention-mask' | 'logits';
  /** the largest set's bytes as an expression over s, s_kv, b, h, f, a, V, e, t */
  expr: Expr;
  /**
   * the set's score tensors, where the set is several of them (eager attention): the step timeline
   * allocates them as the tensors they are (score-pieces.ts `scorePieces`), whose freed segments
   * serve later requests as the real ones do, and the rest of the set as one block. Absent: one block.
   */
  scores?: ScoreTensors;
}

/**
 * An attention's materialised [b, a, q, k] tensors: `elems` elements each (per GPU), in dtype `e`
 * with fp16 activations or not; `by` names whose code makes them: a family's eager path (families.ts
 * `eager`, else transformers' `eager_attention_forward`), a remote file whose scores are all tensors
 * of the model dtype (remote-runtime.ts), or SDPA's math kernel.
 */
export interface ScoreTensors {
  elems: number;
  e: number;
  fp16: boolean;
  by: { family: string } | 'remote' | 'sdpa-math';
}

/** How a runtime's forward differs from HF transformers' Llama-like one. */
export interface ForwardOptions {
  /** hidden-state tensors alive at the MLP (4 in HF, `hiddenRowsExpr`) */
  hiddenRows?: number;
  /** bytes per logit of the logits set (default e + 4: the last position's fp32 copy) */
  perLogit?: number;
  /** rotary dims whose cos and sin the model holds through the layers (0: none) */
  ropeDim?: number;
  /**
   * cache bytes the caller counts that do not exist yet at the last masked call (the layers after
   * the last sliding one, sdpa.ts `layersAfterLastSliding`), taken off that set
   */
  absentAtMask?: Expr;
  /** the activations are fp16 (`fp16Activations`): eager softmax upcasts in one kernel */
  fp16?: boolean;
  /** a fused gate-up projection's output stays referenced through act and product (`mlpTemporaries`); false for vLLM's SiluAndMul */
  fusedMlpHeld?: boolean;
  /** how a quantized checkpoint's Linears run this forward (quant-linear.ts); null: as plain Linears */
  quant?: QuantLinear | null;
}

/** Peak temporary bytes of a forward over `s` new tokens (attending to `kvTokens`), per GPU. */
export function forwardTransient(arch: ModelArch, s: number, kvTokens: number, b: number, e: number, attn: Attn, tp: number, logitRows: number, o: ForwardOptions = {}): Transient {
  const { hiddenRows = 4, perLogit = e + 4, ropeDim = 0, absentAtMask = 0, fp16 = false, fusedMlpHeld = true, quant = null } = o;
  const { S, B, E, T } = forwardSymbols(s, b, e, tp);
  const rows = hiddenRowsExpr(arch, hiddenRows, S, B, E);
  const hiddenStates = ropeDim > 0 ? add(rows, mul(2, B, S, sym('d_rope', ropeDim), E)) : rows;
  // SDPA with a sliding window no longer than the keys: transformers materialises the mask
  const masked = attn === 'sdpa' && s > 1 && windowMasked(arch, kvTokens);
  const windowMask = masked ? mul(B, S, sym('s_kv', kvTokens)) : 0;
  // eager: the decoder layer keeps the attention's probabilities (`hidden_states, _ = self.self_attn(...)`)
  // until it returns, and a loop that keeps the previous block's tuple holds that block's as well;
  // the 4-D causal mask lives through every layer
  const probs = attn === 'eager' ? add(div(mul(B, sym('a', arch.heads), S, sym('s_kv', kvTokens), E, FAMILIES[arch.family]?.eager?.previous ? 2 : 1), T), mul(B, S, sym('s_kv', kvTokens), E)) : 0;
  const plainMlp = mlpTemporaries(arch, S, B, E, T, fusedMlpHeld);
  const mlpExpr = add(hiddenStates, quant ? max(plainMlp, quantMlp(arch, quant, S, B, E, T, fp16)) : plainMlp, windowMask, probs);
  const mlp = evaluate(mlpExpr);
  const logitsExpr = logitsSet(arch, B, logitRows, perLogit, T);
  const logits = evaluate(logitsExpr);
  const maskSet = masked ? maskedSdpa(arch, S, sym('s_kv', kvTokens), B, E, T, hiddenRows - 1, windowMask, ropeDim) : 0;
  const maskExpr = masked && absentAtMask !== 0 ? sub(maskSet, absentAtMask) : maskSet;
  const maskBytes = evaluate(maskExpr);
  if (maskBytes > mlp && maskBytes > logits) return { bytes: maskBytes, kind: 'attention-mask', expr: maskExpr };
  // the [b, a, q, k] tensors an eager call or SDPA's math kernel materialises, elements each per GPU
  const scoreElems = (b * arch.heads * s * kvTokens) / Math.max(1, tp);
  if (attn === 'sdpa' && sdpaRunsMath(arch)) {
    const Skv = sym('s_kv', kvTokens);
    const mathExpr = add(attentionHeld(arch, hiddenRows - 1, ropeDim, S, Skv, B, E, T), div(mul(B, sym('a', arch.heads), S, Skv, SDPA_MATH_BYTES), T), mathInputs(arch, S, Skv, B, T));
    const math = evaluate(mathExpr);
    if (math >= mlp && math >= logits) return { bytes: math, kind: 'attention-scores', expr: mathExpr, scores: { elems: scoreElems, e, fp16, by: 'sdpa-math' } };
  }
  if (attn === 'eager') {
    const Skv = sym('s_kv', kvTokens);
    const scoresExpr = add(attentionHeld(arch, hiddenRows - 1, ropeDim, S, Skv, B, E, T), div(mul(B, sym('a', arch.heads), S, Skv, familyEagerScoreBytes(arch, e, fp16)), T), mul(B, S, Skv, E));
    const scores = evaluate(scoresExpr);
    if (scores >= mlp && scores >= logits) {
      return { bytes: scores, kind: 'attention-scores', expr: scoresExpr, scores: { elems: scoreElems, e, fp16, by: { family: arch.family } } };
    }
  }
  if (logits > mlp) return { bytes: logits, kind: 'logits', expr: logitsExpr };
  return { bytes: mlp, kind: 'mlp', expr: mlpExpr };
}

/**
 * What an attention call that materialises its scores (eager, or SDPA's math kernel) holds beside
 * them (transformers `eager_attention_forward`, inside the decoder layer): the hidden rows less the residual sum not yet made, the rotary cos and
 * sin, the rotated query, and K and V repeated to every head (`repeat_kv` copies when g < a; with
 * g = a it returns the cache's own tensors); a fused q/k/v projection's output, of which V is a
 * view (modeling_phi3.py `Phi3Attention.forward` slices `qkv`). Our H200 runs (eager, bf16):
 * Llama-3.2-1B at 4,096 tokens and Qwen2.5-1.5B at 2,048 measured 33.5 MB and 14 MB above the
 * four-row count — the query and the two repeated tensors less one row, 2·b·s·h·e for both —
 * and Phi-3-mini at 2,048 38 MB, its qkv output of 2,048 × 9,216. The files with their own eager
 * path (families.ts `eager`) never call `repeat_kv`; GPT-J's `_attn` holds fp32 copies of q and of
 * the whole K (`query.to(torch.float32)`, `key.to(torch.float32)`).
 */
function attentionHeld(arch: ModelArch, rows: number, ropeDim: number, S: Expr, Skv: Expr, B: Expr, E: Expr, T: Expr): Expr {
  const rope = ropeDim > 0 ? [mul(2, B, S, sym('d_rope', ropeDim), E)] : [];
  const q = mul(B, S, sym('a', arch.heads), sym('d', arch.headDim), E);
  const repeated = !arch.mla && arch.kvHeads < arch.heads && !FAMILIES[arch.family]?.eager ? [allHeads(arch, Skv, B, E)] : [];
  const fused = FAMILIES[arch.family]?.fusedQkv ? [mul(B, S, add(sym('a', arch.heads), mul(2, sym('g', arch.kvHeads))), sym('d', arch.headDim), E)] : [];
  // GPT-J's _attn holds the fp32 copies of q and of the whole K beside its fp32 scores
  const upcast = FAMILIES[arch.family]?.eager?.softmax === 'fp32-scores' ? [mul(B, sym('a', arch.heads), add(S, Skv), sym('d', arch.headDim), 4)] : [];
  return add(hiddenRowsExpr(arch, rows, S, B, E), ...rope, div(add(q, ...repeated, ...fused, ...upcast), T));
}

/**
 * What SDPA's math kernel (attention.cpp `_scaled_dot_product_attention_math`, core/sdpa.ts
 * `sdpaRunsMath`) holds beside its scores, as C++ locals until it returns: the fp32 copies of q, k
 * and v (`query_.to(at::kFloat)`: `allow_fp16_bf16_reduction_math_sdp` is off by default), q and kᵀ
 * times the scale, and under `is_causal` the [s, s_kv] bool `tril` turned into an fp32 additive
 * mask (`convert_boolean_attn_mask`). Falcon-7B at 2,048 tokens: 2 · 2,048 · 4,544 · 4 + 3 · 2,048 ·
 * 64 · 4 + 2,048² · 4 = 92.7 MB.
 */
function mathInputs(arch: ModelArch, S: Expr, Skv: Expr, B: Expr, T: Expr): Expr {
  const d = sym('d', arch.headDim);
  const q = mul(2, B, S, sym('a', arch.heads), d, 4);
  const kv = mul(3, B, Skv, sym('g', arch.kvHeads), d, 4);
  return add(div(add(q, kv), T), mul(S, Skv, 4));
}

/**
 * Bytes per element of the [b, a, q, k] scores alive together at an eager attention's
 * `softmax(scores, dim=-1, dtype=torch.float32).to(dtype)` (transformers `eager_attention_forward`,
 * and the CLIP / remote-code files written the same way). ATen's `softmax(input, dim, dtype)`
 * (aten/src/ATen/native/SoftMax.cpp) reads fp16 and writes fp32 in one kernel (`half_to_float`)
 * only for Half on CUDA; any other input is first converted with `toType(dtype)`. So a bf16 score
 * matrix has its fp32 copy and the fp32 result beside it, e + 8 bytes per element; fp16 scores hold
 * the fp32 result and then its 16-bit copy, 2e + 4; fp32 converts nothing, 2e. Our H200 runs
 * (src/validation/fixtures/measured-remote.json): Llama-3.2-1B eager at a 4,096-token prompt peaked
 * 1.074 GB higher in bf16 than in fp16, one 2-byte copy of its 32 × 4,096² scores.
 * `fp16`: the activations are fp16 (`fp16Activations`).
 */
export function eagerScoreBytes(e: number, fp16: boolean): Expr {
  const E = sym('e', e);
  if (e >= 4) return mul(2, E);
  return fp16 ? add(mul(2, E), 4) : add(E, 8);
}

/**
 * Bytes per score element at an eager softmax for `arch`: transformers' `eager_attention_forward`
 * (`eagerScoreBytes`), or the family's own path (families.ts `eager`): a softmax in the model dtype
 * holds its input and output, 2e; GPT-J's fp32 scores their input and output, 8; then the tensors
 * of the model dtype the file keeps beside them, e each. Falcon-7B in bf16: 2·2 + 2·2 = 8 (its raw
 * scores and the previous block's probabilities); Bloom: 2 + 8 + 2·2 = 14; GPT-2: 4; GPT-J: 8 + 2.
 */
export function familyEagerScoreBytes(arch: ModelArch, e: number, fp16: boolean): Expr {
  const own = FAMILIES[arch.family]?.eager;
  if (!own) return eagerScoreBytes(e, fp16);
  const E = sym('e', e);
  const base = own.softmax === 'fp32' ? eagerScoreBytes(e, fp16) : own.softmax === 'fp32-scores' ? 8 : mul(2, E);
  const held = ownEagerHeld(own);
  return held > 0 ? add(base, mul(held, E)) : base;
}

/**
 * Whether a model in weight format `w` runs its activations in fp16: fp16 weights, and GPTQ / AWQ
 * checkpoints, whose kernels take fp16 inputs (transformers' GPTQ and AWQ quantizers set
 * torch_dtype=float16). Everything else 16-bit runs bf16, the dtype current configs store.
 */
export function fp16Activations(w: WeightFormat): boolean {
  return w === 'fp16' || w.startsWith('gptq') || w.startsWith('awq');
}

/**
 * One masked SDPA call at its output: the hidden rows, the bool mask, its additive copy
 * (b·s·s_kv·e), the query and output (b·a·s·d·e each) and, with grouped KV heads, K and V
 * repeated to every head (2·b·a·s_kv·d·e; without grouping SDPA reads the cache's own K and V).
 */
function maskedSdpa(arch: ModelArch, S: Expr, Skv: Expr, B: Expr, E: Expr, T: Expr, rows: number, boolMask: Expr, ropeDim: number): Expr {
  const repeated = sdpaRepeatsKv(arch, true) ? allHeads(arch, Skv, B, E) : 0;
  const rope = ropeDim > 0 ? [mul(2, B, S, sym('d_rope', ropeDim), E)] : [];
  return add(hiddenRowsExpr(arch, rows, S, B, E), ...rope, boolMask, mul(B, S, Skv, E), div(add(allHeads(arch, S, B, E), repeated), T));
}

/*
 * The pieces every forward's moments are built from, shared with the remote-code models' own
 * forwards (remote-runtime.ts), so one formula holds each.
 */

/** The symbols of a forward over s new tokens at batch b, element size e, tensor parallel tp. */
export function forwardSymbols(s: number, b: number, e: number, tp: number): { S: Expr; B: Expr; E: Expr; T: Expr } {
  return { S: sym('s', s), B: sym('b', b), E: sym('e', e), T: sym('t', Math.max(1, tp)) };
}

/** `n` hidden-state tensors of the forward: n·s·b·h·e. */
export function hiddenRowsExpr(arch: ModelArch, n: number, S: Expr, B: Expr, E: Expr): Expr {
  return mul(n, S, B, sym('h', arch.hidden), E);
}

/**
 * The MLP's temporaries, per GPU: act(gate), up and their product (3·s·b·f·e), or fc1 and its
 * activation (2·s·b·f·e). A fused gate-up projection (FAMILIES `fusedGateUp`) whose halves are
 * taken with `chunk` keeps its whole 2f-wide output referenced through the activation and the
 * product (transformers modeling_phi3.py `Phi3MLP.forward`: `gate, up_states = up_states.chunk(2)`;
 * ChatGLM2/3 modeling_chatglm.py `swiglu`): 2f + f + f = 4·s·b·f·e (`fusedHeld`). Our H200 runs:
 * Phi-3-mini at a 2,048-token prompt and ChatGLM3-6B at 8,192 measured 33.5 MB and 224 MB, one
 * s·f·e, above the three-tensor count. vLLM's SiluAndMul reads the fused output and writes one f:
 * 3 (`fusedHeld` false).
 */
export function mlpTemporaries(arch: ModelArch, S: Expr, B: Expr, E: Expr, T: Expr, fusedHeld = true): Expr {
  const gated = fusedHeld && FAMILIES[arch.family]?.fusedGateUp ? 4 : 3;
  return div(mul(arch.gatedMlp ? gated : 2, S, B, mlpF(arch), E), T);
}

/** The LM head's logits: b·rows·V·e_logit, per GPU. */
export function logitsSet(arch: ModelArch, B: Expr, rows: number, perLogit: number, T: Expr): Expr {
  return div(mul(B, sym('rows', rows), sym('V', arch.vocab), sym('e_logit', perLogit)), T);
}

/** A tensor at all a heads over `n` positions, twice (q and the output, or K and V): 2·b·n·a·d·e. */
export function allHeads(arch: ModelArch, n: Expr, B: Expr, E: Expr): Expr {
  return mul(2, B, n, mul(sym('a', arch.heads), sym('d', arch.headDim)), E);
}
