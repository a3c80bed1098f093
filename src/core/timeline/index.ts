/**
 * The step timeline: one training step (or an inference run) as tensor allocations replayed
 * through the caching-allocator model, and the estimate with its reserved memory taken from that
 * replay when sample lengths vary (`lengths=varied`). The closed form (estimate()) stays the fast
 * path; this costs milliseconds and runs only when asked for.
 */
import { estimateDetail, type EstimateDetail } from '../estimate';
import { term } from '../estimate-context';
import { sub, sym } from '../formula';
import { resolveGpu } from '../gpus';
import { CUDA_CONTEXT_BYTES } from '../runtime';
import type { Estimate, Message, Result, Scenario } from '../types';
import { fixedIn } from '../units';
import type { TraceEvent } from '../allocator/trace';
import { replayInference } from './inference';
import { RUN_STEPS, runRecords, VARIED_DRAWS } from './lengths';
import { meanLength } from './mean-length';
import { Replay, type TimelinePoint } from './replay';
import { replayDecidesReserved } from './applies';
import { replayTraining, type StepShape } from './training';

export { CATEGORIES, type Category, type Phase, type TimelinePoint } from './replay';

export interface StepTimeline {
  points: TimelinePoint[];
  /** allocated_bytes.all.peak of the replay */
  peakAllocated: number;
  /** requested_bytes.all.peak: tensor sizes without the allocator's block rounding */
  peakRequested: number;
  /** most tensors live at once */
  peakTensors: number;
  /** reserved_bytes.all.peak of the replay */
  peakReserved: number;
  /** sequence length of each replayed step (training) */
  lengths: number[];
  /** the step of the run (0-based) each replayed step stands for: with varied lengths only the records are replayed (lengths.ts) */
  runSteps: number[];
  /** false when a request did not fit the chosen card (the replay stops there) */
  fits: boolean;
  /** times the card was full and the allocator freed its cached segments and retried (num_alloc_retries) */
  retries: number;
  /** segments (cudaMalloc'd) the allocator holds at the end */
  segments: number;
  /** the replayed events, when asked for (`record`) */
  trace?: TraceEvent[];
  notes: Message[];
}

export interface TimelineOptions {
  /** keep the events as trace lines */
  record?: boolean;
  /** training steps: replayed with fixed lengths (default 2), the run's length with varied ones (default lengths.ts RUN_STEPS) */
  steps?: number;
  /** explicit sequence length of each training step (overrides `steps` and the drawn lengths; a recorded run's order) */
  lengths?: readonly number[];
  /** which draw of the varied lengths (default 0; lengths.ts VARIED_DRAWS) */
  draw?: number;
  /**
   * inference: bytes allocated right after the weights and freed before `generate` — a model built
   * with `from_config` makes a tied LM head as its own V×h weight and frees it when tying it to the
   * embedding (validation/measured-generate.ts; a checkpoint load does not, so the estimate has 0)
   */
  loadTransient?: number;
}

/** Card the replay's simulated driver may fill: the chosen GPU less the CUDA context, or unlimited. */
function capacityOf(s: Scenario): { capacity: number | null } {
  const gpu = s.gpu ? resolveGpu(s.gpu) : undefined;
  return { capacity: gpu ? Math.max(1, gpu.capacityBytes - CUDA_CONTEXT_BYTES) : null };
}

/** Training steps replayed: two at `seq` (optimizer states appear in the first), or the records of a drawn run. */
export function replayLengths(s: Scenario, steps?: number, draw = 0): { lengths: number[]; steps: number[] } {
  if (s.lengths !== 'varied') {
    const n = Math.max(1, steps ?? 2);
    return { lengths: Array.from({ length: n }, () => s.seq), steps: Array.from({ length: n }, (_, i) => i) };
  }
  return runRecords({ seq: s.seq, batch: s.batch, mean: s.lenMean, spread: s.lenSpread, draw, ...(steps !== undefined ? { steps } : {}) });
}

