/**
 * What the 2023–24 chat models that ship their own modeling file (trust_remote_code) allocate under
 * transformers `generate`, besides the weights and the KV cache (whose bytes are any decoder's:
 * each file keeps K and V per layer and grows them with `torch.cat`). Read from each repository's
 * modeling file on the Hugging Face Hub (public copies of the late-2023 revisions):
 *
 * - Qwen-1, `modeling_qwen.py`. `QWenLMHeadModel.__init__` turns `use_flash_attn="auto"` on for
 *   bf16 / fp16 and `QWenAttention.forward` calls flash-attn's varlen kernel when the package imports
 *   (`attn=flash`). Without it, on torch ≥ 2 (`SUPPORT_TORCH2`), each layer makes
 *   `attention_mask.expand(-1, -1, q, -1).masked_fill(~causal_mask, finfo.min)` — a [b, 1, q, k] mask
 *   in the model dtype, the `~causal_mask` bool [1, 1, q, k] beside it — and passes it to
 *   `scaled_dot_product_attention` (`attn=sdpa`, and `attn=eager` too: the file takes its eager
 *   `_attn` only on torch < 2 or with its own 8-bit cache — matmul, `/ full(√d)`, `torch.where`,
 *   `+ mask`, softmax in the model dtype (`softmax_in_fp32` off), `.type(dtype)`, each made while the
 *   last exists, so two [b, a, q, k] tensors at a time). The Hub's last revision (December
 *   2023, the file trust_remote_code loads) builds that bool causal mask in every layer
 *   (`torch.tril(torch.ones((k, k)))`, freed with the layer), where the first ones registered a
 *   max_position_embeddings² `registered_causal_mask` buffer: our H200 run of Qwen-7B held 2.1 MB
 *   of buffers, the logn tables. Buffers: every `QWenAttention` registers `logn_tensor`, 32,767
 *   values cast to the model dtype; the rotary table (`RotaryEmbedding.update_rotary_pos_emb_cache`) holds fp32 cos and sin of
 *   max(2·seqlen, 16) × d, rebuilt at twice the length whenever a longer sequence arrives.
 *   `QWenLMHeadModel.forward` projects every position, in the model dtype. With
 *   `use_cache_quantization` (kv=int8) `_qwen_quantize_cache_v` stores K and V as uint8 with a scale
 *   and a zero point per token and head, and `_attn` dequantizes them (`dequantize_cache_torch`) into
 *   model-dtype K and V in every layer of every forward.
 * - ChatGLM2 / ChatGLM3, `modeling_chatglm.py`. `CoreAttention.forward` on torch ≥ 2 calls
 *   `scaled_dot_product_attention(q, k, v, is_causal=True)` at prefill and without a mask when
 *   decoding, whatever `attn_implementation` says. `SelfAttention.forward` first copies the grouped
 *   K and V out to all heads (`unsqueeze(-2).expand(...).contiguous()`): 2·b·a·k·d·e per layer.
 *   `prepare_inputs_for_generation` sets `return_last_logit`, so the output layer sees the last
 *   position only, in the model dtype.
 * - ChatGLM-6B (the first), `modeling_chatglm.py` `attention_fn`: always eager. The fp16 `baddbmm`
 *   scores stay referenced while `.float()`, `· coeff` (fp32), the fp32 softmax and its `.type(dtype)`
 *   copy are made: 2e + 8 bytes per score element at the last step. `ChatGLMForConditionalGeneration
 *   .forward`: `self.lm_head(hidden_states).permute(1, 0, 2).contiguous()` — the whole prompt's
 *   logits twice. The attention mask is a bool [b, 1, s, s].
 * - Baichuan-13B / Baichuan2-13B (ALiBi), `modeling_baichuan.py`: attention is always eager in the
 *   model dtype (xformers only when training): matmul / √d, + mask, `torch.max`, softmax — two
 *   [b, a, q, k] at a time. `BaichuanModel.get_alibi_mask` registers `future_mask`, heads ×
 *   max_cache_pos² in the embedding's dtype, at the first forward (max_cache_pos = model_max_length,
 *   regrown to the sequence when longer); `BaichuanModel.forward` adds it to the padding mask into a
 *   [b, a, k, k] tensor every forward, decode steps included, held through the layers with the
 *   [b, 1, k, k] `expanded_mask` and `inverted_mask` it was made from (locals of the forward).
 * - Baichuan2-7B (rotary): `scaled_dot_product_attention` with transformers 4.3x's [b, 1, q, k] mask
 *   in the model dtype, held through the layers; every layer's `RotaryEmbedding` keeps fp32
 *   `cos_cached` and `sin_cached` of model_max_length × d on the GPU.
 * - Baichuan2's `NormHead.forward` in eval replaces its weight by `F.normalize(weight)` at the first
 *   call: old and new weight together for a moment during the prompt pass (V·h·e).
 * - InternLM (v1) and InternLM2: eager attention, softmax in fp32 (`softmax(..., dtype=float32)
 *   .to(dtype)`), transformers 4.3x's [b, 1, q, k] mask held through the layers; both offer
 *   flash-attn 2 (`attn=flash`: `INTERNLM_ATTENTION_CLASSES` / `INTERNLM2_ATTENTION_CLASSES`), no
 *   SDPA; InternLM2 copies grouped K and V out with `repeat_kv` and upcasts its logits with `.float()`.
 */
