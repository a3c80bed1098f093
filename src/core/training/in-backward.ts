/**
 * Optimizer step fused into backward (torchtune `optimizer_in_bwd`).
 *
 * torchtune builds one optimizer per parameter and registers
 * `p.register_post_accumulate_grad_hook(optim_step)` (torchtune/training/memory.py
 * `register_optim_in_bwd_hooks`); the hook runs `optimizer.step()` then `zero_grad()` (set_to_none)
 * as soon as that parameter's gradient is accumulated. So the full gradient set never exists:
 * at any moment only the gradients whose hooks have not fired yet are live, at most about the
 * largest parameter's (the embedding / LM head, V·h). A tied embedding is the worst case: its
 * LM-head gradient is computed first and waits in autograd's input buffer until the embedding's
 * contribution arrives at the very end of backward, so it is held through the whole backward.
 * The step itself runs on a one-tensor list: torch AdamW's foreach path still builds
 * `torch._foreach_sqrt(exp_avg_sqs)` for that one tensor (torch/optim/adamw.py), a temporary of
 * one state of the largest parameter, never the all-parameter list; bitsandbytes steps in one kernel.
 */
import type { Ctx } from '../estimate-context';
import { adamStepTemp, type ModelStateBytes } from './optimizer';

/**
 * Elements of the largest tensor the optimizer updates, on one GPU (÷ tp, and ÷ N_d when fully
 * sharded: FSDP2 steps each local shard). Full / freeze: the larger of the token embedding (V·h)
 * and the largest block Linear. LoRA: r·max(d_in, d_out) of the widest adapted projection
 * (q/o: h or a·d; k/v: h; MLP: h or f) — A is r×d_in, B is d_out×r (PEFT LoraLayer).
 */
export function largestTrainableElements(ctx: Ctx, dp: number): number {
  const { s, arch, params } = ctx;
  const shard = (s.zero === 3 ? Math.max(1, dp) : 1) * Math.max(1, s.tp);
  if (s.method === 'full' || s.method === 'freeze') {
    return Math.max(arch.vocab * arch.hidden, params.largestLinear) / shard;
  }
  // modules_to_save trains a whole embedding / head copy (modules-to-save.ts)
  if (s.loraSave !== 'none') return Math.max(arch.vocab * arch.hidden, params.largestLinear) / shard;
  const widths = s.loraTargets.map((t) => (t === 'q' || t === 'o' ? Math.max(arch.hidden, arch.heads * arch.headDim) : t === 'k' || t === 'v' ? arch.hidden : Math.max(arch.hidden, arch.ffn)));
  return (s.loraRank * Math.max(0, ...widths)) / shard;
}

export interface InBackwardStep {
  /** elements of the largest trainable tensor */
  elements: number;
  /** gradient bytes live at once: the largest parameter's */
  gradient: number;
  /** the per-parameter step's temporary */
  temp: number;
}

/**
 * Live gradient and step temporary of an in-backward step, from the largest trainable tensor.
 * Only torch AdamW ('adamw', foreach or for-loop) builds a temporary: one state of that tensor;
 * `fused=True` (optim-impl=fused) none.
 */
export function inBackwardStep(ctx: Ctx, per: ModelStateBytes, dp: number): InBackwardStep {
  const n = largestTrainableElements(ctx, dp);
  const s = ctx.s;
  const oneState = (n * per.optimizer) / 2;
  const temp = s.optimizer === 'adamw' && s.offload === 'none' ? adamStepTemp(s.optimImpl, oneState, oneState) : 0;
  return { elements: n, gradient: n * per.gradients, temp };
}
