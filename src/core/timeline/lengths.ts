/**
 * Sequence lengths of the replayed steps for `lengths=varied`: samples of an instruction data set
 * truncated at max_length (`seq`), padded to the longest sample of each batch (transformers
 * DataCollatorWithPadding / DataCollatorForSeq2Seq pad to the longest in the batch; no packing).
 *
 * Sample lengths are drawn lognormal — mean `len-mean` tokens (default seq/2), log-space σ
 * `len-spread` (default 0.6) — and clipped at seq. These defaults are assumptions, not fitted
 * to any measurement; with an 'auto' mean the band also covers shorter means (index.ts AUTO_MEANS).
 *
 * Only the RECORDS of a run are replayed: the steps longer than every step before them. The caching
 * allocator frees no segment while the card has room (CUDACachingAllocator.cpp: release happens on a
 * failed cudaMalloc or empty_cache), and a step no longer than an earlier one finds its blocks in
 * the segments that step left (best fit, split): our 300-step H100 run (fixtures/measured-gpu.json
 * t026) grew by 8 MiB in total over its 298 steps that were not records. A record needs new segments
 * for its larger tensors. Once a step reaches max_length no later step can be longer, so the run's
 * reserved memory is settled; a run that never reaches it keeps finding records, ever more rarely.
 */
import { meanLength } from './mean-length';

/** Steps of the run whose records are replayed: a long fine-tuning run (an epoch of tens of thousands of samples). */
export const RUN_STEPS = 1000;
export const DEFAULT_SPREAD = 0.6;
/** Fixed seed: the same scenario always gives the same lengths. */
const SEED = 0x5eed;
/**
 * Orders of the lengths drawn for lengths=varied: the Trainer shuffles its samples, so how many
 * records a run meets before its first step at max_length is chance. Drawing an order is cheap
 * (two uniforms per record, runRecords); replaying one is not, so the orders are ranked by what their records
 * cost (timeline/index.ts `orders`) and only a few are replayed. The median of 15 replayed orders
 * moved by up to 30 % with the seeds (t027, Llama-3.2-1B LoRA, mean 384 of 2,048 tokens: 14.1 GiB
 * against 20.5 GiB for the median of 101 replays); the ranked median of 201 is within 2 % of the
 * median of all 201 replays (tests/validation/measured-gpu.test.ts).
 */
export const VARIED_DRAWS = 201;

/** mulberry32: a small, fast, seeded PRNG with uniform output in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface LengthOptions {
  seq: number;
  batch: number;
  /** mean sample length in tokens (null: seq/2) */
  mean: number | null;
  /** lognormal σ (null: DEFAULT_SPREAD) */
  spread: number | null;
  /** steps in the run (default RUN_STEPS) */
  steps?: number;
  /** which draw (0, 1, …): another seed, another order */
  draw?: number;
}

/** The records of one drawn run: each step longer than all before it, with its 0-based step in the run. */
export interface RunRecords {
  lengths: number[];
  steps: number[];
}

/**
 * The standard normal quantile Φ⁻¹(p), 0 < p < 1: P. J. Acklam's rational approximation (2003,
 * "An algorithm for computing the inverse normal cumulative distribution function"), relative
 * error below 1.15e-9 — far finer than the rounding of a token count.
 */
export function normalQuantile(p: number): number {
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239] as const;
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572] as const;
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783] as const;
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416] as const;
  const tail = (q: number): number => (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * The standard normal upper tail 1 − Φ(z) = erfc(z/√2)/2, with erfc from Numerical Recipes' `erfcc`
 * (Press et al., Numerical Recipes in C, 2nd ed., §6.2: Chebyshev fit, fractional error below
 * 1.2e-7 everywhere, so the small tails a record's chance lives in keep their precision).
 */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}

/**
 * The records of a run of `steps` steps whose padded length is the longest of `batch` drawn samples
 * (in [1, seq]); the first step is always one, and the last is the first step at seq if the run
 * reaches it. The longest of b samples has CDF G(x) = F(x)^b. After a record r, each step beats it
 * (rounds above r) with chance p = 1 − G(r + ½), independently, so the steps up to the next record
 * are geometric in p, and that record is G⁻¹ of a uniform above G(r + ½): the run is drawn record
 * by record, not step by step, with the same distribution. G⁻¹(u) is the lognormal's
 * exp(mu + σ·Φ⁻¹(u^(1/b))).
 */
export function runRecords(o: LengthOptions): RunRecords {
  const seq = Math.max(1, Math.floor(o.seq));
  const n = Math.max(1, Math.floor(o.steps ?? RUN_STEPS));
  const mean = meanLength(seq, o.mean);
  const sigma = Math.max(0, o.spread ?? DEFAULT_SPREAD);
  // lognormal with this mean: mu = ln(mean) − σ²/2
  const mu = Math.log(mean) - (sigma * sigma) / 2;
  const rand = mulberry32(SEED + Math.max(0, Math.floor(o.draw ?? 0)));
  const b = Math.max(1, Math.floor(o.batch));
  // U in (0, 1): mulberry32's grid of [0, 1) in steps of 2⁻³², moved up half a step
  const uniform = () => rand() + 2 ** -33;
  const out: RunRecords = { lengths: [], steps: [] };
  let best = 0;
  let i = 0;
  while (i < n && best < seq) {
    // p = 1 − G(best + ½) = 1 − (1 − Q)^b, from the upper tail Q so that a small chance keeps its digits
    const p = best === 0 ? 1 : sigma > 0 ? -Math.expm1(b * Math.log1p(-normalUpperTail((Math.log(best + 0.5) - mu) / sigma))) : Number(Math.exp(mu) >= best + 0.5);
    if (p <= 0) break;
    if (best > 0) i += p >= 1 ? 1 : 1 + Math.floor(Math.log(uniform()) / Math.log1p(-p));
    if (i >= n) break;
    const g = 1 - p + p * uniform();
    const len = Math.min(seq, Math.max(best + 1, Math.round(Math.exp(mu + sigma * normalQuantile(g ** (1 / b))))));
    best = len;
    out.lengths.push(len);
    out.steps.push(i);
  }
  return out;
}
