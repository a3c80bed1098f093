/**
 * Per-GPU model states under data, tensor and pipeline parallelism (formulas.md §4.2–4.3).
 *
 * - ZeRO (Rajbhandari et al. 2020, arXiv 1910.02054, Fig. 1): stage 1 partitions optimizer
 *   state (incl. the fp32 master), stage 2 also gradients, stage 3 also parameters, over N_d.
 *   FSDP FULL_SHARD = ZeRO-3, SHARD_GRAD_OP = ZeRO-2.
 * - ZeRO-Offload (DeepSpeed `estimate_zero2_model_states_mem_needs`): with the optimizer on the
 *   CPU only the 16-bit parameters stay on the GPU (2·P); gradients stream to the host.
 * - Megatron-LM `theoretical_memory_usage.py`: the most-loaded shard holds
 *   (P_transformer/p + V·h)/t parameters, plus another V·h/t when untied and p = 1.
 */
import type { Offload, ParamBreakdown, ZeroStage } from '../types';
import { add, div, evaluate, mul, sym, type Expr } from '../formula';

/** Bytes per parameter of each state (see optimizer.ts). */
export interface StatePerParam {
  weights: number;
  gradients: number;
  master: number;
  optimizer: number;
}

/** Per-GPU bytes of each state. */
export type StateBytes = StatePerParam;

/** Parameters held by the most-loaded GPU of a t × p grid (Megatron, see file doc). */
export function paramsPerGpu(b: ParamBreakdown, tp: number, pp: number): number {
  const t = Math.max(1, tp);
  const p = Math.max(1, pp);
  const transformer = Math.max(0, b.total - b.embedding - b.lmHead);
  const head = p === 1 ? b.lmHead : 0;
  // p > 1: the first stage holds the embedding, the last the head; take the larger.
  const ends = p === 1 ? b.embedding + head : Math.max(b.embedding, b.lmHead);
  return (transformer / p + ends) / t;
}

/** Per-GPU bytes of each state as expressions. */
export type StateExprs = { [K in keyof StatePerParam]: Expr };

/**
 * ZeRO / FSDP partitioning of `params` parameters (already divided by t·p) over `dp` ranks, as
 * expressions: P·w (weights), P·g (gradients), P·m (fp32 master), P·o (optimizer states), each
 * ÷ N_d from the stage that partitions it. Offloaded states are 0 (they live in host memory).
 * `suffix` names the per-parameter bytes of a second group (modules_to_save: w_save, …).
 */
export function shardStateExprs(params: Expr, per: StatePerParam, stage: ZeroStage, dp: number, offload: Offload, suffix = ''): StateExprs {
  const n = Math.max(1, dp);
  const N = sym('N_d', n);
  const part = (name: string, bytes: number, on: boolean): Expr => {
    const x = mul(params, sym(name + suffix, bytes));
    return on && n > 1 ? div(x, N) : x;
  };
  const offloaded = offload !== 'none' && stage >= 1;
  return {
    weights: offload === 'params' && stage === 3 ? 0 : part('w', per.weights, stage >= 3),
    gradients: offloaded ? 0 : part('g', per.gradients, stage >= 2),
    master: offloaded || per.master === 0 ? 0 : part('m', per.master, stage >= 1),
    optimizer: offloaded ? 0 : part('o', per.optimizer, stage >= 1),
  };
}

/** Two groups' states added (adapters + modules_to_save copies). */
export function addStateExprs(a: StateExprs, b: StateExprs | null): StateExprs {
  return b ? { weights: add(a.weights, b.weights), gradients: add(a.gradients, b.gradients), master: add(a.master, b.master), optimizer: add(a.optimizer, b.optimizer) } : a;
}

export function evaluateStates(x: StateExprs): StateBytes {
  return { weights: evaluate(x.weights), gradients: evaluate(x.gradients), master: evaluate(x.master), optimizer: evaluate(x.optimizer) };
}

/**
 * ZeRO / FSDP partitioning of `params` parameters (already divided by t·p) over `dp` ranks.
 * Returns per-GPU bytes. Offloaded states report 0 (they live in host memory).
 */
export function shardStates(params: number, per: StatePerParam, stage: ZeroStage, dp: number, offload: Offload): StateBytes {
  return evaluateStates(shardStateExprs(sym('P', params), per, stage, dp, offload));
}