import type { Attn, KvFormat, Message, ModelArch, Scenario } from '../types';
import { inferenceLogits, ownFileLogitsPath, type InferenceLogits } from '../logits-path';
import { allHeads, eagerScoreBytes, forwardSymbols, fp16Activations, hiddenRowsExpr, logitsSet, mlpTemporaries, type Transient } from './transient';
import { add, div, evaluate, max, mul, sym, type Expr } from '../formula';
import { REMOTE_FAMILIES, provideRemote } from './remote-provider';
import { chatglmQuantized } from '../formats/quantized';
import { ownFileAttn } from '../model/remote-families';
import type { OwnForward, PrefillShape } from './hf-prefill-shape';
import { ownPrefillShape } from './remote-prefill';
import { quantLinear, quantMlp, type QuantLinear } from './quant-linear';

export type RemoteKind = 'qwen' | 'chatglm2' | 'chatglm' | 'baichuan-alibi' | 'baichuan-rope' | 'internlm' | 'internlm2';

/** How one layer's attention runs: flash / unmasked SDPA (no score-sized tensors), SDPA with a mask, SDPA after a K/V copy to every head, or eager. */
export type RemoteAttn = 'flash' | 'sdpa' | 'sdpa-masked' | 'sdpa-expand' | 'eager';

export interface RemoteRuntime {
  kind: RemoteKind;
  attn: RemoteAttn;
  /** Qwen-1's own 8-bit K/V cache (`use_cache_quantization`, kv=int8): dequantized every layer */
  cacheQuant: boolean;
  /** the activations are fp16 (transient.ts `fp16Activations`): an fp32 softmax reads them in one kernel */
  fp16: boolean;
  source: string;
}

/** Qwen-1's logn_tensor: `range(1, 32768)`, one value per position. */
export const QWEN_LOGN_POSITIONS = 32_767;
/** Baichuan's default model_max_length. */
const BAICHUAN_MAX_POSITIONS = 4096;

