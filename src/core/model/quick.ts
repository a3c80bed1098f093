/**
 * Quick mode: a bare parameter count ('7b', '6.7e9', '70 billion') and a documented shape
 * guess for it, so the estimators that need h, L, heads (KV cache, activations) still run.
 * Shape table: GPT-2 paper (Radford et al. 2019, Table 2), LLaMA paper (arXiv 2302.13971, Table 2),
 * Llama-2 (arXiv 2307.09288), Llama-3 herd (arXiv 2407.21783, Table 3); MLP width rule of
 * Meta's llama `model.py` (ffn = 256·⌈(8h/3)/256⌉); docs/reference/formulas.md §1.1 for the count.
 */
import type { FieldError, Message, ModelArch, Result } from '../types';
import { LLAMA_STYLE } from './llama-style';
import { countParams } from './params';

const SUFFIX: Record<string, number> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  mn: 1e6,
  million: 1e6,
  b: 1e9,
  bn: 1e9,
  g: 1e9,
  billion: 1e9,
  t: 1e12,
  tn: 1e12,
  trillion: 1e12,
};

const COUNT_RE = /^(\d[0-9,_]*(?:\.\d+)?|\.\d+)(?:e([+-]?\d{1,3}))?(?:\s*([a-z]+))?(?:\s+param(?:eter)?s?)?$/;

/** Largest count accepted: 1e15 parameters (1000× the largest published dense model). */
export const MAX_QUICK_PARAMS = 1e15;

/**
 * Parse a bare parameter count: '7b', '7B', '6.7e9', '70 billion', '125m', '1.5t',
 * '7,000,000,000'. Returns null for anything else, zero, or more than MAX_QUICK_PARAMS.
 */
export function parseQuickCount(text: string): number | null {
  if (typeof text !== 'string' || text.length > 64) return null;
  const m = COUNT_RE.exec(text.trim().toLowerCase());
  if (!m) return null;
  const [, digits = '', exponent, suffix] = m; // the digits are not optional
  // Commas only as thousands separators ('7,000,000'), never as a decimal comma ('7,5b').
  if (digits.includes(',') && !/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(digits)) return null;
  const mult = suffix === undefined ? 1 : SUFFIX[suffix];
  if (mult === undefined) return null;
  const n = Number(digits.replace(/[,_]/g, '')) * 10 ** Number(exponent ?? 0) * mult;
  return Number.isFinite(n) && n >= 1 && n <= MAX_QUICK_PARAMS ? n : null;
}

/** parseQuickCount with a FieldError (key defaults to 'params') instead of null. */
export function parseParamCount(text: string, key = 'params'): Result<number> {
  const n = parseQuickCount(text);
  if (n !== null) return { ok: true, value: n };
  const err: FieldError = {
    key,
    code: 'invalid-count',
    message: `${key}: expected a parameter count such as 7b, 125m, 6.7e9 or 70 billion (at most 1e15), got ${JSON.stringify(String(text).slice(0, 40))}`,
  };
  return { ok: false, errors: [err] };
}

type Shape = { h: number; L: number; a: number };
/** Published shapes (hidden, layers, heads) of the GPT-2 and Llama families, small to large. */
const SHAPES: readonly [Shape, ...Shape[]] = [
  { h: 768, L: 12, a: 12 }, // GPT-2 124M
  { h: 1024, L: 24, a: 16 }, // GPT-2 medium 355M
  { h: 2048, L: 16, a: 32 }, // Llama-3.2-1B
  { h: 3072, L: 28, a: 24 }, // Llama-3.2-3B
  { h: 4096, L: 32, a: 32 }, // Llama-2-7B
  { h: 5120, L: 40, a: 40 }, // Llama-2-13B
  { h: 6656, L: 60, a: 52 }, // LLaMA-33B
  { h: 8192, L: 80, a: 64 }, // Llama-2-70B
  { h: 16384, L: 126, a: 128 }, // Llama-3.1-405B
];

/** Above this size the guess uses 8 KV heads (GQA), as Llama-2-70B and every Llama-3 size do. */
const GQA_FROM = 30e9;
/** Llama-1/2 tokenizer size. */
const GUESS_VOCAB = 32000;

function template(h: number, L: number, a: number, gqa: boolean): ModelArch {
  return {
    family: 'llama-guess',
    hidden: h,
    layers: L,
    heads: a,
    kvHeads: gqa ? 8 : a,
    headDim: h / a,
    ffn: 256 * Math.ceil((8 * h) / 3 / 256),
    vocab: GUESS_VOCAB,
    ...LLAMA_STYLE,
  };
}

/**
 * A Llama-style shape for a bare count: the published shape nearest in log-size gives h and
 * heads (above 405B the width grows at 126 layers), then L is re-solved so the count lands on
 * the target (within ~half a layer: a few % from ~100M up; below that the embedding alone is
 * larger and the guess overshoots).
 * The result is a guess: show SHAPE_GUESS_NOTE with it.
 */
export function guessArch(params: number): ModelArch {
  const p = Number.isFinite(params) && params > 0 ? Math.min(params, MAX_QUICK_PARAMS) : 1;
  const gqa = p > GQA_FROM;
  let best = SHAPES[0];
  let bestDist = Infinity;
  for (const s of SHAPES) {
    const dist = Math.abs(Math.log(countParams(template(s.h, s.L, s.a, gqa)).total / p));
    if (dist < bestDist) [best, bestDist] = [s, dist];
  }
  let { h, a } = best;
  if (best === SHAPES.at(-1)) {
    // Beyond the largest published shape, widen at its depth rather than stack layers:
    // a Llama block holds ≈ 10·h² parameters (2h² attention with GQA + 8h² SwiGLU MLP), head_dim 128.
    h = Math.max(best.h, 1024 * Math.ceil(Math.sqrt(p / (10 * best.L)) / 1024));
    a = h / 128;
  }
  const one = template(h, 1, a, gqa);
  const perLayer = countParams(one).perLayer;
  const outside = countParams(one).total - perLayer;
  const L = Math.max(1, Math.round((p - outside) / perLayer));
  return template(h, L, a, gqa);
}

/** Note to show whenever guessArch's shape is used. */
export function shapeGuessNote(params: number, arch: ModelArch): Message {
  return {
    code: 'model.shape-guess',
    params: { params, hidden: arch.hidden, layers: arch.layers, heads: arch.heads, kvHeads: arch.kvHeads },
    text:
      `Only a parameter count was given: the shape (h=${arch.hidden}, L=${arch.layers}, ` +
      `${arch.heads} heads, ${arch.kvHeads} KV heads) is a Llama-style guess, so KV cache and activations are approximate.`,
  };
}
