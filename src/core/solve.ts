/**
 * Inverse questions on top of estimate(): the largest batch or context that fits a capacity,
 * the fewest GPUs, and sweeps for charts. Every total is monotone non-decreasing in batch,
 * prompt and seq, so binary search finds the boundary exactly (deviceBytes vs capacity, the
 * nvidia-smi view used for fit decisions).
 */
import { estimate, resolveModel } from './estimate';
import type { Estimate, FieldError, Result, Scenario } from './types';
import { LLAMA_MAX_DEVICES, MAX_TOKENS } from './scenario/schema';
import { fixedIn, MiB } from './units';
import { MAX_CUSTOM_CAPACITY } from './gpus';
import { fitsWithin, sizesToCard } from './fit-rule';
import { ruleArch } from './scenario/rules';
import { isDiffusionModel } from './diffusion/presets';

/** Largest batch the schema accepts. */
const MAX_BATCH = 65536;
/** Most GPUs minGpus tries. */
const MAX_GPUS = 4096;

/** The scenario with the device set to a custom capacity (vLLM fills it, so it must know it). */
function onDevice(s: Scenario, capacityBytes: number): Scenario {
  return { ...s, gpu: `${fixedIn(capacityBytes, 'MiB', 6)}MiB` };
}

function badCapacity(capacityBytes: number): FieldError[] | null {
  return Number.isFinite(capacityBytes) && capacityBytes >= MiB && capacityBytes <= MAX_CUSTOM_CAPACITY
    ? null
    : [{ key: 'gpu', code: 'capacity-range', message: 'capacity must be between 1 MiB and 64 TiB' }];
}

/** Estimate `s` on a device of `capacityBytes` (1 MiB – 64 TiB) and apply fitsWithin. */
export function fitsOn(s: Scenario, capacityBytes: number): Result<{ fits: boolean; estimate: Estimate }> {
  const bad = badCapacity(capacityBytes);
  if (bad) return { ok: false, errors: bad };
  const r = estimate(onDevice(s, capacityBytes));
  if (!r.ok) return r;
  return { ok: true, value: { fits: fitsWithin(s, r.value, capacityBytes), estimate: r.value } };
}

function fits(s: Scenario, capacityBytes: number): Result<boolean> {
  const r = fitsOn(s, capacityBytes);
  return r.ok ? { ok: true, value: r.value.fits } : r;
}

/**
 * The solvers search with estimate(), the fast closed form. `given` is the estimate the caller's
 * verdict judges `s` itself from (estimateWithReplay's where the allocator replay decides reserved
 * memory; a search would re-run that replay per probe, tens of ms each). Their answers are held to
 * that verdict at the one point it knows: if `s` fits, the largest batch and context are at least
 * its own and its own plan is enough; if not, they are below its own. Elsewhere they are the fast
 * estimate's, and the page and CLI say so in words. null: nothing given (or vLLM, sized per card).
 */
function heldTo(s: Scenario, capacityBytes: number, given: Estimate | undefined): boolean | null {
  return given && !sizesToCard(s) ? fitsWithin(s, given, capacityBytes) : null;
}

/** `answer` held to the verdict at `own` (heldTo), never past `limit`. */
function hold(answer: number, own: number, known: boolean | null, limit = Infinity): number {
  if (known === null) return answer;
  return known ? Math.max(answer, Math.min(own, limit)) : Math.min(answer, own - 1);
}

/** Largest v in [lo, hi] with ok(v), assuming ok is monotone (true then false); 0 if ok(lo) fails. */
function search(lo: number, hi: number, ok: (v: number) => Result<boolean>): Result<number> {
  const first = ok(lo);
  if (!first.ok) return first;
  if (!first.value) return { ok: true, value: 0 };
  let good = lo;
  let bad = hi + 1;
  while (bad - good > 1) {
    const mid = Math.floor((good + bad) / 2);
    const r = ok(mid);
    if (!r.ok) return r;
    if (r.value) good = mid;
    else bad = mid;
  }
  return { ok: true, value: good };
}

/** Largest batch (1…65536) whose deviceBytes fit; 0 when batch 1 does not. `given`: see heldTo. */
export function maxBatch(s: Scenario, capacityBytes: number, given?: Estimate): Result<number> {
  const bad = badCapacity(capacityBytes);
  if (bad) return { ok: false, errors: bad };
  const r = search(1, MAX_BATCH, (batch) => fits({ ...s, batch }, capacityBytes));
  return r.ok ? { ok: true, value: hold(r.value, s.batch, heldTo(s, capacityBytes, given)) } : r;
}

