/**
 * The moment inside the layers' backward pass (formulas.md §5; one GPU's stage, no pipeline).
 *
 * PyTorch autograd runs a layer's nodes in reverse order. Each node's saved tensors are released
 * right after it runs (torch/csrc/autograd/engine.cpp `call_function`: `fn.release_variables()`
 * unless `retain_graph`), and each weight gradient is stored as the parameter's `.grad` when its
 * node produces it (torch/csrc/autograd/functions/accumulate_grad.h `AccumulateGrad::accumulateGrad`:
 * with `.grad` unset it keeps the incoming tensor, no copy). So while layer i is differentiated,
 * the gradients of the layers above it (and the LM head's) coexist with the saved tensors of
 * layers 0…i. Under full checkpointing layer i's inventory is first rebuilt by re-running its
 * forward (torch/utils/checkpoint.py non-reentrant `_checkpoint_hook` unpack → recompute), next to
 * the checkpoint inputs of the layers below. We count layer i's own weight gradients as all made
 * before its saved tensors go (an upper bound: its MLP tensors go once the MLP's gradients exist,
 * before q/k/v's). Live bytes are linear in i, so the peak is at the first layer differentiated
 * (i = L−1: every layer's saved tensors + one layer's gradients) or the last (i = 0: nearly every
 * gradient + one layer's saved tensors) — the full fine-tune's end-of-backward moment.
 * A bitsandbytes / GPTQ dequantized weight (quant-base.ts) is made and freed inside the layer
 * before its gradients: max(dequant, G) on top. AMP's 16-bit weight copies (amp-cache.ts) saved
 * for backward go with their layer: all the blocks' at the first layer differentiated without
 * checkpointing, one layer's (its recompute's) otherwise (`copies`).
 */
import type { ActivationTotal } from './activations';

export interface LayerBackward {
  /** weight-gradient bytes one layer adds (0 when gradients are held or stepped in backward) */
  perLayerGrad: number;
  /** live bytes at the layers' backward peak, beyond the persistent states */
  peak: number;
}

/** AMP's 16-bit weight copies alive when the first / the last layer is differentiated (amp-cache.ts). */
export interface LayerCopies {
  first: number;
  last: number;
}
const NO_COPIES: LayerCopies = { first: 0, last: 0 };

/** One layer's weight gradients: the trainable gradients less the head's and the embedding's, shared by the layers. */
export function perLayerGradient(grads: number, headGrad: number, embedGrad: number, layers: number): number {
  return grads > 0 ? Math.max(0, grads - headGrad - embedGrad) / Math.max(1, layers) : 0;
}

/**
 * `grads`: the trainable gradients made in this backward (0 when held or stepped in backward);
 * `headGrad`: the LM head's, made before the layers; `embedGrad`: the embedding's, made after them.
 */
export function layerBackward(acts: ActivationTotal, layers: number, grads: number, headGrad: number, embedGrad: number, dequant: number, copies: LayerCopies = NO_COPIES): LayerBackward {
  const L = Math.max(1, layers);
  const saved = Math.max(0, acts.bytes - acts.head - acts.recompute);
  const one = saved / Math.max(1, acts.layersOnGpu);
  const perLayerGrad = perLayerGradient(grads, headGrad, embedGrad, L);
  const head = grads > 0 ? headGrad : 0;
  const peak = head + acts.recompute + Math.max(dequant, perLayerGrad) + Math.max(saved + copies.first, one + (L - 1) * perLayerGrad + copies.last);
  return { perLayerGrad, peak };
}
