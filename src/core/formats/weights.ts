/**
 * Weight storage bytes for every WeightFormat, with the derivation shown on the page.
 * Dense formats: docs/reference/formulas.md §2.1. bitsandbytes: §2.2. GPTQ/AWQ: §2.3. GGUF: §2.4.
 * KV-cache element sizes: §3.1 and ggml-common.h (block_q8_0 = 34 B / 32, block_q4_0 = 18 B / 32).
 */
import type { Derivation, KvFormat, ModelArch, ParamBreakdown, WeightFormat } from '../types';
import { GGUF_AVG_BPW, ggufBytesFromArch, type WeightParts } from './gguf';
import type { GgufMix } from './ggml';
import { DEFAULT_GROUP_SIZE, awq, bnb4bit, bnb4bitFormat, bnbInt8, chatglmInt, chatglmQuantized, fp8, gptq, nominalBits, sumLinears, type LinearBytes } from './quantized';

export interface WeightOptions {
  /** bitsandbytes 4-bit double quantization (`bnb_4bit_use_double_quant`). Default: true for nf4 (QLoRA recipe), false for fp4 (HF default). */
  doubleQuant?: boolean;
  /** GPTQ/AWQ group size; default 128. */
  groupSize?: number;
  /** bytes per parameter of the tensors a scheme leaves unquantized (compute dtype); default 2 (fp16/bf16). */
  keepBytes?: number;
}

export type { WeightParts };

/**
 * The scenario's quantization settings as weightBytes options: double quantization for bitsandbytes
 * 4-bit ('auto': on for nf4, as QLoRA recipes set bnb_4bit_use_double_quant=True; off for fp4, the
 * BitsAndBytesConfig default) and the GPTQ / AWQ group size (null: 128).
 */
export function weightOptions(s: { weights: WeightFormat; doubleQuant: 'auto' | 'on' | 'off'; groupSize: number | null }): WeightOptions {
  return { doubleQuant: doubleQuantOn(s), ...(s.groupSize !== null ? { groupSize: s.groupSize } : {}) };
}

export { bnb4bitFormat };
/** double-quant changes these formats: bitsandbytes 4-bit. */
export const doubleQuantApplies = bnb4bitFormat;
/** group-size changes these formats: GPTQ and AWQ. */
export const groupSizeApplies = (w: WeightFormat): boolean => w === 'gptq-int4' || w === 'gptq-int8' || w === 'awq-int4';

/** bnb_4bit_use_double_quant of the scenario (the "check it on your GPU" script writes the same). */
export function doubleQuantOn(s: { weights: WeightFormat; doubleQuant: 'auto' | 'on' | 'off' }): boolean {
  return s.doubleQuant === 'auto' ? s.weights === 'nf4' : s.doubleQuant === 'on';
}

export interface WeightBytes {
  bytes: number;
  /** the same bytes split by role (embedding, LM head, block Linears, other) */
  parts: WeightParts;
  /** GGUF: block Linear bytes of each repeating layer (llama.cpp's per-layer type rules make them differ) */
  layerLinears?: number[];
  derivation: Derivation;
}

/** Every role priced at the same bytes per parameter ('other' = whatever the total has beyond the named roles). */
function uniform(b: ParamBreakdown, perParam: number): WeightParts {
  const other = Math.max(0, b.total - b.embedding - b.lmHead - b.blockLinear);
  return { embedding: b.embedding * perParam, lmHead: b.lmHead * perParam, blocks: b.blockLinear * perParam, other: other * perParam };
}

const sum = (p: WeightParts): number => p.embedding + p.lmHead + p.blocks + p.other;

const DENSE: Partial<Record<WeightFormat, number>> = { fp64: 8, fp32: 4, fp16: 2, bf16: 2 };

/**
 * Plain integer storage: every parameter, embeddings and LM head included, at the format's nominal
 * width with no scales or skipped modules — the precision table of the guides (int8 1 B, int4 0.5 B).
 * No runtime modelled here stores a model this way; bitsandbytes LLM.int8 (`bnb-int8`) keeps
 * the embeddings and LM head in 16-bit and adds one fp32 scale per output row.
 */
