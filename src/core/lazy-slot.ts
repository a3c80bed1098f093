/**
 * A value a lazily loaded module hands to code that must not import it (so the bundler can keep
 * that module out of the entry chunk): the module fills the slot as it loads, callers read null
 * until then. core/training/provider.ts and core/diffusion/provider.ts are the two slots.
 */
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
