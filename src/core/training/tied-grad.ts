/**
 * Tied input / output embeddings in full fine-tuning: the weight's two gradients meet at the end
 * of backward, and PyTorch adds them out of place.
 *
 * One Parameter serves the embedding and the LM head (`tie_word_embeddings`), so one
 * AccumulateGrad node receives two gradients, and the autograd engine collects them in that
 * node's InputBuffer before running it (torch/csrc/autograd/engine.cpp: a node runs once all its
 * dependencies have arrived):
 * - the head's comes first, at the start of backward. The head is a Linear, `linear` →
 *   `matmul(x, weight.t())`; `mm_mat2_backward` (torch/csrc/autograd/FunctionsManual.cpp) gives the
 *   gradient of the transposed weight as `grad.t().mm(x).t()`, and TBackward transposes it back: a
 *   view of the mm output, whose storage the view's base still shares. It waits in the
 *   InputBuffer through the whole backward, where an untied head's would have become `.grad`:
 *   the same bytes as the head gradient already counted.
 * - the embedding's comes last (`embedding_dense_backward`: a fresh V×h tensor).
 * - `InputBuffer::accumulate` (torch/csrc/autograd/input_buffer.cpp) adds in place only into a
 *   tensor that holds the last reference to its storage (`can_accumulate_inplace`:
 *   `storage().use_count() == 1`); the waiting view does not, so it computes `old_var + var`, a
 *   third V×h tensor. AccumulateGrad then keeps that sum as `.grad`
 *   (torch/csrc/autograd/functions/accumulate_grad.h, no copy) and the two addends are freed.
 *
 * Where a dtype cast sits between the weight and the mm (AMP: fp32 parameters, 16-bit autocast
 * compute), the head's gradient reaches the buffer through ToCopyBackward as a fresh fp32 tensor,
 * so the embedding's is added into it in place. So, beyond the final gradients, the embedding's
 * backward holds:
 * - no cast (pure 16-bit or fp32 training, or bf16 weights under bf16 autocast, where autocast
 *   reuses the weight as it is): the embedding's gradient and the sum, 2·V·h;
 * - a cast (AMP): the embedding's gradient, V·h, added in place and freed.
 * With gradients held between micro-steps (accumulation, set_to_none=False) the head's gradient is
 * not `.grad` but a temporary that waits through the whole backward (V·h during the layers); at
 * the embedding the addends (and the sum, without a cast) are live together before AccumulateGrad
 * adds the result into `.grad` in place: 3·V·h, or 2·V·h with a cast.
 *
 * Measured on our H200 (tools/measure/measure_trainer.py --trace, Llama-3.2 / Qwen2.5, tied):
 * - t024 (3B, bf16): three 751.5 MiB gradient blocks live at the run's peak, then two freed;
 * - t010 (1B, AMP): one 1002 MiB block made at the embedding and freed at once;
 * - t028 (1B, bf16, accumulation 2) and t029 (0.5B, AMP, accumulation 2): the first micro-step
 *   as above, the second with the head's gradient alive through the layers, then three blocks
 *   (t028) or two (t029) freed together at the embedding.
 *
 * Only where plain autograd makes the gradients: one process per model replica (no tensor or
 * pipeline split of the embedding, no ZeRO / FSDP flat buffers) and no optimizer step inside
 * backward.
 */
import type { ModelArch, Scenario } from '../types';

/** A tied weight's gradient bytes (V×h, 0 when the sum does not happen) and whether the head's arrives as a view. */
export interface TiedGrad {
  bytes: number;
  /** no dtype cast between the weight and its mm: the sum is out of place */
  view: boolean;
}

export const NO_TIED_GRAD: TiedGrad = { bytes: 0, view: false };

/** `gradientBytes`: bytes per element of the weight and its gradient; `computeBytes`: of the head's matmul. */
export function tiedGradient(s: Scenario, arch: ModelArch, gradientBytes: number, computeBytes: number): TiedGrad {
  const plainAutograd = s.tp === 1 && s.pp === 1 && s.zero === 0 && s.optimStep !== 'in-backward';
  if (s.mode !== 'training' || s.method !== 'full' || !arch.tiedEmbeddings || !plainAutograd) return NO_TIED_GRAD;
  return { bytes: arch.vocab * arch.hidden * gradientBytes, view: gradientBytes === computeBytes };
}

/**
 * Live bytes beyond the persistent states at the embedding's backward: with gradients made in this
 * backward (`grads`, all of them, the head's included) those plus the addends; with held gradients
 * (counted with the persistent states) the waiting head gradient and the addends.
 */
export function tiedSumMoment(t: TiedGrad, grads: number, gradsHeld: boolean): number {
  if (t.bytes <= 0) return 0;
  const beyond = (t.view ? 2 : 1) * t.bytes;
  return gradsHeld ? t.bytes + beyond : grads + beyond;
}

/** The head's gradient waiting through the layers' backward when gradients are held, else 0 (it is then `.grad`). */
export function tiedWaiting(t: TiedGrad, gradsHeld: boolean): number {
  return gradsHeld ? t.bytes : 0;
}
