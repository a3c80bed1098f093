/**
 * HF transformers' prompt pass (the prefill of `generate`) as the tensors its code allocates and
 * frees, in order, for the Llama-style decoder (Llama, Qwen2, Qwen3, Mistral; Phi-3 with its fused
 * projections, `fusedProjections`) in 16-bit with SDPA or eager attention (`eagerCall`) on one GPU; Gemma-2's forward (hf-prefill-gemma2.ts) reuses its attention, MLP and rotary steps. At inference there is no autograd: a temporary is freed when its last Python
 * reference goes, and in-place ops allocate nothing. Only tensors that scale with the prompt are
 * listed (ids and per-token scalars of s·4–8 B are left out). Sources, transformers 5.x:
 * - models/llama/modeling_llama.py `LlamaModel.forward`: `inputs_embeds = self.embed_tokens(ids)`
 *   stays referenced to the end; the causal mask (masking_utils.py) is built next; then
 *   `position_embeddings = self.rotary_emb(...)` (cos, sin) is held through every layer.
 * - `LlamaRotaryEmbedding.forward`: fp32 `freqs` (b·s·d/2), `emb = cat(freqs, freqs)`,
 *   `cos = emb.cos() * attention_scaling` (a temporary then the product), likewise sin, and
 *   `cos.to(x.dtype)`, `sin.to(x.dtype)` returned; the fp32 locals go when the frame does.
 * - `LlamaRMSNorm.forward`: `x.to(float32)`, `pow(2)` (freed by `.mean`), `x32 * rsqrt(...)`
 *   (the fp32 input is freed on reassignment), `.to(input_dtype)`, `weight * ·` (the 16-bit cast
 *   is a temporary).
 * - `LlamaDecoderLayer.forward`: residual = x; norm; attention; `residual + ·`; norm; MLP;
 *   `residual + ·`. The layer's input stays referenced by the model's loop until the layer returns.
 * - `LlamaAttention.forward`: q/k/v projections (Qwen3: `q_norm` / `k_norm`, an RMSNorm over
 *   head_dim, on each); `apply_rotary_pos_emb`: `(q * cos) + (rotate_half(q) * sin)`, where
 *   `rotate_half` makes `-x2` (half of q) and `cat((-x2, x1))`; the un-rotated q and k are freed on
 *   reassignment.
 * - cache_utils.py `DynamicLayer.update`: `self.keys = torch.cat([self.keys, key_states], dim=-2)`
 *   (the cache starts as an empty tensor, so the prompt's K and V are copied); the rotated k and
 *   the projected v are freed when `update` returns the cache's tensors. A sliding layer's
 *   `DynamicSlidingWindowLayer.update` makes the same cat and keeps a view of its last window − 1
 *   tokens, which holds the whole copy.
 * - integrations/sdpa_attention.py `sdpa_attention_forward`: without a mask `enable_gqa` (no
 *   copy); with one, `repeat_kv` copies K and V to all heads. PyTorch's flash kernel (no mask)
 *   returns the output and a b·a·s fp32 log-sum-exp that `scaled_dot_product_attention` drops; with
 *   a bool mask, `convert_boolean_attn_mask` makes an additive one in the query's dtype
 *   (aten/src/ATen/native/transformers/attention.cpp) that lives for the call. The output, made
 *   as (b, s, a, d), makes `transpose(1, 2).contiguous()` and the `reshape` views.
 * - `LlamaMLP.forward`: `down_proj(act_fn(gate_proj(x)) * up_proj(x))`: gate, act (gate freed),
 *   up, the product (act and up freed), down.
 * - masking_utils.py `sdpa_mask` (a sliding window no longer than the prompt): `and_masks`
 *   builds `result = result & mask(...)` — window overlay, causal, then the padding mask — each a
 *   b·s·s_kv bool, the previous result and the operand freed after each `&`.
 */
import { FP32, type PrefillOp, type PrefillShape } from './hf-prefill-shape';
import { eagerScoreEvents } from '../eager-scores';

/** Layer i keeps a sliding window (cache_utils.py `DynamicSlidingWindowLayer`) and gets the window's mask. */
export function layerSlides(x: PrefillShape, i: number): boolean {
  return x.window > 0 && i % x.slideEvery === 0;
}

/**
 * Bytes of layer i's K (or V) once the cache has seen `tokens` tokens: `DynamicLayer.update`'s
 * `torch.cat` holds all of them; `DynamicSlidingWindowLayer.update` cats the kept window − 1
 * tokens with the new ones and keeps a view of the result, so a decode step allocates
 * min(tokens, window) (the prompt pass, from an empty cache, the whole prompt).
 */
