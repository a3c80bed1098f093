/**
 * The lab's prediction for the overlay, off the page's thread: receives an OverlayRequest, answers
 * { done: OverlayResult } or { error } when the computation failed (overlay-compute.ts).
 */
import { computeOverlay, type OverlayRequest } from './overlay-compute';
import '../../core/all-estimators';

self.onmessage = (e: MessageEvent<OverlayRequest>) => {
  try {
    self.postMessage({ done: computeOverlay(e.data) });
  } catch (err) {
    self.postMessage({ error: String(err) });
  }
};