const SOURCE: Record<RemoteKind, string> = {
  qwen: 'Qwen-1 modeling_qwen.py QWenAttention.forward / _attn, RotaryEmbedding, _qwen_quantize_cache_v',
  chatglm2: 'ChatGLM2/3 modeling_chatglm.py CoreAttention.forward (SDPA), SelfAttention.forward (K/V expand), return_last_logit',
  chatglm: 'ChatGLM-6B modeling_chatglm.py attention_fn (fp16 scores, fp32 softmax), ChatGLMForConditionalGeneration.forward',
  'baichuan-alibi': 'Baichuan-13B modeling_baichuan.py BaichuanModel.get_alibi_mask (future_mask), BaichuanModel.forward, BaichuanAttention.forward',
  'baichuan-rope': 'Baichuan2-7B modeling_baichuan.py Attention.forward (SDPA with mask), RotaryEmbedding (fp32 cos/sin cache)',
  internlm: 'InternLM modeling_internlm.py InternLMAttention.forward (eager, fp32 softmax) / InternLMFlashAttention2',
  internlm2: 'InternLM2 modeling_internlm2.py InternLM2Attention.forward (eager, repeat_kv, fp32 softmax) / InternLM2FlashAttention2',
};

/**
 * The family's own runtime, or null for models transformers runs with its own code. Qwen-1 with
 * kv=int8 is its `use_cache_quantization`: `QWenLMHeadModel.__init__` turns flash-attn off for it and
 * `QWenAttention.forward` takes `_attn`, the eager path; without it the file reads no attention
 * setting, so attn=eager runs its SDPA branch (`SUPPORT_TORCH2`), as attn=sdpa does.
 */
export function remoteRuntime(arch: ModelArch, attn: Attn, kv: KvFormat, fp16 = false): RemoteRuntime | null {
  const kind = remoteKind(arch);
  if (!kind) return null;
  const cacheQuant = kind === 'qwen' && kv === 'int8';
  const runs = (a: RemoteAttn): RemoteRuntime => ({ kind, attn: a, cacheQuant, fp16, source: SOURCE[kind] });
  switch (kind) {
    case 'qwen':
      if (cacheQuant) return runs('eager');
      return runs(attn === 'flash' ? 'flash' : 'sdpa-masked');
    case 'chatglm2':
      return runs('sdpa-expand');
    case 'baichuan-rope':
      return runs('sdpa-masked');
    case 'internlm':
    case 'internlm2':
      return runs(ownFileAttn(arch, attn) === 'flash' ? 'flash' : 'eager');
    default:
      return runs('eager');
  }
}

function remoteKind(arch: ModelArch): RemoteKind | null {
  if (!REMOTE_FAMILIES.has(arch.family)) return null;
  switch (arch.family) {
    case 'qwen':
      return 'qwen';
    case 'chatglm':
      return arch.gatedMlp ? 'chatglm2' : 'chatglm';
    case 'baichuan':
      return arch.alibi ? 'baichuan-alibi' : 'baichuan-rope';
    case 'internlm':
    case 'internlm2':
      return arch.family;
    default:
      return null;
  }
}

/**
 * Bytes per element of the [b, a, q, k] tensors alive together on the eager path: the first
 * ChatGLM's own chain (fp16 scores, `.float()`, `· coeff`, fp32 softmax, `.type(dtype)`);
 * InternLM's `softmax(..., dtype=float32).to(dtype)`, transformers' eager pattern
 * (transient.ts `eagerScoreBytes`); Qwen-1 and Baichuan, a softmax in the model dtype.
 */
function scoreBytes(rt: RemoteRuntime, e: number): Expr {
  const E = sym('e', e);
  if (rt.kind === 'chatglm') return add(mul(2, E), 8);
  if (rt.kind === 'internlm' || rt.kind === 'internlm2') return eagerScoreBytes(e, rt.fp16);
  return mul(2, E);
}

/** The mask made once per forward and held through every layer (0 where each layer makes its own). */
function heldMask(rt: RemoteRuntime, arch: ModelArch, S: Expr, K: Expr, B: Expr, E: Expr): Expr {
  switch (rt.kind) {
    case 'baichuan-alibi':
      // attention_mask = inverted_mask + alibi_mask: [b, a, k, k], with expanded_mask and inverted_mask
      // ([b, 1, k, k] each) still bound to locals of BaichuanModel.forward
      return mul(B, add(sym('a', arch.heads), 2), K, K, E);
    case 'baichuan-rope':
    case 'internlm':
    case 'internlm2':
      return mul(B, S, K, E);
    case 'chatglm':
      return mul(B, S, K);
    default:
      return 0;
  }
}