export function layerKvBytes(x: PrefillShape, i: number, tokens: number): number {
  return x.b * x.kvHeads * x.headDim * x.kvBytes * (layerSlides(x, i) ? Math.min(tokens, x.window) : tokens);
}

/**
 * What every HF RMSNorm does first over `elems` elements: `x.to(float32)` ('x32'), `pow(2)` (freed by
 * `.mean`), `x32 * rsqrt(...)` ('y32', the fp32 input freed on reassignment). Leaves `${p}y32` live.
 */
export function rmsNormCore(elems: number, p: string): PrefillOp[] {
  return [
    { op: 'alloc', id: `${p}x32`, bytes: elems * FP32 },
    { op: 'alloc', id: `${p}sq`, bytes: elems * FP32 },
    { op: 'free', id: `${p}sq` },
    { op: 'alloc', id: `${p}y32`, bytes: elems * FP32 },
    { op: 'free', id: `${p}x32` },
  ];
}

/** `LlamaRMSNorm.forward` over `rows` elements of 16-bit `x`: temporaries, then `out` (16-bit). */
function rmsNorm(elems: number, e: number, out: string, p: string): PrefillOp[] {
  return [...rmsNormCore(elems, p), { op: 'alloc', id: `${p}y16`, bytes: elems * e }, { op: 'alloc', id: out, bytes: elems * e }, { op: 'free', id: `${p}y16` }, { op: 'free', id: `${p}y32` }];
}

/** `apply_rotary_pos_emb` on one of q / k (`elems` elements): `(x * cos) + (rotate_half(x) * sin)`. */
function rope(elems: number, e: number, out: string, p: string): PrefillOp[] {
  return [
    { op: 'alloc', id: `${p}xc`, bytes: elems * e },
    { op: 'alloc', id: `${p}neg`, bytes: (elems / 2) * e },
    { op: 'alloc', id: `${p}rot`, bytes: elems * e },
    { op: 'free', id: `${p}neg` },
    { op: 'alloc', id: `${p}rs`, bytes: elems * e },
    { op: 'free', id: `${p}rot` },
    { op: 'alloc', id: out, bytes: elems * e },
    { op: 'free', id: `${p}xc` },
    { op: 'free', id: `${p}rs` },
  ];
}

/** The sliding-window mask ('mask', kept) when there is one, then the rotary cos / sin ('cos', 'sin', kept). */
export function maskAndRotary(x: PrefillShape): PrefillOp[] {
  const { b, s, e } = x;
  const ops: PrefillOp[] = [];
  if (x.maskKv > 0) {
    const m = s * x.maskKv;
    ops.push(
      { op: 'alloc', id: 'm-window', bytes: m },
      { op: 'alloc', id: 'm-r1', bytes: m },
      { op: 'free', id: 'm-window' },
      { op: 'alloc', id: 'm-causal', bytes: m },
      { op: 'alloc', id: 'm-r2', bytes: m },
      { op: 'free', id: 'm-causal' },
      { op: 'free', id: 'm-r1' },
      { op: 'alloc', id: 'm-r3', bytes: m },
      { op: 'free', id: 'm-r2' },
    );
    // eager: `eager_mask` turns the expanded bool into the model dtype with `torch.where` (the bool goes)
    if (x.eager) ops.push({ op: 'alloc', id: 'm-bool', bytes: b * m }, { op: 'free', id: 'm-r3' }, { op: 'alloc', id: 'mask', bytes: b * m * e }, { op: 'free', id: 'm-bool' });
    else ops.push({ op: 'alloc', id: 'mask', bytes: b * m }, { op: 'free', id: 'm-r3' });
  }
  const d = x.headDim;
  ops.push(
    { op: 'alloc', id: 'freqs', bytes: (b * s * d * FP32) / 2 },
    { op: 'alloc', id: 'emb', bytes: b * s * d * FP32 },
    { op: 'alloc', id: 'cos-t', bytes: b * s * d * FP32 },
    { op: 'alloc', id: 'cos32', bytes: b * s * d * FP32 },
    { op: 'free', id: 'cos-t' },
    { op: 'alloc', id: 'sin-t', bytes: b * s * d * FP32 },
    { op: 'alloc', id: 'sin32', bytes: b * s * d * FP32 },
    { op: 'free', id: 'sin-t' },
    { op: 'alloc', id: 'cos', bytes: b * s * d * e },
    { op: 'alloc', id: 'sin', bytes: b * s * d * e },
    { op: 'free', id: 'freqs' },
    { op: 'free', id: 'emb' },
    { op: 'free', id: 'cos32' },
    { op: 'free', id: 'sin32' },
  );
  return ops;
}

