/**
 * Training-state details a layer list knows better than a bare parameter count:
 * - optimizer state per parameter tensor: Adafactor's factored second moment (HF
 *   transformers optimization.py Adafactor, β1 = None: a row and a column accumulator over the
 *   last two dims for ≥ 2-D tensors, a full vector otherwise; Shazeer & Stern 2018, arXiv
 *   1804.04235) and bitsandbytes' min_8bit_size = 4096 rule (bitsandbytes optim/optimizer.py:
 *   smaller tensors keep fp32 states); every other optimizer from src/core/training/optimizer.ts;
 * - the backward sweep: with zero_grad(set_to_none=True) (PyTorch ≥ 2.0 default) gradients
 *   appear as backward runs from the last layer to the first, while each saved tensor is freed
 *   once the first layer that saved it has run its backward (docs/reference/formulas.md §7.3).
 */
import type { Optimizer, Precision } from '../types';
import { optimizerBytesPerParam } from '../training/optimizer';
import type { LayerRow } from './analyze';
import { prod } from './spec';

/** bitsandbytes: tensors with fewer elements keep 32-bit optimizer states. */
export const BNB_MIN_8BIT_SIZE = 4096;

/** Optimizer state bytes over all parameter tensors. */
export function optimizerStateBytes(rows: LayerRow[], optimizer: Optimizer, precision: Precision): number {
  const el = precision === 'bf16' || precision === 'fp16' ? 2 : 4;
  let sum = 0;
  for (const r of rows) {
    for (const t of r.tensors) {
      const n = prod(t);
      if (optimizer === 'adafactor') {
        sum += el * (t.length >= 2 ? prod(t.slice(0, -1)) + prod(t.slice(0, -2)) * t[t.length - 1]! : n);
      } else if (optimizer.endsWith('8bit') && n < BNB_MIN_8BIT_SIZE) {
        sum += 2 * 4 * n;
      } else {
        sum += optimizerBytesPerParam(optimizer, precision) * n;
      }
    }
  }
  return sum;
}

export interface BackwardPeak {
  /** saved activations still held at the peak */
  saved: number;
  /** gradients already produced at the peak */
  grads: number;
  /** the layer's grad_output + grad_input */
  transient: number;
}

/**
 * Largest saved + gradients + transient over the backward sweep at batch b
 * (rows in forward order; `gradBytes` per parameter).
 */
export function backwardPeak(rows: LayerRow[], b: number, gradBytes: number): BackwardPeak {
  let saved = rows.reduce((s, r) => s + r.savedBytes * b + r.savedFixedBytes, 0);
  let grads = 0;
  let best: BackwardPeak = { saved, grads: 0, transient: 0 };
  for (let i = rows.length - 1; i >= 0; i--) {
    const r = rows[i]!; // 0 ≤ i < rows.length
    grads += r.params * gradBytes;
    const here = { saved, grads, transient: r.gradPair * b };
    if (here.saved + here.grads + here.transient > best.saved + best.grads + best.transient) best = here;
    saved -= r.savedBytes * b + r.savedFixedBytes;
  }
  // the optimizer step holds every gradient
  if (grads > best.saved + best.grads + best.transient) best = { saved: 0, grads, transient: 0 };
  return best;
}