/**
 * The logits the file's forward makes over a `prompt`-token pass: logits-path.ts's 'remote-code'
 * pattern (every position, model dtype) or its 'upcast-in-model' one (InternLM2's `.float()`), with
 * the file as their source; ChatGLM2/3's last position and the first ChatGLM's second copy are their own.
 */
function remoteLogits(rt: RemoteRuntime, arch: ModelArch, prompt: number, e: number): InferenceLogits {
  const E = sym('e', e);
  switch (rt.kind) {
    case 'chatglm2':
      return { rows: 1, rowsExpr: 1, perLogit: e, perLogitExpr: E, what: 'last position (return_last_logit), model dtype', source: rt.source };
    case 'chatglm':
      return { rows: prompt, rowsExpr: sym('s', prompt), perLogit: 2 * e, perLogitExpr: mul(2, E), what: 'whole prompt, lm_head output and its permute().contiguous() copy', source: rt.source };
    default:
      return { ...inferenceLogits(ownFileLogitsPath(arch), prompt, e), source: rt.source };
  }
}

/**
 * The largest set of temporaries of one forward over `s` new tokens against `k` keys: at the MLP,
 * at one layer's attention, or at the LM head (where Baichuan2's first call also holds the
 * normalised copy of the head's weight: `firstCall`).
 */