/** Before the first layer: `inputs_embeds` ('embeds', kept), then the mask and the rotary cos / sin. */
export function prefillPrologue(x: PrefillShape): PrefillOp[] {
  return [{ op: 'alloc', id: 'embeds', bytes: x.b * x.s * x.hidden * x.e }, ...(x.eager && x.maskKv === 0 ? eagerMask(x) : []), ...maskAndRotary(x)];
}

/**
 * Eager's causal mask (masking_utils.py `eager_mask`): `sdpa_mask`'s b·s·s bool, then
 * `torch.where(mask, 0, min)` in the model dtype ('mask', held through the layers); the bool goes.
 */
function eagerMask(x: PrefillShape): PrefillOp[] {
  const m = x.b * x.s * x.s;
  return [
    { op: 'alloc', id: 'm-bool', bytes: m },
    { op: 'alloc', id: 'mask', bytes: m * x.e },
    { op: 'free', id: 'm-bool' },
  ];
}

/**
 * transformers `eager_attention_forward` (models/llama/modeling_llama.py) from the rotated query 'qe'
 * and the cache's 'kc' / 'vc' to its output 'o': `repeat_kv` copies K and V to every head when
 * g < a; `matmul(q, kᵀ)`; then eager-scores.ts's events (`* scaling`, `+ causal_mask`, the
 * softmax with bf16's fp32 copy, `.to(dtype)`, `matmul(·, v)` and `transpose(1, 2).contiguous()`).
 * The weights ('lo') are returned with the output and stay bound to the decoder layer's `_` until
 * the layer returns (`layerEnd`); the repeated K and V go when `eager_attention_forward` returns.
 */
function eagerCall(x: PrefillShape, Q: number): PrefillOp[] {
  const { b, s, e } = x;
  const S = b * x.heads * s * s;
  const repeat = x.kvHeads < x.heads;
  const repeated = b * x.heads * s * x.headDim * e;
  const ops: PrefillOp[] = repeat
    ? [
        { op: 'alloc', id: 'kr', bytes: repeated },
        { op: 'alloc', id: 'vr', bytes: repeated },
      ]
    : [];
  let n = 0;
  const temp = (bytes: number): number => {
    ops.push({ op: 'alloc', id: `es${n}`, bytes });
    return n++;
  };
  const free = (i: number | null): void => {
    if (i !== null) ops.push({ op: 'free', id: `es${i}` });
  };
  const scores = temp(S * e);
  const { out, held } = eagerScoreEvents({ temp, save: temp, free }, { elems: S, e, maskBytes: e, softcap: false, upcast: !x.eager?.fp16, weights: 'copy', output: Q * e, outputSaved: false }, scores);
  ops.push({ op: 'rename', id: `es${out}`, to: 'o' }, { op: 'rename', id: `es${held}`, to: 'lo' });
  if (repeat) ops.push({ op: 'free', id: 'kr' }, { op: 'free', id: 'vr' });
  return ops;
}

/**
 * Layer i's attention from its normed input 'n1' to o_proj's output 'a': projections, RoPE, the
 * cache's copies (left as 'kc' and 'vc'), SDPA (masked in a sliding layer when the mask exists);
 * frees everything else it made and 'n1' (reassigned by the decoder layer).
 */
