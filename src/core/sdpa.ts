/**
 * When transformers hands PyTorch's SDPA a materialised mask, and when it copies K and V out to all
 * heads first — the two facts the inference transient (inference/transient.ts) and the saved
 * activations of training (training/activations.ts) both rest on.
 * - transformers masking_utils.py `_ignore_causal_mask_sdpa`: SDPA runs `is_causal` without a mask
 *   only for a plain causal pattern — no padding, and no local window ≤ kv_length
 *   (`local_attention_size is not None and kv_length >= local_attention_size` → mask).
 * - transformers integrations/sdpa_attention.py `sdpa_attention_forward`: `enable_gqa` only when
 *   `use_gqa_in_sdpa` holds (no mask and head_dim ≤ 256); otherwise `repeat_kv` copies K and V to
 *   all a heads.
 */
import type { ModelArch } from './types';

/**
 * Layer i slides (its cache keeps the window; SDPA gets the window's mask) when i % slideEvery = 0:
 * Gemma-2's config (configuration_gemma2.py: `layer_types` "sliding_attention" where (i + 1) % 2)
 * slides the even layers, a model with no pattern (Mistral) every layer.
 */
export function slideEvery(arch: ModelArch): number {
  return arch.family === 'gemma2' ? 2 : 1;
}

/** Layers after the last sliding one: when its masked SDPA call runs, they hold no K and V yet. */
export function layersAfterLastSliding(arch: ModelArch): number {
  return arch.slidingWindow ? (arch.layers - 1) % slideEvery(arch) : 0;
}

/** head_dim above which `use_gqa_in_sdpa` is false even without a mask. */
const GQA_MAX_HEAD_DIM = 256;

/** A sliding-window layer attending to `kvTokens` keys gets a materialised mask. */
export function windowMasked(arch: ModelArch, kvTokens: number): boolean {
  return arch.slidingWindow !== undefined && kvTokens >= arch.slidingWindow.window;
}

/** SDPA reads K and V repeated to all heads (a copy) rather than the g grouped heads. */
export function sdpaRepeatsKv(arch: ModelArch, masked: boolean): boolean {
  return !arch.mla && arch.kvHeads < arch.heads && (masked || arch.headDim > GQA_MAX_HEAD_DIM);
}

/**
 * transformers' Falcon with the new decoder architecture (Falcon-40B / 180B, Falcon2-11B: grouped
 * K/V, 1 < g < a; older Falcons are multi-query, g = 1, or multi-head) expands K and V to all a
 * heads in its own code, before RoPE, the cache and attention: modeling_falcon.py
 * `FalconAttention._split_heads` (`key = qkv[:, :, :, [-2]]`, `torch.broadcast_to(key, query.shape)`,
 * then `flatten(2, 3)`, which copies the expanded view) and `FalconAttention.forward`
 * (`num_kv_heads = self.num_heads if self.new_decoder_architecture else self.num_kv_heads`), so its
 * DynamicCache holds a heads per layer and backward saves K and V at a heads. vLLM's Falcon
 * (model_executor/models/falcon.py) and llama.cpp keep the g heads.
 */
export function hfExpandsKv(arch: ModelArch): boolean {
  return arch.family === 'falcon' && !arch.mla && arch.kvHeads > 1 && arch.kvHeads < arch.heads;
}

/**
 * transformers' multi-query Falcon (Falcon-7B: one K/V head, the old decoder architecture) hands
 * `scaled_dot_product_attention` K and V with one head beside a query of a heads, with no
 * `repeat_kv` and no `enable_gqa` (modeling_falcon.py `FalconAttention.forward`). PyTorch's fused
 * kernels need equal head counts (sdp_utils.cpp `check_batch_size_and_num_heads_dense`), so the call
 * runs the math kernel (attention.cpp `_scaled_dot_product_attention_math`): scores in fp32 (q, k
 * and v upcast), `_safe_softmax`'s fp32 result beside them and its `eq(-inf)` bool test,
 * `SDPA_MATH_BYTES` per score element. Our H200 run n005 (Falcon-7B, bf16, a 2,048-token prompt)
 * traced exactly these three, 2 × 1,191,182,336 + 297,795,584 bytes, at its peak.
 */
export function sdpaRunsMath(arch: ModelArch): boolean {
  return arch.family === 'falcon' && !arch.mla && arch.kvHeads === 1 && arch.heads > 1;
}

/** Bytes per score element of SDPA's math kernel at its peak: fp32 scores, fp32 softmax, bool -inf test. */
export const SDPA_MATH_BYTES = 4 + 4 + 1;

/**
 * ChatGLM2 / ChatGLM3's own code (modeling_chatglm.py `SelfAttention.forward`) keeps the grouped K and
 * V in its cache but copies them out to all heads for attention, in training as in inference
 * (`key_layer.unsqueeze(-2).expand(...).contiguous()` when `multi_query_attention`), so the attention's
 * backward saves K and V at a heads. The first ChatGLM (GELU MLP, `gatedMlp` false) is multi-head.
 */
export function glmExpandsKv(arch: ModelArch): boolean {
  return arch.family === 'chatglm' && arch.gatedMlp && arch.kvHeads < arch.heads;
}