export function remoteTransient(
  rt: RemoteRuntime,
  arch: ModelArch,
  s: number,
  k: number,
  b: number,
  e: number,
  tp: number,
  logitRows: number,
  perLogit: number,
  firstCall: boolean,
  quant: QuantLinear | null = null,
): Transient {
  const { S, B, E, T } = forwardSymbols(s, b, e, tp);
  const K = sym('s_kv', k);
  const rows = (n: number): Expr => hiddenRowsExpr(arch, n, S, B, E);
  const held = heldMask(rt, arch, S, K, B, E);
  // ChatGLM2/3's GLMBlock and Qwen-1's QWenBlock keep the attention's output bound to a local
  // (`attention_output`, `attn_output`) until the block returns: a fifth row beside the MLP
  const mlpRows = rt.kind === 'chatglm2' || rt.kind === 'qwen' ? 5 : 4;
  // QWenMLP.forward binds w1's and w2's outputs to locals (a1, a2) through `a1 * F.silu(a2)`: four f-wide tensors at the product
  const mlpT = rt.kind === 'qwen' && arch.gatedMlp ? div(mul(4, S, B, sym('f', arch.ffn), E), T) : mlpTemporaries(arch, S, B, E, T);
  // a quantized checkpoint's Linears (quant-linear.ts): Qwen-1's c_proj runs beside a1, a2 and their
  // product; ChatGLM2/3's swiglu rebinds its fused output away before dense_4h_to_h, leaving the product
  const atDown = rt.kind === 'qwen' ? 3 : rt.kind === 'chatglm2' ? 1 : undefined;
  const mlpExpr = add(rows(mlpRows), quant ? max(mlpT, quantMlp(arch, quant, S, B, E, T, rt.fp16, atDown)) : mlpT, held);
  const qOut = allHeads(arch, S, B, E);
  const expand = allHeads(arch, K, B, E);
  let attnExpr: Expr = 0;
  // InternLM v1 caches K before RoPE and rotates the whole cache in every forward (`apply_rotary_pos_emb`
  // after the cat): k·cos, the rotate_half cat, its ·sin beside the first product, then their sum
  // (three K-sized tensors) with the gathered [b, k, d] cos and sin; the sum, k_embed, feeds attention
  const kOne = rt.kind === 'internlm' ? mul(B, K, sym('a', arch.heads), sym('d', arch.headDim), E) : 0;
  const rerotate = rt.kind === 'internlm' ? add(rows(3), div(mul(3, kOne), T), mul(2, B, K, sym('d', arch.headDim), E), held) : 0;
  if (rt.attn === 'eager' && rt.kind === 'qwen') {
    attnExpr = qwenEager(arch, s, k, S, K, B, E, T);
  } else if (rt.attn === 'eager') {
    // InternLM2's repeat_kv copies
    const repeat = rt.kind === 'internlm2' && arch.kvHeads < arch.heads ? expand : 0;
    attnExpr = add(rows(3), div(add(mul(B, sym('a', arch.heads), S, K, scoreBytes(rt, e)), repeat, kOne), T), held);
  } else if (rt.attn === 'sdpa-masked') {
    // Qwen-1 makes its mask in every layer, the ~causal_mask bool beside it until masked_fill returns
    // and q / the output beside it in the SDPA call; Baichuan2-7B's is the held one
    attnExpr = rt.kind === 'qwen' ? add(rows(3), mul(B, S, K, E), max(mul(S, K), div(qOut, T))) : add(rows(3), held, div(qOut, T));
  } else if (rt.attn === 'sdpa-expand') {
    attnExpr = add(rows(3), div(add(expand, qOut), T));
  }
  const logitsExpr = logitsSet(arch, B, logitRows, perLogit, T);
  // NormHead's first call: the normalised weight is made while the old one is still the parameter
  const normCopy = firstCall && arch.normHead && logitRows > 0 ? div(mul(sym('V', arch.vocab), sym('h', arch.hidden), E), T) : 0;
  const sets: [Transient['kind'], Expr][] = [
    ['mlp', mlpExpr],
    ['attention-scores', rt.kind === 'internlm' ? max(attnExpr, rerotate) : attnExpr],
    // the final norm's output stays bound to the causal-LM forward's `hidden_states` while the head runs
    ['logits', add(rows(1), evaluate(normCopy) > evaluate(logitsExpr) ? normCopy : logitsExpr)],
  ];
  let best: Transient = { bytes: evaluate(mlpExpr), kind: 'mlp', expr: mlpExpr };
  for (const [kind, expr] of sets) {
    const bytes = evaluate(expr);
    if (bytes > best.bytes) best = { bytes, kind, expr };
  }
  // eager scores come as tensors of b·a·q·k elements in the model dtype each
  return best.kind === 'attention-scores' && rt.attn === 'eager' ? { ...best, scores: { elems: (b * arch.heads * s * k) / Math.max(1, tp), e, fp16: false, by: 'remote' } } : best;
}

/**
 * Qwen-1's `_attn` over its own 8-bit cache (the only way its file runs eager on torch ≥ 2) for `s`
 * new tokens against `k` keys, per GPU. `QWenAttention.forward` keeps three hidden rows, the rotated
 * q, the bool `tril` causal mask (q = k only) and `c_attn`'s whole output (no cache entry is a view
 * of it) until it returns; `_attn` dequantizes K (`dequantize_cache_torch`, all heads in the model
 * dtype), makes the scores, `/ √d`, `torch.where`, `+ mask` and the softmax, each while the last
 * exists, then dequantizes V beside the probabilities for the product. The larger of the softmax
 * moment (K, two score tensors) and the product's (K, V, one score tensor and the output).
 */
function qwenEager(arch: ModelArch, s: number, k: number, S: Expr, K: Expr, B: Expr, E: Expr, T: Expr): Expr {
  const row = hiddenRowsExpr(arch, 1, S, B, E);
  const deq = mul(B, K, sym('a', arch.heads), sym('d', arch.headDim), E);
  const fused = mul(3, S, B, sym('h', arch.hidden), E);
  const base = add(hiddenRowsExpr(arch, 3, S, B, E), div(add(fused, row, deq), T), s === k ? mul(S, K) : 0);
  const scores = div(mul(B, sym('a', arch.heads), S, K, E), T);
  return max(add(base, mul(2, scores)), add(base, div(add(deq, row), T), scores));
}