export const PLAIN_INT: Partial<Record<WeightFormat, number>> = { int8: 1, int4: 0.5 };

/** Classic quick-method bytes per parameter: the format's nominal width (fp64 8, fp32 4, 16-bit 2, 8-bit 1, 4-bit 0.5). */
export function bytesPerParamNominal(format: WeightFormat): number {
  const exact = DENSE[format] ?? PLAIN_INT[format];
  if (exact !== undefined) return exact;
  switch (format) {
    case 'fp8':
    case 'bnb-int8':
    case 'gptq-int8':
    case 'gguf-q8_0':
      return 1;
    case 'gguf-q6_k':
      return 6 / 8;
    case 'gguf-q5_k_m':
      return 5 / 8;
    case 'gguf-q3_k_m':
      return 3 / 8;
    case 'gguf-q2_k':
      return 2 / 8;
    default:
      return 0.5; // nf4, fp4, gptq-int4, awq-int4, gguf-q4_*
  }
}

/** Bytes per KV-cache element (llama.cpp q8_0/q4_0 include their fp16 block scale). */
export function kvBytesPerElement(kv: KvFormat): number {
  switch (kv) {
    case 'fp32':
      return 4;
    case 'fp16':
    case 'bf16':
      return 2;
    case 'fp8':
    case 'int8':
      return 1;
    case 'int4':
      return 0.5;
    case 'q8_0':
      return 34 / 32;
    case 'q4_0':
      return 18 / 32;
  }
}

function positiveInt(v: number | undefined, fallback: number): number {
  return v !== undefined && Number.isSafeInteger(v) && v > 0 ? v : fallback;
}

interface Scheme {
  linear: LinearBytes;
  bits: number;
  formula: string;
  source: string;
}

const chatglmScheme = (bits: number): Scheme => ({ linear: chatglmInt(bits), bits, formula: `d_out·d_in·${bits}/8 + 2·d_out`, source: 'ChatGLM quantization.py QuantizedLinear, quantize()' });

function scheme(format: WeightFormat, dq: boolean, g: number): Scheme | null {
  const bnbSrc = 'bitsandbytes bitsandbytes/nn/modules.py (Int8Params, Params4bit); docs/reference/formulas.md §2.2';
  switch (format) {
    case 'bnb-int8':
      return { linear: bnbInt8, bits: nominalBits('int8', 8, g), formula: 'd_in·d_out + 4·d_out', source: bnbSrc };
    case 'nf4':
    case 'fp4':
      return {
        linear: bnb4bit(dq),
        bits: nominalBits(dq ? 'nf4-dq' : 'nf4', 4, g),
        source: bnbSrc,
        formula: dq ? 'n/2 + ⌈n/64⌉ + 4·⌈n/16384⌉ + 4' : 'n/2 + 4·⌈n/64⌉',
      };
    case 'gptq-int4':
    case 'gptq-int8': {
      const w = format === 'gptq-int4' ? 4 : 8;
      return {
        linear: gptq(w, g),
        bits: nominalBits('gptq', w, g),
        source: 'AutoGPTQ QuantLinear buffers; docs/reference/formulas.md §2.3',
        formula: `d_in·d_out·${w}/8 + ⌈d_in/G⌉·d_out·(2 + ${w}/8) + 4·d_in`,
      };
    }
    case 'awq-int4':
      return {
        linear: awq(4, g),
        bits: nominalBits('awq', 4, g),
        source: 'AutoAWQ WQLinear_GEMM buffers; docs/reference/formulas.md §2.3',
        formula: 'd_in·d_out·4/8 + ⌈d_in/G⌉·d_out·(2 + 4/8)',
      };
    case 'fp8':
      return { linear: fp8, bits: 8, formula: 'd_in·d_out + 4', source: 'vLLM Fp8LinearMethod; docs/reference/formulas.md §2.1' };
    default:
      return null;
  }
}

/**
 * Bytes of the model's weights stored in `format`. With an architecture, quantized formats are
 * summed tensor by tensor (exact buffer shapes; GGUF with llama.cpp's per-tensor types); with
 * only a count (arch null) they use the scheme's asymptotic bits per weight (GGUF: average bpw).
 */
