import { startTransition, useEffect, useState } from 'react';

/**
 * `value` once it has stopped changing for `ms`, applied as a transition. While a slider is
 * dragged, the field and the headline follow every step; charts and tables (tens of ms to redraw)
 * follow when the hand pauses, so each step still paints within one frame.
 */
export function useSettled<T>(value: T, ms = 120): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    if (Object.is(value, settled)) return;
    const id = setTimeout(() => startTransition(() => setSettled(value)), ms);
    return () => clearTimeout(id);
  }, [value, settled, ms]);
  return settled;
}
