/**
 * GGUF weight bytes: llama.cpp's per-tensor types (ggml.ts) applied to every tensor of the
 * architecture, or an average bits-per-weight when only a count is known.
 * Source: docs/reference/formulas.md §2.4 (rules from llama.cpp `src/llama-quant.cpp`; checked against the
 * Llama-3-8B sizes listed in `tools/quantize/quantize.cpp` QUANT_OPTIONS). 1-D tensors (norms,
 * biases), the MoE router `ffn_gate_inp` and position / token-type embeddings stay F32
 * (convert_hf_to_gguf.py keeps them F32; llama-quant.cpp never quantizes them).
 */
import type { ModelArch, ParamBreakdown } from '../types';
import { MAX_LAYERS } from '../model/fields';
import { blockKinds, isMoeLayer, type BlockKind } from '../model/tensors';
import { blockTensorType, embeddingType, ggmlBytes, outputType, type GgmlType, type GgufMix, type MixContext } from './ggml';

/**
 * Average bits per weight over all parameters of Llama-3-8B for each mix (docs/reference/formulas.md §2.4
 * table, "average bpw over all 8.03B params"): the fallback when the architecture is unknown.
 * Model-dependent: the Q6_K head weighs more when V·h is a larger share of the model.
 */
export const GGUF_AVG_BPW: Record<GgufMix, number> = {
  q8_0: 8.5,
  q6_k: 6.56,
  q5_k_m: 5.7,
  q4_k_m: 4.89,
  q4_k_s: 4.67,
  q4_0: 4.64,
  q3_k_m: 4.0,
  q2_k: 3.16,
};

/** Bytes by role (sums to the total). */
export interface WeightParts {
  /** token embedding (+ position / token-type tables) */
  embedding: number;
  /** untied LM head */
  lmHead: number;
  /** block Linear weights */
  blocks: number;
  /** norms, biases, routers, vision tower */
  other: number;
}

export interface GgufSize {
  bytes: number;
  parts: WeightParts;
  /** parameters stored in each ggml type */
  paramsByType: Partial<Record<GgmlType, number>>;
  /** block Linear bytes of each repeating layer, blk.0 first (absent for encoder-decoder models) */
  layerLinears?: number[];
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

/**
 * Per-tensor GGUF size of a known architecture (null when it has too many layers to walk).
 * `breakdown` supplies the role counts of the small tensors (countParams(arch)).
 */
export function ggufBytesFromArch(arch: ModelArch, breakdown: ParamBreakdown, mix: GgufMix): GgufSize | null {
  if (arch.layers > MAX_LAYERS || (arch.encoderDecoder?.decoderLayers ?? 0) > MAX_LAYERS) return null;
  const c = mixContext(arch, mix);
  const byType: Partial<Record<GgmlType, number>> = {};
  const add = (t: GgmlType, din: number, dout: number, copies = 1): number => {
    byType[t] = (byType[t] ?? 0) + din * dout * copies;
    return ggmlBytes(t, din, dout) * copies;
  };
  const h = arch.hidden;
  const vh = h * arch.vocab;
  // Token embedding: rows of h; when tied it is the output tensor and follows the head's rule.
  // Position / token-type tables stay F32.
  const extraEmbed = Math.max(0, breakdown.embedding - vh);
  const embedding = add(arch.tiedEmbeddings ? outputType(c, h) : embeddingType(c, h), h, arch.vocab) + add('f32', extraEmbed, 1);
  const lmHead = arch.tiedEmbeddings ? 0 : add(outputType(c, h), h, arch.vocab);
  const kinds = blockKinds(arch);
  let blocks = 0;
  const walk = (kind: BlockKind | undefined, i: number): number => {
    const before = blocks;
    for (const t of kind?.linears ?? []) blocks += add(blockTensorType(c, t.role, i, t.din), t.din, t.dout, t.copies);
    return blocks - before;
  };
  const layerLinears: number[] = [];
  const dense = kinds.find((k) => k.kind === 'dense');
  const moe = kinds.find((k) => k.kind === 'moe');
  if (arch.hybrid) {
    let i = 0;
    for (const k of kinds) for (let j = 0; j < k.count; j++) layerLinears.push(walk(k, i++));
  } else {
    for (let i = 0; i < arch.layers; i++) layerLinears.push(walk(isMoeLayer(arch, i) ? moe : dense, i));
  }
  const dec = kinds.find((k) => k.kind === 'decoder');
  for (let i = 0; i < (arch.encoderDecoder?.decoderLayers ?? 0); i++) walk(dec, i);
  // A vision tower ships as a separate F16 mmproj file (llama.cpp tools/mtmd); norms, biases
  // and routers stay F32.
  const small = Math.max(0, breakdown.total - breakdown.embedding - breakdown.lmHead - breakdown.blockLinear);
  const vision = Math.min(arch.visionParams ?? 0, small);
  const other = add('f16', vision, 1) + add('f32', small - vision, 1);
  for (const t of Object.keys(byType) as GgmlType[]) if (byType[t] === 0) delete byType[t];
  const perLayer = arch.encoderDecoder ? {} : { layerLinears };
  return { bytes: embedding + lmHead + blocks + other, parts: { embedding, lmHead, blocks, other }, paramsByType: byType, ...perLayer };
}