export function attention(x: PrefillShape, i: number): PrefillOp[] {
  const { b, s, e } = x;
  const rows = b * s;
  const Q = rows * x.heads * x.headDim;
  const KV = rows * x.kvHeads * x.headDim;
  const masked = x.maskKv > 0 && layerSlides(x, i);
  const ops: PrefillOp[] = x.forward === 'phi3' ? fusedProjections(x, Q, KV) : projections(x, Q, KV);
  // the attention forward's locals go when it returns: the rotated q, its input, Phi-3's fused qkv output
  const returns: PrefillOp[] = [{ op: 'free', id: 'o' }, { op: 'free', id: 'qe' }, { op: 'free', id: 'n1' }, ...(x.forward === 'phi3' ? [{ op: 'free', id: 'qkv' } as const] : [])];
  if (x.eager) {
    // the probabilities ('lo') stay with the decoder layer's `_` until it returns (layerEnd)
    ops.push(...eagerCall(x, Q), { op: 'alloc', id: 'a', bytes: rows * x.hidden * e }, ...returns);
    return ops;
  }
  const repeat = masked ? x.repeatKv.masked : x.repeatKv.causal;
  const repeated = b * x.heads * (masked ? x.maskKv : s) * x.headDim * e;
  if (repeat) ops.push({ op: 'alloc', id: 'kr', bytes: repeated }, { op: 'alloc', id: 'vr', bytes: repeated });
  if (masked) {
    ops.push({ op: 'alloc', id: 'additive', bytes: b * s * x.maskKv * e }, { op: 'alloc', id: 'o', bytes: Q * e }, { op: 'free', id: 'additive' });
  } else {
    ops.push({ op: 'alloc', id: 'o', bytes: Q * e }, { op: 'alloc', id: 'lse', bytes: b * x.heads * s * FP32 }, { op: 'free', id: 'lse' });
  }
  if (repeat) ops.push({ op: 'free', id: 'kr' }, { op: 'free', id: 'vr' });
  ops.push({ op: 'alloc', id: 'a', bytes: rows * x.hidden * e }, ...returns);
  return ops;
}

/**
 * Separate q / k / v projections to the rotated q ('qe') and the cache's copies ('kc', 'vc'); Qwen3's
 * q_norm / k_norm over head_dim (the raw projection freed after the norm). DynamicLayer /
 * DynamicSlidingWindowLayer.update: torch.cat copies the prompt's K and V into the cache.
 */
function projections(x: PrefillShape, Q: number, KV: number): PrefillOp[] {
  const { e } = x;
  const ops: PrefillOp[] = [{ op: 'alloc', id: 'q', bytes: Q * e }];
  if (x.qkNorm) ops.push(...rmsNorm(Q, e, 'qn', 'qnorm-'), { op: 'free', id: 'q' }, { op: 'rename', id: 'qn', to: 'q' });
  ops.push({ op: 'alloc', id: 'k', bytes: KV * e });
  if (x.qkNorm) ops.push(...rmsNorm(KV, e, 'kn', 'knorm-'), { op: 'free', id: 'k' }, { op: 'rename', id: 'kn', to: 'k' });
  ops.push({ op: 'alloc', id: 'v', bytes: KV * e });
  ops.push(...rope(Q, e, 'qe', 'ropeq-'), ...rope(KV, e, 'ke', 'ropek-'), { op: 'free', id: 'q' }, { op: 'free', id: 'k' });
  ops.push({ op: 'alloc', id: 'kc', bytes: KV * e }, { op: 'alloc', id: 'vc', bytes: KV * e }, { op: 'free', id: 'ke' }, { op: 'free', id: 'v' });
  return ops;
}

/**
 * Phi-3's attention (modeling_phi3.py `Phi3Attention.forward`): one `qkv_proj` output ('qkv',
 * (a + 2g)·d wide) of which q, k and v are slices, held by its local until the forward returns;
 * its `apply_rotary_pos_emb` ends in `torch.cat([rotated, x_pass])`, a copy of the rotated tensor
 * (the sum freed after it); the cache copies the rotated k and the v slice.
 */
function fusedProjections(x: PrefillShape, Q: number, KV: number): PrefillOp[] {
  const { e } = x;
  const cat = (elems: number, out: string, p: string): PrefillOp[] => [...rope(elems, e, `${out}-sum`, p), { op: 'alloc', id: out, bytes: elems * e }, { op: 'free', id: `${out}-sum` }];
  return [
    { op: 'alloc', id: 'qkv', bytes: (Q + 2 * KV) * e },
    ...cat(Q, 'qe', 'ropeq-'),
    ...cat(KV, 'ke', 'ropek-'),
    { op: 'alloc', id: 'kc', bytes: KV * e },
    { op: 'alloc', id: 'vc', bytes: KV * e },
    { op: 'free', id: 'ke' },
  ];
}

/**
 * The gated MLP from its normed input 'n2' to down_proj's output 'm' (the input freed on
 * reassignment). Phi-3's `Phi3MLP.forward`: one `gate_up_proj` output, chunked into views; `gate`
 * keeps it alive through `up_states * act(gate)` and down_proj, which frees it on return.
 */