/**
 * Largest context that fits: inference varies the prompt (gen kept), training varies seq.
 * Returns that key's value; 0 when even 1 token does not fit. Never beyond the model's own
 * context (max_position_embeddings; inference: minus the generated tokens): see maxContextDetail.
 */
export function maxContext(s: Scenario, capacityBytes: number, given?: Estimate): Result<number> {
  const r = maxContextDetail(s, capacityBytes, given);
  return r.ok ? { ok: true, value: r.value.tokens } : r;
}

export interface ContextLimit {
  /** longest prompt (inference) or seq (training) that fits and the model accepts */
  tokens: number;
  /** the model's limit on that key, when the model states one */
  modelLimit: number | null;
  /** memory alone would allow more than the model's limit */
  memoryAllowsMore: boolean;
}

/** maxContext with the model's context limit and whether memory was the binding constraint; `given`: see heldTo. */
export function maxContextDetail(s: Scenario, capacityBytes: number, given?: Estimate): Result<ContextLimit> {
  const bad = badCapacity(capacityBytes);
  if (bad) return { ok: false, errors: bad };
  if (isDiffusionModel(s.model)) {
    return { ok: false, errors: [{ key: 'prompt', code: 'diffusion.no-context', message: `${s.model} is an image-generation pipeline: it has no context length (its size is the resolution)` }] };
  }
  const key = s.mode === 'training' ? 'seq' : 'prompt';
  const resolved = resolveModel(s);
  const ctx = resolved.ok ? resolved.value.arch.maxContext : undefined;
  const modelLimit = ctx !== undefined && ctx > 0 ? Math.max(1, s.mode === 'training' ? ctx : ctx - s.gen) : null;
  const ok = (v: number) => fits({ ...s, [key]: v }, capacityBytes);
  const r = search(1, Math.min(MAX_TOKENS, modelLimit ?? MAX_TOKENS), ok);
  if (!r.ok) return r;
  let memoryAllowsMore = false;
  if (modelLimit !== null && r.value === modelLimit && modelLimit < MAX_TOKENS) {
    const beyond = ok(modelLimit + 1);
    memoryAllowsMore = beyond.ok && beyond.value;
  }
  const tokens = hold(r.value, s[key], heldTo(s, capacityBytes, given), modelLimit ?? MAX_TOKENS);
  return { ok: true, value: { tokens, modelLimit, memoryAllowsMore } };
}

export interface GpuPlan {
  gpus: number;
  tp: number;
  pp: number;
}

/**
 * Fewest GPUs of `capacityBytes` that hold the scenario, keeping its strategy:
 * training with ZeRO ≥ 1 adds data-parallel ranks (tp, pp kept); vLLM raises tensor parallelism
 * (tp must divide the heads); llama.cpp adds GPUs to its layer split (default split); other cases
 * split layers into pipeline stages (device_map="auto", Megatron pp). null when nothing up to 4096 GPUs fits. `given`: see heldTo.
 */
export function minGpus(s: Scenario, capacityBytes: number, given?: Estimate): Result<GpuPlan | null> {
  const bad = badCapacity(capacityBytes);
  if (bad) return { ok: false, errors: bad };
  const known = heldTo(s, capacityBytes, given);
  const own = (p: GpuPlan) => p.gpus === s.gpus && p.tp === s.tp && p.pp === s.pp;
  return minGpusBy(s, (p) => (known !== null && own(p) ? { ok: true, value: known } : fits(withPlan(s, p), capacityBytes)));
}

/** `s` run under plan `p`; a llama.cpp --tensor-split names one weight per GPU, so another count takes the default split. */
export function withPlan(s: Scenario, p: GpuPlan): Scenario {
  return { ...s, ...p, ...(p.gpus !== s.gpus && s.tensorSplit !== null ? { tensorSplit: null } : {}) };
}

/**
 * llama.cpp drives at most llama_max_devices() GPUs and places whole layers: past n_layer + 1 GPUs
 * (one per layer and the output) more change nothing.
 */
function usefulGpus(s: Scenario): number {
  if (s.mode !== 'inference' || s.engine !== 'llama.cpp') return MAX_GPUS;
  const layers = ruleArch(s)?.layers;
  return layers ? Math.min(LLAMA_MAX_DEVICES, layers + 1) : LLAMA_MAX_DEVICES;
}

