import { startTransition, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useApp, type AppState } from '../../state/store';

/** How long the store must stand still before the settled views follow it. */
export const SETTLE_MS = 120;

interface Listener {
  /** render the store as it is now (a transition) */
  settle: () => void;
  /** keep what the view last committed (a transition queued after a settle still rendering) */
  drop: () => void;
}

const listeners = new Set<Listener>();
let timer: ReturnType<typeof setTimeout> | undefined;
/** A settle went out since the last store change. */
let settled = false;
let unsubscribe: (() => void) | undefined;

/**
 * One timer for the page, running while any view reads settled values: restarted by every store
 * change. A change that comes after a settle drops that settle's render if it has not committed
 * yet (its values are already out of date, and the next pause renders again): otherwise every
 * key press after a pause would wait for slices of that render, restarted after each press.
 */
function listen(l: Listener): () => void {
  listeners.add(l);
  unsubscribe ??= useApp.subscribe(() => {
    clearTimeout(timer);
    if (settled) {
      settled = false;
      listeners.forEach((x) => x.drop());
    }
    timer = setTimeout(() => {
      settled = true;
      listeners.forEach((x) => x.settle());
    }, SETTLE_MS);
  });
  return () => {
    listeners.delete(l);
    if (listeners.size > 0) return;
    clearTimeout(timer);
    settled = false;
    unsubscribe?.();
    unsubscribe = undefined;
  };
}

/**
 * `select` of the store once it has stood still for SETTLE_MS, applied as a transition. While a
 * slider is dragged or stepped with arrow keys, the field, the verdict and the totals follow every
 * step; charts, tables and fit marks (tens of ms to redraw) follow when the hand pauses. The
 * caller does not subscribe to the store itself, so a step does not re-render it at all.
 * `select` must be a stable function (defined outside the component).
 */
export function useSettled<T>(select: (st: AppState) => T): T {
  const [value, setValue] = useState(() => select(useApp.getState()));
  // the value this view has committed: what a dropped settle leaves in place
  const committed = useRef(value);
  useLayoutEffect(() => {
    committed.current = value;
  }, [value]);
  useEffect(() => {
    const settle = () => startTransition(() => setValue(select(useApp.getState())));
    // a change made between the first render and this effect
    settle();
    // the same transition lanes as a settle still rendering: React renders both together, ending on this value
    return listen({ settle, drop: () => startTransition(() => setValue(committed.current)) });
  }, [select]);
  return value;
}