/** The replayed timeline of a scenario; errors are the estimate's. */
export function stepTimeline(s: Scenario, o: TimelineOptions = {}): Result<StepTimeline> {
  const base = estimateDetail(s);
  if (!base.ok) return base;
  const drawn = s.mode === 'training' && s.lengths === 'varied' && o.lengths === undefined && o.draw === undefined;
  return { ok: true, value: drawn ? orders(s, base.value, o).median : replay(s, base.value, o) };
}

/** The orders replayed for lengths=varied (the estimate's median, and the 10th and 90th percentiles). */
interface Draws {
  all: StepTimeline[];
  lowest: StepTimeline;
  median: StepTimeline;
  highest: StepTimeline;
}

/**
 * Mean sample lengths, as shares of max_length, whose orders' spread the band of an 'auto' mean
 * also covers. The estimate itself keeps seq/2 (mean-length.ts), but reserved memory is not
 * monotone in the mean: a mean far below max_length reaches it late, after more records. With
 * Llama-3.1-8B LoRA at 2 × 4,096 the median is 45 GiB at mean 2,048, 59 at 1,024 and 54 at 512;
 * our runs of instruction-like means (t027, t051–t055: 300–600 tokens of 2,048–4,096) are that case.
 */
const AUTO_MEANS = [1 / 4, 1 / 8];

/** Orders replayed around the ranked median; the estimate is the median of their replays. */
const MEDIAN_REPLAYS = 7;
/** Lengths at which the closed form prices a record (linear between them). */
const PRICE_POINTS = 8;

/**
 * VARIED_DRAWS orders of the drawn lengths, ranked by what their records cost — each record cuts
 * new segments for about its whole step (t051's run: a record of 2,352 tokens after one of 2,301
 * added 6.8 GiB), so an order costs about Σ over its records of the closed form's allocated peak at
 * that length less the peak at one token. Only MEDIAN_REPLAYS orders around the ranked median and
 * the orders at the 10th and 90th percentile are replayed. On our varied-length rows the ranking
 * agrees with full replays (Spearman 0.98–0.998 over 101 orders), and for t027's scenario the
 * result is the median of all 201 replays within 2 % and the two ends their 10th and 90th
 * percentiles within 5 % (tests/validation/measured-gpu.test.ts).
 */
function orders(s: Scenario, d: EstimateDetail, o: TimelineOptions = {}, capacity = capacityOf(s), cache = orderCache(s)): Draws {
  const { ranked, run, ends } = rankedOrders(s, d, o, capacity, cache);
  const mid = Math.floor(ranked.length / 2);
  const near = ranked.slice(Math.max(0, mid - (MEDIAN_REPLAYS >> 1)), mid + (MEDIAN_REPLAYS >> 1) + 1).map(run);
  near.sort((a, b) => a.peakReserved - b.peakReserved);
  const { lowest, highest } = ends();
  return { all: [lowest, ...near, highest], lowest, median: near[near.length >> 1]!, highest };
}

/**
 * What the orders of one scenario share whatever its mean length (the closed form does not read
 * it): the price of a record, and each replayed length's step shape.
 */
interface OrderCache {
  price: (n: number) => number;
  shapes: Map<number, StepShape>;
}

const orderCache = (s: Scenario): OrderCache => ({ price: recordPrice(s), shapes: new Map() });

/** The VARIED_DRAWS orders of `s` by their records' cost, a replay of one of them, and the replays at the 10th and 90th percentile. */
function rankedOrders(s: Scenario, d: EstimateDetail, o: TimelineOptions, capacity: { capacity: number | null }, { price, shapes }: OrderCache) {
  const ranked = Array.from({ length: VARIED_DRAWS }, (_, draw) => ({ draw, cost: replayLengths(s, o.steps, draw).lengths.reduce((sum, n) => sum + price(n), 0) })).sort(
    (a, b) => a.cost - b.cost || a.draw - b.draw,
  );
  const run = ({ draw }: { draw: number }) => replay(s, d, { ...o, draw }, shapes, capacity);
  const at = (q: number) => ranked[Math.min(ranked.length - 1, Math.floor(q * ranked.length))]!;
  return { ranked, run, ends: () => ({ lowest: run(at(0.1)), highest: run(at(0.9)) }) };
}

