/**
 * KV-cache size (formulas.md §3.1): K and V per layer per token, GQA-aware, MLA latent,
 * sliding windows, tensor-parallel head split.
 */
import { attentionLayers } from '../model/hybrid';
import type { ModelArch } from '../types';

/** How a runtime lays out the cache. */
export interface KvPolicy {
  /** MLA: cache the compressed latent (vLLM, llama.cpp) instead of decompressed K/V (HF). */
  mlaLatent: boolean;
  /** sliding-window layers keep only the window (vLLM hybrid allocator, llama.cpp iSWA) */
  windowed: boolean;
  /** tensor-parallel degree: each GPU holds max(1, g/t) KV heads */
  tp: number;
}

/** Bytes of K+V per token in ONE full-attention layer, per GPU. */
export function kvBytesPerTokenPerLayer(arch: ModelArch, bytesPerElement: number, policy: KvPolicy): number {
  const t = Math.max(1, policy.tp);
  if (arch.mla) {
    const m = arch.mla;
    // vLLM: "for MLA we only store a single latent vector", head_size = r_kv + d_r (kv_cache_interface.py)
    if (policy.mlaLatent) return (m.kvLoraRank + m.qkRopeHeadDim) * bytesPerElement;
    // HF eager caches expanded key (d_n + d_r) and value (d_v) states for all a heads
    return (Math.max(1, arch.heads / t) * (m.qkNopeHeadDim + m.qkRopeHeadDim + m.vHeadDim)) * bytesPerElement;
  }
  const heads = Math.max(1, arch.kvHeads / t);
  return 2 * heads * arch.headDim * bytesPerElement;
}

/** Per-token bytes over all layers when every layer keeps every token (2·L·g·d·bytes). */
export function kvBytesPerToken(arch: ModelArch, bytesPerElement: number, policy: KvPolicy): number {
  return kvLayers(arch) * kvBytesPerTokenPerLayer(arch, bytesPerElement, policy);
}

/** Decoder layers that hold a KV cache (T5: decoder self-attention only; hybrids: attention layers only). */
export function kvLayers(arch: ModelArch): number {
  if (arch.hybrid) return attentionLayers(arch.hybrid);
  return arch.encoderDecoder ? arch.encoderDecoder.decoderLayers : arch.layers;
}

/**
 * Cache bytes for `batch` sequences of `tokens` tokens. Sliding-window layers keep
 * min(tokens, windowTokens) when the runtime drops out-of-window entries; `windowTokens`
 * lets llama.cpp pass its padded iSWA size (llama-kv-cache-iswa.cpp).
 */
export function kvCacheBytes(
  arch: ModelArch,
  tokens: number,
  batch: number,
  bytesPerElement: number,
  policy: KvPolicy,
  windowTokens?: number,
): number {
  const perLayer = kvBytesPerTokenPerLayer(arch, bytesPerElement, policy);
  const L = kvLayers(arch);
  const sw = arch.slidingWindow;
  if (!sw || !policy.windowed) return L * perLayer * tokens * batch;
  const swaLayers = Math.min(L, Math.max(0, sw.layers));
  const kept = Math.min(tokens, windowTokens ?? sw.window);
  return ((L - swaLayers) * tokens + swaLayers * kept) * perLayer * batch;
}