/**
 * Buffers the file keeps on the GPU besides the parameters, at the end of a run of `tokens`
 * positions whose prompt is `prompt` long (Qwen's rotary table and Baichuan's ALiBi mask grow with
 * the sequence). Null where there are none worth a term.
 */
function remoteBuffers(rt: RemoteRuntime, arch: ModelArch, prompt: number, tokens: number, e: number): { expr: Expr; values: Record<string, string | number> } | null {
  const E = sym('e', e);
  if (rt.kind === 'qwen') {
    const logn = mul(sym('L', arch.layers), QWEN_LOGN_POSITIONS, E);
    const rope = mul(2, 4, sym('d', arch.headDim), sym('L_rope', qwenRotaryLength(prompt, tokens)));
    return { expr: add(logn, rope), values: { logn: 'logn_tensor per layer', rotary: 'fp32 cos + sin' } };
  }
  if (rt.kind === 'baichuan-alibi') {
    const M = Math.max(arch.maxContext ?? BAICHUAN_MAX_POSITIONS, tokens);
    return { expr: mul(sym('a', arch.heads), sym('M', M), sym('M', M), E), values: { mask: 'future_mask, heads × max(model_max_length, tokens)²' } };
  }
  if (rt.kind === 'baichuan-rope') {
    const M = arch.maxContext ?? BAICHUAN_MAX_POSITIONS;
    return { expr: mul(sym('L', arch.layers), 2, 4, sym('M', M), sym('d', arch.headDim)), values: { rotary: 'fp32 cos_cached + sin_cached per layer' } };
  }
  return null;
}

/**
 * Rows of Qwen-1's rotary table after a run: built at max(2·prompt, 16), rebuilt at twice the
 * sequence each time decoding passes its length (`_seq_len_cached = max(2 * seqlen, 16)`).
 */
export function qwenRotaryLength(prompt: number, tokens: number): number {
  let cached = Math.max(2 * prompt, 16);
  for (let seq = prompt; seq < tokens;) {
    seq = Math.min(tokens, cached + 1);
    if (seq > cached) cached = Math.max(2 * seq, 16);
  }
  return cached;
}

/**
 * Bytes per cached K or V element of Qwen-1's own 8-bit cache (`quantize_cache_v`: a uint8 value per
 * element, a scale and a zero point per token and head in the model dtype): 1 + 2e/d. Null where the
 * cache is not the model's own quantized one.
 */
function remoteCacheElementBytes(rt: RemoteRuntime, e: number, headDim: number): number | null {
  return rt.cacheQuant ? 1 + (2 * e) / headDim : null;
}

/**
 * How the model's quantized Linears run over `rows` token rows (quant-linear.ts): ChatGLM's own int8 / int4
 * layers dequantize at every matmul, decode steps included (`W8A16Linear.forward`:
 * `extract_weight_to_half(quant_w, scale_w, bits)`, the whole fp16 weight, then `inp.mm(weight.t())`);
 * bitsandbytes and AWQ as transformers' own models run them.
 */
function ownQuant(arch: ModelArch, s: Pick<Scenario, 'weights' | 'bnbCompute'>, rows: number): QuantLinear | null {
  return chatglmQuantized(arch.family, s.weights) ? 'dequant' : quantLinear(s.weights, s.bnbCompute, rows);
}

/** The kernel family an attention path belongs to, as the attn key names them. */
const AS_KEY: Record<RemoteAttn, Attn> = { flash: 'flash', sdpa: 'sdpa', 'sdpa-masked': 'sdpa', 'sdpa-expand': 'sdpa', eager: 'eager' };

/** A note where the attn key asks for an attention the model's own file does not run. */
function remoteAttnNote(rt: RemoteRuntime, attn: Attn): Message[] {
  const runs = AS_KEY[rt.attn];
  if (runs === attn) return [];
  return [
    {
      code: 'inference.remote-attn',
      params: { runs, attn },
      text: `This model's own modeling code (trust_remote_code) chooses its attention: it runs ${runs}, so attn=${attn} does not change the estimate.`,
    },
  ];
}

