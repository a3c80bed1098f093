import { useDeferredValue, useMemo } from 'react';

/** `parse(text)` for pasted text, computed off the typing path (deferred); null while the text is blank. */
export function useParsed<T>(text: string, parse: (text: string) => T): T | null {
  const deferred = useDeferredValue(text);
  return useMemo(() => (deferred.trim() ? parse(deferred) : null), [deferred, parse]);
}
