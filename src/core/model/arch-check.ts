/**
 * Is an unknown value (read back from storage, a file, a message) a usable ModelArch? Checks
 * every field of the contract in src/core/types.ts, the optional ones too, so the estimate
 * never meets a wrong type, a NaN, or a zero it divides by (moe.layerFreq, tensors.ts).
 */
import type { ModelArch } from '../types';

/**
 * Largest size or count accepted: 2^40, the bound the first saved-models reader (v1, which
 * shipped) used, so everything it accepted still reads. Products of a few such values stay far
 * below float64's range, so counts stay finite.
 */
export const MAX_ARCH_VALUE = 2 ** 40;
/** Longest family label (ArchEditor lets users type 40 characters; config families are shorter). */
const MAX_FAMILY_CHARS = 100;

type Rec = Record<string, unknown>;
const isRec = (x: unknown): x is Rec => typeof x === 'object' && x !== null && !Array.isArray(x);
const int = (v: unknown, min: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= MAX_ARCH_VALUE;
/** absent, or a whole number of at least `min` */
const optInt = (o: Rec, k: string, min: number) => !(k in o) || int(o[k], min);
const optBool = (o: Rec, k: string) => !(k in o) || typeof o[k] === 'boolean';

/**
 * Required whole-number fields and their least value: kvHeads ≥ 1 (gguf.ts divides heads by it),
 * headDim ≥ 1 as the arch editor enforces (arch-fields.ts); ffn and normsPerLayer may be 0.
 */
const REQUIRED_INT: readonly [keyof ModelArch, number][] = [
  ['hidden', 1],
  ['layers', 1],
  ['heads', 1],
  ['vocab', 1],
  ['kvHeads', 1],
  ['headDim', 1],
  ['ffn', 0],
  ['normsPerLayer', 0],
];
const REQUIRED_BOOL: readonly (keyof ModelArch)[] = ['gatedMlp', 'tiedEmbeddings', 'qkvBias', 'oBias', 'mlpBias'];
const OPTIONAL_INT: readonly [keyof ModelArch, number][] = [
  ['positionEmbeddings', 0],
  ['typeVocab', 0],
  ['maxContext', 1],
  ['relPosBuckets', 0],
  ['visionParams', 0],
];

function isMoe(m: unknown): boolean {
  if (!isRec(m)) return false;
  const ints: [string, number][] = [
    ['experts', 1],
    ['expertsPerToken', 1],
    ['expertFfn', 0],
    ['sharedExperts', 0],
    ['sharedFfn', 0],
    ['denseLayers', 0],
    ['layerFreq', 1],
  ];
  return ints.every(([k, min]) => int(m[k], min)) && (m.expertsPerToken as number) <= (m.experts as number) && optBool(m, 'routerBias') && optBool(m, 'sharedExpertGate');
}

function isMla(m: unknown): boolean {
  if (!isRec(m)) return false;
  return (m.qLoraRank === null || int(m.qLoraRank, 0)) && ['kvLoraRank', 'qkNopeHeadDim', 'qkRopeHeadDim', 'vHeadDim'].every((k) => int(m[k], 0));
}

const MIXERS: readonly unknown[] = ['mamba', 'mamba2', 'gdn', 'rwkv7'];
const FFNS: readonly unknown[] = ['dense', 'moe', 'none'];

/** Hybrid mixer sizes and a block list whose counts sum to the layer count (types.ts HybridArch). */
function isHybrid(m: unknown, layers: number): boolean {
  if (!isRec(m) || !MIXERS.includes(m.mixer) || !Array.isArray(m.blocks)) return false;
  const sizes: [string, number][] = [
    ['dInner', 1],
    ['dState', 1],
    ['ssmHeads', 0],
    ['groups', 0],
    ['convKernel', 1],
    ['dtRank', 0],
  ];
  if (!sizes.every(([k, min]) => int(m[k], min))) return false;
  if (!['convBias', 'projBias', 'gatedNorm', 'stateFp32', 'attnGate'].every((k) => typeof m[k] === 'boolean')) return false;
  if ('shared' in m && !(isRec(m.shared) && int(m.shared.blocks, 1) && int(m.shared.adapterRank, 0) && typeof m.shared.attnAdapter === 'boolean')) return false;
  if ('lowRank' in m && !(isRec(m.lowRank) && ['w', 'a', 'v', 'g'].every((k) => int((m.lowRank as Rec)[k], 0)))) return false;
  let total = 0;
  for (const b of m.blocks as unknown[]) {
    if (!isRec(b) || typeof b.attn !== 'boolean' || typeof b.ssm !== 'boolean' || !FFNS.includes(b.ffn) || !int(b.count, 0)) return false;
    total += b.count as number;
  }
  return total === layers;
}

/** A vision tower (types.ts VisionTower): positive sizes, and either a fixed size with its token count or a merge rule. */
function isVision(v: unknown): boolean {
  if (!isRec(v) || !['hidden', 'layers', 'heads', 'ffn', 'patch'].every((k) => int(v[k], 1))) return false;
  if (!['classToken', 'keepsAllHidden', 'perImageAttention'].every((k) => typeof v[k] === 'boolean')) return false;
  const m = v.merge;
  const merge = m === null ? null : isRec(m) && ['side', 'minPixels', 'maxPixels'].every((k) => int(m[k], 1)) ? m : undefined;
  if (merge === undefined) return false;
  const fixed = int(v.imageSize, 1) && int(v.tokensPerImage, 1);
  return merge !== null ? (v.imageSize === null || int(v.imageSize, 1)) && (v.tokensPerImage === null || int(v.tokensPerImage, 1)) : fixed;
}

/**
 * True when `x` has every required ModelArch field with the right type and a sane value, and each
 * optional field present is well formed (moe: k ≤ E, layerFreq ≥ 1; slidingWindow: layers ≤ L).
 * Unknown extra fields are ignored (a newer page may add some).
 */
export function isModelArch(x: unknown): x is ModelArch {
  if (!isRec(x)) return false;
  if (typeof x.family !== 'string' || x.family.length > MAX_FAMILY_CHARS) return false;
  if (x.norm !== 'rmsnorm' && x.norm !== 'layernorm') return false;
  if (!REQUIRED_INT.every(([k, min]) => int(x[k], min))) return false;
  if (!REQUIRED_BOOL.every((k) => typeof x[k] === 'boolean')) return false;
  if (!OPTIONAL_INT.every(([k, min]) => optInt(x, k, min))) return false;
  if (!optBool(x, 'qkNorm') || !optBool(x, 'pooler')) return false;
  if ('moe' in x && !isMoe(x.moe)) return false;
  if ('mla' in x && !isMla(x.mla)) return false;
  if ('encoderDecoder' in x && !(isRec(x.encoderDecoder) && int(x.encoderDecoder.decoderLayers, 0))) return false;
  if ('hybrid' in x && !isHybrid(x.hybrid, x.layers as number)) return false;
  if ('vision' in x && !isVision(x.vision)) return false;
  if ('slidingWindow' in x) {
    const s = x.slidingWindow;
    if (!isRec(s) || !int(s.window, 1) || !int(s.layers, 0) || (s.layers as number) > (x.layers as number)) return false;
  }
  return true;
}