/** The parallel layout minGpus tries with n-fold splitting (see minGpus). */
function planFor(s: Scenario, n: number): GpuPlan {
  if (s.mode === 'training' && s.zero > 0) return { gpus: n * s.tp * s.pp, tp: s.tp, pp: s.pp };
  if (s.mode === 'inference' && s.engine === 'vllm') return { gpus: n * s.pp, tp: n, pp: s.pp };
  if (s.mode === 'inference' && s.engine === 'llama.cpp') return { gpus: n, tp: 1, pp: 1 };
  return { gpus: n * s.tp, tp: s.tp, pp: n };
}

/** minGpus over a fit test of a plan (recommend() shares one estimate per plan across GPUs). */
export function minGpusBy(s: Scenario, fitsPlan: (p: GpuPlan) => Result<boolean>): Result<GpuPlan | null> {
  const most = usefulGpus(s);
  for (let n = 1; planFor(s, n).gpus <= most; n++) {
    const p = planFor(s, n);
    const r = fitsPlan(p);
    if (r.ok && r.value) return { ok: true, value: p };
    if (!r.ok) {
      // tp not dividing the heads: try the next n; pp past the layers: nothing larger helps
      if (r.errors.some((e) => e.code === 'pp-layers')) break;
      if (!r.errors.every((e) => e.code === 'tp-heads')) return { ok: false, errors: r.errors };
    }
  }
  return { ok: true, value: null };
}

export interface Solved {
  /** largest batch that fits (0: not even one sequence) */
  maxBatch: number;
  /** longest prompt (inference) or seq (training), capped at the model's context; null for an image-generation pipeline */
  maxContext: number | null;
  /** the model's own limit on that key and whether memory would allow more */
  contextLimit: number | null;
  memoryAllowsLongerContext: boolean;
  /** fewest GPUs of this capacity under the scenario's strategy; null: none up to 4096 */
  minGpus: GpuPlan | null;
  /**
   * What the answers rest on: 'closed-form' — searched with estimate() (no caching-allocator
   * replay: one replay per probe would cost 10–150 ms), held to the caller's estimate at the
   * scenario's own batch and length ('closed-form-held' when one was given; heldTo).
   */
  basis: 'closed-form' | 'closed-form-held';
}

/** The three inverse questions for one capacity (the CLI's --solve, the page's comparison table); `given`: see heldTo. */
export function solveOn(s: Scenario, capacityBytes: number, given?: Estimate): Result<Solved> {
  const b = maxBatch(s, capacityBytes, given);
  if (!b.ok) return b;
  const image = isDiffusionModel(s.model);
  const c = image ? null : maxContextDetail(s, capacityBytes, given);
  if (c && !c.ok) return c;
  const g = minGpus(s, capacityBytes, given);
  if (!g.ok) return g;
  return {
    ok: true,
    value: {
      maxBatch: b.value,
      maxContext: c ? c.value.tokens : null,
      contextLimit: c ? c.value.modelLimit : null,
      memoryAllowsLongerContext: c ? c.value.memoryAllowsMore : false,
      minGpus: g.value,
      basis: given ? 'closed-form-held' : 'closed-form',
    },
  };
}

export interface SweepPoint {
  x: number;
  result: Result<Estimate>;
}

/**
 * A sweep's point, made by a constructor and not by an object literal. V8 keeps allocation
 * feedback per literal (its allocation site) and, when 85 % or more of what a literal made since
 * the last scavenge is still alive, allocates that literal's later objects in the old generation
 * for good (v8 src/heap/pretenuring-handler.cc, MakePretenureDecision). A sweep holds every point
 * until it returns, so the first scavenge inside one could pretenure a `{ x, result }` literal;
 * from then on each old point kept its young estimate alive through every scavenge until the next
 * full GC (bench: ~3.4 MB promoted per scavenge, the 1,000-point sweep 24–80 ms instead of 8–15 ms,
 * in most runs after the diffusion merge moved where that first scavenge falls). Objects made by
 * `new` have no allocation site.
 */
class Point implements SweepPoint {
  x: number;
  result: Result<Estimate>;
  constructor(x: number, result: Result<Estimate>) {
    this.x = x;
    this.result = result;
  }
}

/** Estimates along one key: batch, prompt (inference) or seq (training), or an image model's resolution. */
export function sweep(s: Scenario, key: 'batch' | 'prompt' | 'seq' | 'resolution', values: readonly number[]): SweepPoint[] {
  return values.map((x) => new Point(x, estimate({ ...s, [key]: x })));
}