/** The closed form's allocated peak at n tokens less its peak at one token, linear between PRICE_POINTS + 1 lengths. */
function recordPrice(s: Scenario): (n: number) => number {
  const seq = Math.max(1, s.seq);
  const peak = (n: number): number => {
    const r = estimateDetail({ ...s, seq: n, lengths: 'fixed' });
    return r.ok ? r.value.estimate.allocatedBytes : 0;
  };
  const grid = Array.from({ length: PRICE_POINTS + 1 }, (_, k) => Math.max(1, Math.round((seq * k) / PRICE_POINTS)));
  const base = peak(1);
  const at = grid.map((n) => peak(n) - base);
  return (n) => {
    const x = (n / seq) * PRICE_POINTS;
    const k = Math.min(PRICE_POINTS - 1, Math.floor(x));
    return at[k]! + (at[k + 1]! - at[k]!) * (x - k);
  };
}

/** The estimate's detail at another sequence length (null if that length is refused). */
function detailAt(s: Scenario, seq: number): EstimateDetail | null {
  const r = estimateDetail({ ...s, seq });
  return r.ok ? r.value : null;
}

function replay(s: Scenario, d: EstimateDetail, o: TimelineOptions, byLength = new Map<number, StepShape>(), capacity = capacityOf(s)): StepTimeline {
  const r = new Replay(capacity.capacity, o.record === true, s.allocConf === 'expandable');
  const notes: Message[] = [];
  let lengths: number[] = [];
  let runSteps: number[] = [];
  if (s.mode === 'training') {
    if (o.lengths && o.lengths.length > 0) {
      lengths = o.lengths.map((n) => Math.max(1, Math.floor(n)));
      runSteps = lengths.map((_, i) => i);
    } else ({ lengths, steps: runSteps } = replayLengths(s, o.steps, o.draw));
    const shapes: StepShape[] = [];
    for (const seq of lengths) {
      let shape = byLength.get(seq);
      if (!shape) {
        const e = seq === s.seq ? d : detailAt(s, seq);
        const phases = e?.built.phases;
        if (!phases) break;
        shape = { seq, phases };
        byLength.set(seq, shape);
      }
      shapes.push(shape);
    }
    // the estimate's own scenario: a model's file may fix a setting (remote-families.ts ownFileCheckpoints)
    if (d.ctx) replayTraining(r, { ...s, gradCkpt: d.ctx.s.gradCkpt }, d.ctx.arch, d.weightTensors, d.weightRest, shapes);
    if (s.pp > 1) notes.push({ code: 'timeline.pp', text: 'Pipeline schedules are not replayed: the timeline shows one stage running the whole model.' });
  } else {
    replayInference(r, d, o.loadTransient ?? 0);
  }
  if (!r.ok) notes.push({ code: 'timeline.oom', text: 'A request did not fit the chosen GPU: the replay stops at that point.' });
  const retries = r.a.stats.num_alloc_retries;
  const out: StepTimeline = {
    points: r.points,
    peakAllocated: r.peakAllocated,
    peakRequested: r.peakRequested,
    peakTensors: r.peakTensors,
    peakReserved: r.peakReserved,
    lengths,
    runSteps,
    fits: r.ok,
    retries,
    segments: r.a.segments.length,
    notes,
  };
  if (r.trace) out.trace = r.trace;
  return out;
}

