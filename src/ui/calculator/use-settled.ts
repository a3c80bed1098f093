import { startTransition, useEffect, useState } from 'react';
import { useApp, type AppState } from '../../state/store';

/** How long the store must stand still before the settled views follow it. */
export const SETTLE_MS = 120;

const listeners = new Set<() => void>();
let timer: ReturnType<typeof setTimeout> | undefined;
let unsubscribe: (() => void) | undefined;

/** One timer for the page, running while any view reads settled values: restarted by every store change. */
function listen(fn: () => void): () => void {
  listeners.add(fn);
  unsubscribe ??= useApp.subscribe(() => {
    clearTimeout(timer);
    timer = setTimeout(() => listeners.forEach((f) => f()), SETTLE_MS);
  });
  return () => {
    listeners.delete(fn);
    if (listeners.size > 0) return;
    clearTimeout(timer);
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
  useEffect(() => {
    const update = () => startTransition(() => setValue(select(useApp.getState())));
    // a change made between the first render and this effect
    update();
    return listen(update);
  }, [select]);
  return value;
}
