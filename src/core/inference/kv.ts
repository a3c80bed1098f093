/**
 * KV-cache size (formulas.md §3.1): K and V per layer per token, GQA-aware, MLA latent,
 * sliding windows, tensor-parallel head split; transformers' Falcon-40B-style grouped K/V cached at
 * all heads (sdpa.ts hfExpandsKv).
 */
import { attentionLayers } from '../model/hybrid';
import { hfExpandsKv } from '../sdpa';
import type { ModelArch } from '../types';
import { add, evaluate, max, min, mul, sub, sym, div, type Expr, type Operand } from '../formula';

/** How a runtime lays out the cache. */
export interface KvPolicy {
  /** MLA: cache the compressed latent (vLLM, llama.cpp) instead of decompressed K/V (HF). */
  mlaLatent: boolean;
  /** sliding-window layers keep only the window (vLLM hybrid allocator, llama.cpp iSWA) */
  windowed: boolean;
  /** tensor-parallel degree: each GPU holds max(1, g/t) KV heads */
  tp: number;
  /** the model's own code expands grouped K/V to all heads before caching (transformers: sdpa.ts hfExpandsKv) */
  expandsKv?: boolean;
}

/** Heads on one GPU: max(1, n/t); just n without tensor parallelism. */
function headsPerGpu(name: string, n: number, tp: number): Expr {
  const t = Math.max(1, tp);
  return t === 1 ? sym(name, n) : max(1, div(sym(name, n), sym('t', t)));
}

/** Bytes of K+V per token in ONE full-attention layer, per GPU, as an expression. */
export function kvPerLayerExpr(arch: ModelArch, bytesPerElement: Operand, policy: KvPolicy): Expr {
  if (arch.mla) {
    const m = arch.mla;
    // vLLM: "for MLA we only store a single latent vector", head_size = r_kv + d_r (kv_cache_interface.py)
    if (policy.mlaLatent) return mul(add(sym('r_kv', m.kvLoraRank), sym('d_r', m.qkRopeHeadDim)), bytesPerElement);
    // HF eager caches expanded key (d_n + d_r) and value (d_v) states for all a heads
    return mul(headsPerGpu('a', arch.heads, policy.tp), add(sym('d_n', m.qkNopeHeadDim), sym('d_r', m.qkRopeHeadDim), sym('d_v', m.vHeadDim)), bytesPerElement);
  }
  if (policy.expandsKv && hfExpandsKv(arch)) return mul(2, headsPerGpu('a', arch.heads, policy.tp), sym('d', arch.headDim), bytesPerElement);
  return mul(2, headsPerGpu('g', arch.kvHeads, policy.tp), sym('d', arch.headDim), bytesPerElement);
}

/** Bytes of K+V per token in ONE full-attention layer, per GPU. */
export function kvBytesPerTokenPerLayer(arch: ModelArch, bytesPerElement: number, policy: KvPolicy): number {
  return evaluate(kvPerLayerExpr(arch, bytesPerElement, policy));
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
 * Cache bytes for `batch` sequences of `tokens` tokens, as an expression. Sliding-window layers
 * keep min(tokens, windowTokens) when the runtime drops out-of-window entries; `windowTokens`
 * lets llama.cpp pass its padded iSWA size (llama-kv-cache-iswa.cpp).
 */
export function kvCacheExpr(arch: ModelArch, tokens: Operand, batch: Operand, bytesPerElement: Operand, policy: KvPolicy, windowTokens?: Operand): Expr {
  const perLayer = kvPerLayerExpr(arch, bytesPerElement, policy);
  const nL = kvLayers(arch);
  const L = sym('L', nL);
  const sw = arch.slidingWindow;
  if (!sw || !policy.windowed) return mul(L, perLayer, tokens, batch);
  const swa = sym('L_swa', Math.min(nL, Math.max(0, sw.layers)));
  const kept = min(tokens, windowTokens ?? sym('W', sw.window));
  return mul(add(mul(sub(L, swa), tokens), mul(swa, kept)), perLayer, batch);
}

/** Cache bytes for `batch` sequences of `tokens` tokens (kvCacheExpr's value). */
export function kvCacheBytes(arch: ModelArch, tokens: number, batch: number, bytesPerElement: number, policy: KvPolicy, windowTokens?: number): number {
  return evaluate(kvCacheExpr(arch, tokens, batch, bytesPerElement, policy, windowTokens));
}