/**
 * Replays behind the estimate run on a card without a limit, so the estimate is the same on every
 * card and one Estimate is judged against each card's capacity (page verdict, fit marks, CLI).
 * The card's capacity does change a replay below its unlimited peak: there PyTorch frees its
 * cached segments and retries (num_alloc_retries; allocator.md §4), which can let a step through
 * on a card the unlimited peak exceeds. The fit verdict does not count on that: "fits" means it fits
 * without the allocator emptying its cache. stepTimeline() shows the chosen card's own replay.
 */
const UNLIMITED: { capacity: number | null } = { capacity: null };

/**
 * estimate() with reserved memory from the replay where timeline/applies.ts says it decides it
 * (varied lengths; fixed-length training on one process): the replay's peak reserved (segments
 * cut for earlier steps' shapes stay cached), at least the closed form's allocated. Other
 * scenarios return the closed form unchanged. The replay is not limited by the card (UNLIMITED).
 */
export function estimateWithReplay(s: Scenario, o: Pick<TimelineOptions, 'loadTransient'> = {}): Result<Estimate> {
  const d = estimateDetail(s);
  if (!d.ok) return d;
  const est = d.value.estimate;
  if (!replayDecidesReserved(s) || !d.value.built.torchAllocator) return { ok: true, value: est };
  if (s.mode === 'inference')
    return { ok: true, value: d.value.built.inference?.sequence || d.value.built.inference?.tupleCache || d.value.built.inference?.prefillScores ? fixedReplay(s, d.value, o) : est };
  if (s.lengths !== 'varied') return { ok: true, value: fixedReplay(s, d.value) };
  // orders of the same length distribution (lengths.ts VARIED_DRAWS): the median one
  const cache = orderCache(s);
  const draws = orders(s, d.value, {}, UNLIMITED, cache);
  const tl = draws.median;
  const failed = draws.all.find((x) => !x.fits);
  if (failed) return { ok: true, value: { ...est, notes: [...est.notes, ...failed.notes] } };
  const reservedBytes = Math.max(est.allocatedBytes, tl.peakReserved);
  // an 'auto' mean is not known: the spread also covers the shorter means of AUTO_MEANS
  const spreads = [draws, ...(s.lenMean === null ? AUTO_MEANS.map((k) => rankedOrders({ ...s, lenMean: Math.max(1, Math.round(s.seq * k)) }, d.value, {}, UNLIMITED, cache).ends()) : [])];
  const orderSpread = {
    p10: Math.max(est.allocatedBytes, Math.min(...spreads.map((x) => x.lowest.peakReserved))),
    p90: Math.max(est.allocatedBytes, Math.max(...spreads.map((x) => x.highest.peakReserved))),
    orders: VARIED_DRAWS,
  };
  const notes = [...est.notes, ...tl.notes, growthNote(s, draws)];
  const terms = est.terms.map((t) =>
    t.id !== 'allocator-reserve'
      ? t
      : term(
          { guessed: d.value.ctx?.guessed ?? false },
          'allocator-reserve',
          sub(sym('max_reserved', reservedBytes), sym('max_allocated', est.allocatedBytes)),
          {
            values: {
              replay: 'the records of a run (steps longer than all before them) through the caching-allocator model',
              run_steps: RUN_STEPS,
              records: tl.lengths.length,
              orders: VARIED_DRAWS,
              order_p10: orderSpread.p10,
              order_p90: orderSpread.p90,
              shortest: Math.min(...tl.lengths),
              longest: Math.max(...tl.lengths),
              mean_tokens: meanLength(s.seq, s.lenMean),
              spread: s.lenSpread,
            },
            source: `core/timeline (allocator.md §3–§4: CUDACachingAllocator best fit, split, no release while memory lasts; a step longer than all before it needs new segments); the median of ${VARIED_DRAWS} orders, ranked by their records' closed-form cost and replayed around the median; lengths lognormal, clipped at seq (assumption); timeline/lengths.ts`,
            confidence: 'heuristic',
          },
          'reserved',
          false,
        ),
  );
  const device = est.deviceBytes - est.reservedBytes + reservedBytes;
  return { ok: true, value: { ...est, terms, reservedBytes, deviceBytes: device, notes, orderSpread } };
}

