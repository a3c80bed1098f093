/**
 * GGUF weight bytes: llama.cpp's per-tensor types (ggml.ts) applied to every tensor of the
 * architecture, or an average bits-per-weight when only a count is known.
 * Source: formulas.md §2.4 (rules from llama.cpp `src/llama-quant.cpp`; checked against the
 * Llama-3-8B sizes listed in `tools/quantize/quantize.cpp` QUANT_OPTIONS). 1-D tensors (norms,
 * biases), the MoE router `ffn_gate_inp` and position / token-type embeddings stay F32
 * (convert_hf_to_gguf.py keeps them F32; llama-quant.cpp never quantizes them).
 */
import type { ModelArch, ParamBreakdown } from '../types';
import { MAX_LAYERS } from '../model/fields';
import { blockKinds, isMoeLayer, type BlockKind } from '../model/tensors';
import { GGML_BLOCK, blockTensorType, embeddingType, ggmlBytes, outputType, type GgmlType, type GgufMix, type MixContext } from './ggml';

/**
 * Average bits per weight over all parameters of Llama-3-8B for each mix (formulas.md §2.4
 * table, "average bpw over all 8.03B params"): the fallback when the architecture is unknown.
 * Model-dependent: the Q6_K head weighs more when V·h is a larger share of the model.
 */
export const GGUF_AVG_BPW: Record<GgufMix, number> = {
  q8_0: 8.5, q6_k: 6.56, q5_k_m: 5.7, q4_k_m: 4.89, q4_k_s: 4.67, q4_0: 4.64, q3_k_m: 4.0, q2_k: 3.16,
};

export interface GgufSize {
  bytes: number;
  /** parameters stored in each ggml type */
  paramsByType: Partial<Record<GgmlType, number>>;
}

function mixContext(arch: ModelArch, mix: GgufMix): MixContext {
  const family = arch.family;
  return {
    mix,
    layers: arch.layers,
    gqa: arch.heads / arch.kvHeads,
    experts: arch.moe?.experts ?? 0,
    // llama.cpp llama-model.cpp: 80 layers is LLM_TYPE_70B for Llama with GQA (65B if MHA) and for Qwen2.
    is70B: arch.layers === 80 && ((family === 'llama' && arch.kvHeads < arch.heads) || family === 'qwen2'),
    falcon: family === 'falcon',
  };
}

/** Per-tensor GGUF size of a known architecture (null when it has too many layers to walk). */
export function ggufBytesFromArch(arch: ModelArch, breakdown: ParamBreakdown, mix: GgufMix): GgufSize | null {
  if (arch.layers > MAX_LAYERS || (arch.encoderDecoder?.decoderLayers ?? 0) > MAX_LAYERS) return null;
  const c = mixContext(arch, mix);
  const byType: Partial<Record<GgmlType, number>> = {};
  let bytes = 0;
  const add = (t: GgmlType, din: number, dout: number, copies = 1): void => {
    byType[t] = (byType[t] ?? 0) + din * dout * copies;
    bytes += ggmlBytes(t, din, dout) * copies;
  };
  const h = arch.hidden;
  // Token embedding: rows of h; when tied it is the output tensor and follows the head's rule.
  add(arch.tiedEmbeddings ? outputType(c, h) : embeddingType(c, h), h, arch.vocab);
  if (!arch.tiedEmbeddings) add(outputType(c, h), h, arch.vocab);
  const kinds = blockKinds(arch);
  const walk = (kind: BlockKind | undefined, i: number): void => {
    for (const t of kind?.linears ?? []) add(blockTensorType(c, t.role, i, t.din), t.din, t.dout, t.copies);
  };
  const dense = kinds.find((k) => k.kind === 'dense');
  const moe = kinds.find((k) => k.kind === 'moe');
  for (let i = 0; i < arch.layers; i++) walk(isMoeLayer(arch, i) ? moe : dense, i);
  const dec = kinds.find((k) => k.kind === 'decoder');
  for (let i = 0; i < (arch.encoderDecoder?.decoderLayers ?? 0); i++) walk(dec, i);
  // A vision tower ships as a separate F16 mmproj file (llama.cpp tools/mtmd).
  const vision = arch.visionParams ?? 0;
  if (vision > 0) add('f16', vision, 1);
  // Everything else (norms, biases, routers, position / type embeddings) stays F32.
  const rest = breakdown.total - Object.values(byType).reduce((s, n) => s + (n ?? 0), 0);
  byType.f32 = (byType.f32 ?? 0) + rest;
  bytes += rest * GGML_BLOCK.f32.bytes;
  return { bytes, paramsByType: byType };
}
