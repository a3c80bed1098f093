/**
 * Sequence lengths of the replayed steps for `lengths=varied`: samples of an instruction data set
 * truncated at max_length (`seq`), padded to the longest sample of each batch (transformers
 * DataCollatorWithPadding / DataCollatorForSeq2Seq pad to the longest in the batch; no packing).
 *
 * Sample lengths are drawn lognormal — mean `len-mean` tokens (default seq/2), log-space σ
 * `len-spread` (default 0.6) — and clipped at seq. These defaults are assumptions, not fitted
 * to any measurement. A long run sees a sample reaching max_length in practice, so one replayed
 * step (at a seeded position) has the full length: the allocated peak is that of `seq`.
 */

/** Steps replayed for `lengths=varied`. */
export const VARIED_STEPS = 24;
export const DEFAULT_SPREAD = 0.6;
/** Fixed seed: the same scenario always gives the same lengths. */
const SEED = 0x5eed;
/**
 * Draws (orders) replayed for lengths=varied: the Trainer shuffles its samples, so which step is
 * the longest so far — the one that needs new segments — is chance; the estimate is the median
 * draw and the lowest / highest show how much the order moves it.
 */
export const VARIED_DRAWS = 5;

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
  steps?: number;
  /** which draw (0, 1, …): another seed, another order */
  draw?: number;
}

/** Padded length of each replayed step: the longest of `batch` drawn samples, in [1, seq]. */
export function stepLengths(o: LengthOptions): number[] {
  const seq = Math.max(1, Math.floor(o.seq));
  const n = Math.max(1, Math.floor(o.steps ?? VARIED_STEPS));
  const mean = Math.min(seq, Math.max(1, o.mean ?? seq / 2));
  const sigma = Math.max(0, o.spread ?? DEFAULT_SPREAD);
  // lognormal with this mean: mu = ln(mean) − σ²/2
  const mu = Math.log(mean) - (sigma * sigma) / 2;
  const rand = mulberry32(SEED + Math.max(0, Math.floor(o.draw ?? 0)));
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  // the longest of b samples; beyond 256 draws the maximum hardly moves (and the loop stays short)
  const draws = Math.min(Math.max(1, Math.floor(o.batch)), 256);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    let longest = 1;
    for (let j = 0; j < draws; j++) longest = Math.max(longest, Math.round(Math.exp(mu + sigma * normal())));
    out.push(Math.min(seq, longest));
  }
  out[Math.floor(rand() * n)] = seq;
  return out;
}