/**
 * How the file's cache lives while `generate` runs. Every family here keeps K and V as a tuple per
 * layer and grows it with `torch.cat((past, new))` (Qwen `QWenAttention.forward`, ChatGLM
 * `SelfAttention.forward` / `attention_fn`, Baichuan `Attention.forward`, InternLM
 * `InternLMAttention.forward`, InternLM2 `InternLM2Attention.forward`), while `generate` still
 * holds the last step's tuple in `model_kwargs["past_key_values"]` until the forward returns: during a
 * decode step the old cache and the new one exist together, not one layer's K at a time as with
 * transformers' DynamicCache. And the prompt pass's entries are views: V (and, without rotary, K)
 * is a slice of the fused projection's output (Qwen `c_attn` [b, s, 3h]; ChatGLM2/3
 * `query_key_value` [s, b, (a + 2g)·d]; the first ChatGLM's [s, b, 3h]; Baichuan `W_pack`
 * [3, b, s, h]), so the whole output stays allocated until the first decode step's cat replaces the
 * entry. Bytes per prompt token, layer and sequence beyond the entry's own K and V:
 * - Qwen-1, the first ChatGLM, Baichuan-7B / Baichuan2-7B (K rotated into a new tensor, V a view of 3h): 3h + h − 2h = 2h·e;
 * - ChatGLM2/3 (K rotated, V a view of (a + 2g)·d): (a + 2g)·d + g·d − 2g·d = (a + g)·d·e;
 * - Baichuan-13B / Baichuan2-13B (ALiBi, K and V both views of 3h): h·e;
 * - InternLM2 (the tuple-cache revision: K rotated, V a view of wqkv [b, s, (a + 2g)·d]): (a + g)·d·e;
 * - InternLM v1 (`InternLMAttention.forward` caches the k_proj / v_proj outputs before RoPE): none.
 * Qwen-1's quantized cache stores new uint8 tensors: no views. Our H200 runs of Qwen-7B, ChatGLM3-6B
 * and Baichuan2-13B (src/validation/fixtures/measured-remote.json) held 2.0×, 9.5× and 1.5× their
 * cache's bytes after the prompt pass, and peaked at decode with the old and new cache together.
 * InternLM's were read, not run.
 */
export interface OwnCache {
  /** bytes per prompt token, layer and sequence the prompt pass's entries hold beyond their K and V */
  viewsPerToken: Expr;
  views: string;
}

function ownCache(rt: RemoteRuntime, arch: ModelArch, e: number): OwnCache | null {
  const E = sym('e', e);
  const h = sym('h', arch.hidden);
  switch (rt.kind) {
    case 'qwen':
      return rt.cacheQuant ? { viewsPerToken: 0, views: 'none: the 8-bit cache is stored in new tensors' } : { viewsPerToken: mul(2, h, E), views: 'V a view of c_attn [b, s, 3h], K rotated: 2h·e' };
    case 'chatglm':
      return { viewsPerToken: mul(2, h, E), views: 'V a view of query_key_value [s, b, 3h], K rotated: 2h·e' };
    case 'chatglm2':
      return {
        viewsPerToken: mul(add(sym('a', arch.heads), sym('g', arch.kvHeads)), sym('d', arch.headDim), E),
        views: 'V a view of query_key_value [s, b, (a + 2g)·d], K rotated: (a + g)·d·e',
      };
    case 'baichuan-rope':
      return { viewsPerToken: mul(2, h, E), views: 'V a view of W_pack [3, b, s, h], K rotated: 2h·e' };
    case 'baichuan-alibi':
      return { viewsPerToken: mul(h, E), views: 'K and V views of W_pack [3, b, s, h]: h·e' };
    case 'internlm2':
      return {
        viewsPerToken: mul(add(sym('a', arch.heads), sym('g', arch.kvHeads)), sym('d', arch.headDim), E),
        views: 'V a view of wqkv [b, s, (a + 2g)·d], K rotated: (a + g)·d·e',
      };
    case 'internlm':
      return { viewsPerToken: 0, views: 'none: K and V are the k_proj / v_proj outputs, cached before RoPE' };
    default:
      return null;
  }
}