export function weightBytes(arch: ModelArch | null, breakdown: ParamBreakdown, format: WeightFormat, opts: WeightOptions = {}): WeightBytes {
  const P = breakdown.total;
  const dense = DENSE[format];
  if (dense !== undefined) {
    const parts = uniform(breakdown, dense);
    return {
      bytes: sum(parts),
      parts,
      derivation: { formula: 'P · b', values: { P, b: dense }, source: 'IEEE 754 / bfloat16 widths; docs/reference/formulas.md §2.1', confidence: 'exact' },
    };
  }
  const plain = PLAIN_INT[format];
  // ChatGLM's own quantize() keeps the embedding, output layer, norms and biases in fp16 (quantized.ts chatglmInt)
  const glm = plain !== undefined && chatglmQuantized(arch?.family ?? '', format);
  if (plain !== undefined && !glm) {
    const parts = uniform(breakdown, plain);
    return {
      bytes: sum(parts),
      parts,
      derivation: {
        formula: 'P · b',
        values: { P, b: plain },
        source: 'nominal integer width (1 B int8, 0.5 B int4); formulas.md §2.1',
        confidence: 'heuristic',
        note: {
          code: 'weights.plain-int',
          params: { format },
          text: `Plain ${format}: every parameter at ${plain} B, embeddings and LM head included, no scales. bitsandbytes LLM.int8 (bnb-int8) instead keeps the embeddings and LM head in 16-bit.`,
        },
      },
    };
  }
  if (format.startsWith('gguf-')) return gguf(arch, breakdown, format.slice(5) as GgufMix);
  const keep = opts.keepBytes !== undefined && Number.isFinite(opts.keepBytes) && opts.keepBytes > 0 ? opts.keepBytes : 2;
  const g = positiveInt(opts.groupSize, DEFAULT_GROUP_SIZE);
  const s = glm ? chatglmScheme(plain * 8) : scheme(format, opts.doubleQuant ?? format === 'nf4', g)!;
  const lin = breakdown.blockLinear;
  const linearBytes = arch ? sumLinears(arch, s.linear) : (lin * s.bits) / 8;
  const parts = { ...uniform(breakdown, keep), blocks: linearBytes };
  const bits = lin > 0 ? (8 * linearBytes) / lin : 0;
  return {
    bytes: sum(parts),
    parts,
    derivation: {
      formula: `Σ_linear (${s.formula}) + (P − P_linear) · b_keep`,
      values: { P, P_linear: lin, bits_per_linear_weight: bits, b_keep: keep, G: g },
      source: s.source,
      confidence: arch ? 'exact' : 'derived',
      ...(arch ? {} : { note: { code: 'weights.no-arch', text: 'Per-row and per-tensor terms (scales per output row, g_idx) are left out without an architecture.' } }),
    },
  };
}

function gguf(arch: ModelArch | null, breakdown: ParamBreakdown, mix: GgufMix): WeightBytes {
  const source = 'llama.cpp src/llama-quant.cpp llama_tensor_get_type; ggml/src/ggml-common.h; docs/reference/formulas.md §2.4';
  const exact = arch ? ggufBytesFromArch(arch, breakdown, mix) : null;
  if (exact) {
    const values: Record<string, number | string> = { mix };
    for (const [t, n] of Object.entries(exact.paramsByType)) values[`P_${t}`] = n ?? 0;
    return {
      bytes: exact.bytes,
      parts: exact.parts,
      ...(exact.layerLinears ? { layerLinears: exact.layerLinears } : {}),
      derivation: { formula: 'Σ_tensors numel · bpw(type)/8', values, source, confidence: 'derived' },
    };
  }
  const bpw = GGUF_AVG_BPW[mix];
  const parts = uniform(breakdown, bpw / 8);
  return {
    bytes: sum(parts),
    parts,
    derivation: {
      formula: 'P · bpw_avg / 8',
      values: { P: breakdown.total, bpw_avg: bpw, mix },
      source,
      confidence: 'heuristic',
      note: {
        code: 'weights.gguf-average',
        params: { mix: mix.toUpperCase(), bpw },
        text: `Average ${bpw} bits per weight of a Llama-3-8B ${mix.toUpperCase()} file; the real mix depends on the architecture.`,
      },
    },
  };
}
