/**
 * A value a lazily loaded module hands to code that must not import it (so the bundler can keep
 * that module out of the entry chunk): the module fills the slot as it loads, callers read null
 * until then. The slots: core/training/provider.ts, core/diffusion/provider.ts,
 * core/inference/remote-provider.ts and core/inference/engine-provider.ts.
 */
import type { Result } from './types';

export interface LazySlot<T> {
  /** called by the lazy module as it loads */
  provide: (value: T) => void;
  /** the value, or null while the module has not been loaded */
  get: () => T | null;
}

export function lazySlot<T>(): LazySlot<T> {
  let value: T | null = null;
  return {
    provide: (v) => {
      value = v;
    },
    get: () => value,
  };
}

/**
 * estimate()'s answer while a slot is empty: one error on the field that chose the part, never a
 * number (ui/calculator/estimator-loader.ts fetches the chunk its code names).
 */
export function loadingAnswer(key: string, code: string, message: string, params?: Record<string, string>): Result<never> {
  return { ok: false, errors: [{ key, code, message, ...(params ? { params } : {}) }] };
}
