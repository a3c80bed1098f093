/**
 * Inverse questions on top of estimate(): the largest batch or context that fits a capacity,
 * the fewest GPUs, and sweeps for charts. Every total is monotone non-decreasing in batch,
 * prompt and seq, so binary search finds the boundary exactly (deviceBytes vs capacity, the
 * nvidia-smi view used for fit decisions).
 */
import { estimate } from './estimate';
import type { Estimate, FieldError, Result, Scenario } from './types';
import { MAX_TOKENS } from './scenario/schema';

/** Largest batch the schema accepts. */
const MAX_BATCH = 65536;
/** Most GPUs minGpus tries. */
const MAX_GPUS = 4096;

/** The scenario with the device set to a custom capacity (vLLM fills it, so it must know it). */
function onDevice(s: Scenario, capacityBytes: number): Scenario {
  return { ...s, gpu: `${(capacityBytes / 2 ** 20).toFixed(6)}MiB` };
}

function badCapacity(capacityBytes: number): FieldError[] | null {
  return Number.isFinite(capacityBytes) && capacityBytes >= 2 ** 20 && capacityBytes <= 2 ** 46
    ? null
    : [{ key: 'gpu', code: 'capacity-range', message: 'capacity must be between 1 MiB and 64 TiB' }];
}

/**
 * The fit rule every "does it fit" answer uses (maxBatch, maxContext, minGpus, the page's
 * headline): the device total (nvidia-smi view) within capacity; vLLM pre-allocates its pool to
 * gpu_memory_utilization, so it also needs KV-cache room for batch × (prompt + gen) tokens
 * (vLLM refuses to start when max_model_len does not fit; requests beyond the pool queue).
 * `e` must be the estimate of `s` on a device of that capacity.
 */
export function fitsWithin(s: Scenario, e: Estimate, capacityBytes: number): boolean {
  if (e.deviceBytes > capacityBytes) return false;
  if (s.mode === 'inference' && s.engine === 'vllm') return (e.engine?.kvTokens ?? 0) >= s.batch * (s.prompt + s.gen);
  return true;
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

/** Largest batch (1…65536) whose deviceBytes fit; 0 when batch 1 does not. */
export function maxBatch(s: Scenario, capacityBytes: number): Result<number> {
  const bad = badCapacity(capacityBytes);
  if (bad) return { ok: false, errors: bad };
  return search(1, MAX_BATCH, (batch) => fits({ ...s, batch }, capacityBytes));
}

/**
 * Largest context that fits: inference varies the prompt (gen kept), training varies seq.
 * Returns that key's value; 0 when even 1 token does not fit.
 */
export function maxContext(s: Scenario, capacityBytes: number): Result<number> {
  const bad = badCapacity(capacityBytes);
  if (bad) return { ok: false, errors: bad };
  const key = s.mode === 'training' ? 'seq' : 'prompt';
  return search(1, MAX_TOKENS, (v) => fits({ ...s, [key]: v }, capacityBytes));
}

export interface GpuPlan {
  gpus: number;
  tp: number;
  pp: number;
}

/**
 * Fewest GPUs of `capacityBytes` that hold the scenario, keeping its strategy:
 * training with ZeRO ≥ 1 adds data-parallel ranks (tp, pp kept); vLLM raises tensor parallelism
 * (tp must divide the heads); other cases split layers into pipeline stages (device_map="auto",
 * llama.cpp layer split, Megatron pp). null when nothing up to 4096 GPUs fits.
 */
export function minGpus(s: Scenario, capacityBytes: number): Result<GpuPlan | null> {
  const bad = badCapacity(capacityBytes);
  if (bad) return { ok: false, errors: bad };
  const plan = (n: number): GpuPlan => {
    if (s.mode === 'training' && s.zero > 0) return { gpus: n * s.tp * s.pp, tp: s.tp, pp: s.pp };
    if (s.mode === 'inference' && s.engine === 'vllm') return { gpus: n * s.pp, tp: n, pp: s.pp };
    return { gpus: n * s.tp, tp: s.tp, pp: n };
  };
  for (let n = 1; plan(n).gpus <= MAX_GPUS; n++) {
    const p = plan(n);
    const r = fits({ ...s, ...p }, capacityBytes);
    if (r.ok && r.value) return { ok: true, value: p };
    if (!r.ok) {
      // tp not dividing the heads: try the next n; pp past the layers: nothing larger helps
      if (r.errors.some((e) => e.code === 'pp-layers')) break;
      if (!r.errors.every((e) => e.code === 'tp-heads')) return { ok: false, errors: r.errors };
    }
  }
  return { ok: true, value: null };
}

export interface SweepPoint {
  x: number;
  result: Result<Estimate>;
}

/** Estimates along one key: batch, prompt (inference) or seq (training). */
export function sweep(s: Scenario, key: 'batch' | 'prompt' | 'seq', values: readonly number[]): SweepPoint[] {
  return values.map((x) => ({ x, result: estimate({ ...s, [key]: x }) }));
}
