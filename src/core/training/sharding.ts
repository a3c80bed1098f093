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

/**
 * ZeRO / FSDP partitioning of `params` parameters (already divided by t·p) over `dp` ranks.
 * Returns per-GPU bytes. Offloaded states report 0 (they live in host memory).
 */
export function shardStates(params: number, per: StatePerParam, stage: ZeroStage, dp: number, offload: Offload): StateBytes {
  const n = Math.max(1, dp);
  const div = (on: boolean) => (on ? n : 1);
  let weights = (params * per.weights) / div(stage >= 3);
  let gradients = (params * per.gradients) / div(stage >= 2);
  let master = (params * per.master) / div(stage >= 1);
  let optimizer = (params * per.optimizer) / div(stage >= 1);
  if (offload !== 'none' && stage >= 1) {
    master = 0;
    optimizer = 0;
    gradients = 0;
  }
  if (offload === 'params' && stage === 3) weights = 0;
  return { weights, gradients, master, optimizer };
}
