/**
 * React.lazy keeps a rejected import for good: a chunk that failed to load once (offline, a
 * dropped connection) stays broken until a full reload, whatever "Try again" does. These lazies
 * remember that they failed; `retryFailedLoads()` (called by the error boundary's "Try again")
 * replaces each failed one, so the next render imports again. Nothing retries on its own: React
 * re-renders after an error, and an automatic retry would loop while the network is down.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

const failed = new Set<() => void>();

/** Give every lazy whose import failed a fresh import on its next render. */
export function retryFailedLoads(): void {
  for (const reset of [...failed]) reset();
  failed.clear();
}

export function lazyRetry<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let current: LazyExoticComponent<ComponentType<P>>;
  const attempt = () =>
    load().catch((e: unknown) => {
      failed.add(() => {
        current = lazy(attempt);
      });
      throw e;
    });
  current = lazy(attempt);
  return function Retrying(props: P) {
    const C = current;
    return <C {...props} />;
  };
}