export function gatedMlp(x: PrefillShape): PrefillOp[] {
  const rows = x.b * x.s;
  const F = rows * x.ffn * x.e;
  if (x.forward === 'phi3') {
    return [
      { op: 'alloc', id: 'gate_up', bytes: 2 * F },
      { op: 'alloc', id: 'act', bytes: F },
      { op: 'alloc', id: 'prod', bytes: F },
      { op: 'free', id: 'act' },
      { op: 'alloc', id: 'm', bytes: rows * x.hidden * x.e },
      { op: 'free', id: 'prod' },
      { op: 'free', id: 'gate_up' },
      { op: 'free', id: 'n2' },
    ];
  }
  return [
    { op: 'alloc', id: 'gate', bytes: F },
    { op: 'alloc', id: 'act', bytes: F },
    { op: 'free', id: 'gate' },
    { op: 'alloc', id: 'up', bytes: F },
    { op: 'alloc', id: 'prod', bytes: F },
    { op: 'free', id: 'act' },
    { op: 'free', id: 'up' },
    { op: 'alloc', id: 'm', bytes: rows * x.hidden * x.e },
    { op: 'free', id: 'prod' },
    { op: 'free', id: 'n2' },
  ];
}

/**
 * Decoder layer i over the prompt. Reads its input as 'x' ('embeds' for the first layer), leaves
 * the layer's cache as 'kc' and 'vc' and its output as 'x' (the input freed, unless it is 'embeds').
 */
export function prefillLayer(x: PrefillShape, i: number): PrefillOp[] {
  const H = x.b * x.s * x.hidden * x.e;
  return [
    ...rmsNorm(H / x.e, x.e, 'n1', 'norm1-'),
    ...attention(x, i),
    { op: 'alloc', id: 'r1', bytes: H },
    { op: 'free', id: 'a' },
    ...rmsNorm(H / x.e, x.e, 'n2', 'norm2-'),
    ...gatedMlp(x),
    { op: 'alloc', id: 'r2', bytes: H },
    { op: 'free', id: 'm' },
    ...layerEnd(x, i),
  ];
}

/**
 * The decoder layer returns: its residual 'r1' and, eager, the attention's probabilities 'lo' (bound
 * to `_` in `hidden_states, _ = self.self_attn(...)`) go; the model's loop drops the layer's input
 * (not 'embeds') and holds 'r2' as 'x'.
 */
export function layerEnd(x: PrefillShape, i: number): PrefillOp[] {
  return [{ op: 'free', id: 'r1' }, ...(x.eager ? [{ op: 'free', id: 'lo' } as const] : []), ...nextLayerInput(i)];
}

/** The model's loop after layer i: its input goes (unless it is the embeddings, layer 0's) and its output 'r2' becomes the next input 'x'. */
export function nextLayerInput(i: number): PrefillOp[] {
  return [...(i > 0 ? [{ op: 'free', id: 'x' } as const] : []), { op: 'rename', id: 'r2', to: 'x' }];
}

/**
 * After the last layer: `self.norm(hidden_states)` (the last layer's output freed on
 * reassignment); `LlamaModel.forward` returns, freeing `inputs_embeds`, the mask and cos / sin;
 * `LlamaForCausalLM.forward` runs the LM head on the last position only (`logits_to_keep`), b·V
 * 16-bit logits, and its return frees the normed states; generation/utils.py `_sample` copies
 * them to fp32 (`.to(copy=True, dtype=torch.float32)`) and `del outputs` frees the 16-bit ones.
 */
export function prefillEpilogue(x: PrefillShape): PrefillOp[] {
  return [...rmsNorm(x.b * x.s * x.hidden, x.e, 'final', 'norm-'), ...modelReturns(x), { op: 'alloc', id: 'logits', bytes: x.b * x.vocab * x.e }, ...sampleLogits(x)];
}

/** The model's forward returns: the last layer's output, `inputs_embeds`, the mask and cos / sin go. */
export function modelReturns(x: PrefillShape): PrefillOp[] {
  return [{ op: 'free', id: 'x' }, { op: 'free', id: 'embeds' }, ...(x.maskKv > 0 || x.eager ? [{ op: 'free', id: 'mask' } as const] : []), { op: 'free', id: 'cos' }, { op: 'free', id: 'sin' }];
}

/** The causal-LM forward returns its 'logits' (freeing the normed states 'final'); `_sample` copies them to fp32 and drops both. */
export function sampleLogits(x: PrefillShape): PrefillOp[] {
  return [
    { op: 'free', id: 'final' },
    { op: 'alloc', id: 'logits32', bytes: x.b * x.vocab * FP32 },
    { op: 'free', id: 'logits' },
    { op: 'free', id: 'logits32' },
  ];
}
