/**
 * Sequence lengths of the replayed steps for `lengths=varied`: samples of an instruction data set
 * truncated at max_length (`seq`), padded to the longest sample of each batch (transformers
 * DataCollatorWithPadding / DataCollatorForSeq2Seq pad to the longest in the batch; no packing).
 *
 * Sample lengths are drawn lognormal — mean `len-mean` tokens (default seq/2), log-space σ
 * `len-spread` (default 0.6) — and clipped at seq. These defaults are assumptions, not fitted
 * to any measurement.
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
 * Draws (orders) replayed for lengths=varied: the Trainer shuffles its samples, so how many records
 * a run meets before its first step at max_length is chance; the estimate is the median draw and
 * the draws' spread is what the order alone can do.
 */
export const VARIED_DRAWS = 15;

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
 * The records of a run of `steps` steps whose padded length is the longest of `batch` drawn samples
 * (in [1, seq]); the first step is always one, and the last is the first step at seq if the run
 * reaches it.
 */
export function runRecords(o: LengthOptions): RunRecords {
  const seq = Math.max(1, Math.floor(o.seq));
  const n = Math.max(1, Math.floor(o.steps ?? RUN_STEPS));
  const mean = meanLength(seq, o.mean);
  const sigma = Math.max(0, o.spread ?? DEFAULT_SPREAD);
  // lognormal with this mean: mu = ln(mean) − σ²/2
  const mu = Math.log(mean) - (sigma * sigma) / 2;
  const rand = mulberry32(SEED + Math.max(0, Math.floor(o.draw ?? 0)));
  const normal = (): number => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  // the longest of b samples; beyond 256 draws the maximum hardly moves (and the loop stays short)
  const draws = Math.min(Math.max(1, Math.floor(o.batch)), 256);
  const out: RunRecords = { lengths: [], steps: [] };
  let best = 0;
  for (let i = 0; i < n && best < seq; i++) {
    let longest = 1;
    for (let j = 0; j < draws; j++) longest = Math.max(longest, Math.round(Math.exp(mu + sigma * normal())));
    const len = Math.min(seq, longest);
    if (len > best) {
      best = len;
      out.lengths.push(len);
      out.steps.push(i);
    }
  }
  return out;
}
