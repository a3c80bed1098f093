import { useEffect, useRef, useState, type ReactNode } from 'react';

/**
 * How far outside the viewport a placeholder starts its content: a quarter screen above or below
 * (a whole screen would take in the sweep chart on a 1280 × 900 first screen, while the tables
 * above it are still loading and the page is short).
 */
const MARGIN = '25% 0px';

/**
 * Below-the-fold content (a lazy chart) that starts loading only once its place comes near the
 * viewport, so the first screen never waits for it and it is usually drawn before it
 * is scrolled to. Until then `fallback` holds its place, sized like the content (nothing jumps).
 * Where IntersectionObserver is missing, the content renders at once.
 */
export function WhenNear({ fallback, children }: { fallback: ReactNode; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver !== 'function');
  useEffect(() => {
    const el = ref.current;
    if (near || !el) return;
    const io = new IntersectionObserver((es) => es.some((e) => e.isIntersecting) && setNear(true), { rootMargin: MARGIN });
    io.observe(el);
    return () => io.disconnect();
  }, [near]);
  return near ? children : <div ref={ref}>{fallback}</div>;
}
