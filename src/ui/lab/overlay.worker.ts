/**
 * The lab's prediction for the overlay, off the page's thread: receives an OverlayRequest, answers
 * { done: OverlayResult } or { error } when the computation failed (overlay-compute.ts).
 */
import { computeOverlay, type OverlayRequest } from './overlay-compute';
// the worker has its own module graph: the estimators the page loads on demand come in up front
// (core/training/provider.ts, core/diffusion/provider.ts)
import '../../core/training/builders';
import '../../core/diffusion/build';

self.onmessage = (e: MessageEvent<OverlayRequest>) => {
  try {
    self.postMessage({ done: computeOverlay(e.data) });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