/**
 * The files whose prompt pass remote-prefill.ts lays out tensor by tensor, by the attention the file
 * runs: ChatGLM2/3 and Baichuan-13B (ALiBi) whatever the attn key says; Qwen-1 under SDPA or with its
 * own 8-bit cache (eager `_attn`). Null: replayed one block per layer.
 */
function laidOut(rt: RemoteRuntime): OwnForward | null {
  switch (rt.kind) {
    case 'chatglm2':
    case 'baichuan-alibi':
      return rt.kind;
    case 'qwen':
      return rt.cacheQuant ? 'qwen-kv8' : rt.attn === 'sdpa-masked' ? 'qwen' : null;
    default:
      return null;
  }
}

/** What inference/transformers.ts reads of a model that runs its own file. */
export interface OwnRuntime {
  source: string;
  /** the file's tuple cache: the old tuple held through a decode step, and the prompt pass's views (null: transformers' DynamicCache) */
  cache: OwnCache | null;
  /** bytes per cached K / V element of the file's own quantized cache (Qwen-1 kv=int8), else null */
  cacheBytes: number | null;
  /** the logits of the prompt pass */
  logits: InferenceLogits;
  /**
   * bytes per key² of the mask a decode step makes and holds through its layers (Baichuan-13B's
   * [b, a, k, k] with its two [b, 1, k, k] parents, `heldMask`): it grows with every step, so the
   * step timeline allocates it at each step's length. 0 where a step's mask does not grow as k².
   */
  decodeMaskPerKey2: number;
  /** the largest temporaries of a forward over q new tokens against `keys` keys */
  forward: (q: number, keys: number, logitRows: number, perLogit: number, firstCall: boolean) => Transient;
  /** the shape of the file's prompt pass over `b` × `tokens` as remote-prefill.ts lays it out tensor by tensor (null: replayed as one block per layer) */
  prefillShape: (b: number, s: number) => PrefillShape | null;
  /** buffers kept beside the parameters, at the end of the run */
  buffers: { expr: Expr; values: Record<string, string | number> } | null;
  notes: Message[];
}

/** The model's own runtime for scenario `s` (element size e), or null for models transformers runs with its own code. */
export function ownRuntime(arch: ModelArch, s: Pick<Scenario, 'attn' | 'kv' | 'weights' | 'bnbCompute' | 'batch' | 'tp' | 'prompt' | 'gen'>, e: number): OwnRuntime | null {
  const rt = remoteRuntime(arch, s.attn, s.kv, fp16Activations(s.weights));
  if (!rt) return null;
  return {
    source: rt.source,
    cache: ownCache(rt, arch, e),
    // heldMask's [b, a + 2, k, k] at k = 1
    decodeMaskPerKey2: rt.kind === 'baichuan-alibi' ? evaluate(heldMask(rt, arch, 1, 1, sym('b', s.batch), sym('e', e))) : 0,
    cacheBytes: remoteCacheElementBytes(rt, e, arch.headDim),
    logits: remoteLogits(rt, arch, s.prompt, e),
    forward: (q, keys, logitRows, perLogit, firstCall) => remoteTransient(rt, arch, q, keys, s.batch, e, s.tp, logitRows, perLogit, firstCall, ownQuant(arch, s, q * s.batch)),
    buffers: remoteBuffers(rt, arch, s.prompt, s.prompt + s.gen, e),
    prefillShape: (b, tokens) => {
      const forward = laidOut(rt);
      return forward ? ownPrefillShape(arch, forward, b, tokens, e) : null;
    },
    notes: remoteAttnNote(rt, s.attn),
  };
}

provideRemote({ ownRuntime });
