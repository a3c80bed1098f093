/**
 * Runs the overlay's prediction (overlay-compute.ts) in a Web Worker (overlay.worker.ts) while the
 * overlay is on: one worker per request, ended when the scenario or the run changes before it
 * answers (its answer would be stale) or when the panel goes. Where the page has no Worker the
 * prediction runs here, after the pending state has been drawn.
 */
import { startTransition, useEffect, useState } from 'react';
import type { RecordedSeries } from '../../core/timeline/versus-recorded';
import type { Scenario } from '../../core/types';
import { computeOverlay, type OverlayResult } from './overlay-compute';

/** off: the toggle is off; pending: the prediction is running; failed: the worker died or threw. */
export type OverlayState = { status: 'off' } | { status: 'pending' } | { status: 'failed' } | { status: 'done'; result: OverlayResult };

export function useOverlay(on: boolean, scenario: Scenario, recorded: RecordedSeries): OverlayState {
  const [state, setState] = useState<{ for: unknown[]; state: OverlayState } | null>(null);
  const inputs = [on, scenario, recorded];
  useEffect(() => {
    if (!on) return;
    let live = true;
    // as a transition: the chart and table render without holding the page
    const settle = (s: OverlayState) => {
      if (live) startTransition(() => setState({ for: [on, scenario, recorded], state: s }));
    };
    if (typeof Worker === 'undefined') {
      const timer = setTimeout(() => {
        try {
          settle({ status: 'done', result: computeOverlay({ scenario, recorded }) });
        } catch {
          settle({ status: 'failed' });
        }
      });
      return () => {
        live = false;
        clearTimeout(timer);
      };
    }
    const w = new Worker(new URL('./overlay.worker.ts', import.meta.url), { type: 'module' });
    w.onmessage = (e: MessageEvent<{ done?: OverlayResult; error?: string }>) => {
      settle(e.data.done ? { status: 'done', result: e.data.done } : { status: 'failed' });
      w.terminate();
    };
    // a worker that dies (out of memory) says nothing more: name it next to the control
    w.onerror = (e) => {
      e.preventDefault();
      settle({ status: 'failed' });
      w.terminate();
    };
    w.postMessage({ scenario, recorded });
    return () => {
      live = false;
      w.terminate();
    };
  }, [on, scenario, recorded]);
  if (!on) return { status: 'off' };
  // an answer for other inputs (or none yet) reads as pending
  return state && state.for.every((x, i) => x === inputs[i]) ? state.state : { status: 'pending' };
}