/** Fixed lengths: reserved from two replayed steps at seq (the optimizer states appear in the first), or from the replayed `generate`. */
function fixedReplay(s: Scenario, d: EstimateDetail, o: Pick<TimelineOptions, 'loadTransient'> = {}): Estimate {
  const est = d.estimate;
  const tl = replay(s, d, o, undefined, UNLIMITED);
  if (!tl.fits) return { ...est, notes: [...est.notes, ...tl.notes] };
  const reservedBytes = Math.max(est.allocatedBytes, tl.peakReserved);
  const generate = s.mode === 'inference';
  const terms = est.terms.map((t) =>
    t.id !== 'allocator-reserve'
      ? t
      : term(
          { guessed: d.ctx?.guessed ?? false },
          'allocator-reserve',
          sub(sym('max_reserved', reservedBytes), sym('max_allocated', est.allocatedBytes)),
          {
            values: generate
              ? { replay: 'generate through the caching-allocator model: the prompt pass tensor by tensor, then every decoded token', prompt: s.prompt, new_tokens: s.gen }
              : { replay: 'two steps through the caching-allocator model', steps: tl.lengths.length, length: s.seq },
            source: generate
              ? 'core/timeline (allocator.md §3–§4: CUDACachingAllocator best fit, split, no release while memory lasts; the prompt pass in the order the model code allocates and frees it, inference/hf-prefill.ts and remote-prefill.ts; DynamicCache torch.cat per token, or a remote-code file’s own tuples); timeline/applies.ts'
              : 'core/timeline (allocator.md §3–§4: CUDACachingAllocator best fit, split, no release while memory lasts; the loss tensors in their real order, training/loss.ts); timeline/applies.ts',
            confidence: 'derived',
          },
          'reserved',
          false,
        ),
  );
  return { ...est, terms, reservedBytes, deviceBytes: est.deviceBytes - est.reservedBytes + reservedBytes, notes: [...est.notes, ...tl.notes] };
}

/**
 * What a long run does with the cache, in plain words: each step longer than every step before it
 * cuts new segments and the old ones stay cached (no release while the card has room), so reserved
 * memory grows in jumps until a step reaches the full length; on a card that fills first, PyTorch
 * frees its cached segments and retries (release on cudaMalloc failure), so the run may go on,
 * slower. The fit verdict does not count on that (UNLIMITED above); the step timeline shows it.
 */
function growthNote(s: Scenario, draws: Draws): Message {
  const params = {
    lowest: fixedIn(draws.lowest.peakReserved, 'GiB', 1),
    highest: fixedIn(draws.highest.peakReserved, 'GiB', 1),
    draws: VARIED_DRAWS,
    run: RUN_STEPS,
  };
  if (s.allocConf === 'expandable')
    return {
      code: 'timeline.expandable',
      params,
      text: `With expandable_segments the segments grow in place, so steps of changing length reuse the same memory: reserved stays near the allocated peak (${params.lowest}–${params.highest} GiB for the middle 80 % of ${params.draws} orders of the lengths).`,
    };
  return {
    code: 'timeline.growth',
    params,
    text: `Reserved memory grows each time a step is longer than all before it: its larger tensors need new segments and the old ones stay cached. Steps no longer than an earlier one reuse those segments, and once a step reaches the full length it stops growing, so the order of the lengths decides how far it gets (${params.lowest}–${params.highest} GiB for the middle 80 % of ${params.draws} orders of a ${RUN_STEPS.toLocaleString('en-US')}-step run). On a smaller card PyTorch frees its cache and retries, and the run may go on, slower; the fit verdict does not count on that (the step timeline shows it on the chosen card).`,
  };
}
