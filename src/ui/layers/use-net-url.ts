/**
 * The Layer builder's link: read `net.*` once when the view opens, then mirror the view's state
 * into the query with history.replaceState (debounced), replacing only `net.*` pairs and keeping
 * every other pair of the query as it is (src/state/url-codec.ts passes `net.*` through).
 */
import { useEffect } from 'react';
import { decodeUrl } from '../../state/url-codec';
import { useApp } from '../../state/store';
import { useNet, netStateOf } from './net-store';
import { mergeQuery, netPairs, readNet } from './net-url';

const hasNet = (search: string) => /[?&]net\./.test(search);

/**
 * The query the page was opened with. The page's own URL sync may already have rewritten the
 * address (dropping pass-through keys) before this lazy view loaded; the navigation entry
 * still holds the link as opened (PerformanceNavigationTiming.name, W3C Navigation Timing 2).
 */
function openedSearch(): string {
  if (hasNet(location.search)) return location.search;
  const nav = typeof performance !== 'undefined' && performance.getEntriesByType ? performance.getEntriesByType('navigation')[0] : undefined;
  if (nav && hasNet(nav.name)) {
    try {
      return new URL(nav.name).search;
    } catch {
      return location.search;
    }
  }
  return location.search;
}

let readOnce = false;

/** Write the view's `net.*` pairs into the address bar now. */
export function writeNetUrl(): void {
  const q = mergeQuery(location.search, netPairs(netStateOf(useNet.getState())));
  if (q !== location.search.replace(/^\?/, '')) history.replaceState(history.state, '', `${location.pathname}?${q}${location.hash}`);
}

/** Keep `net.*` of the address bar and the view in step while the view is open. */
export function useNetUrl(delayMs = 150): void {
  useEffect(() => {
    const search = readOnce ? location.search : openedSearch();
    readOnce = true;
    if (hasNet(search)) {
      const { state, ignored } = readNet(decodeUrl(search).extra.views ?? {});
      useNet.getState().load(state, ignored);
    }
    writeNetUrl();
    let timer: ReturnType<typeof setTimeout> | undefined;
    // the page store's own sync rewrites the query (debounced ~120 ms); write after it
    const later = () => {
      clearTimeout(timer);
      timer = setTimeout(writeNetUrl, delayMs);
    };
    const a = useNet.subscribe(later);
    const b = useApp.subscribe(later);
    return () => {
      clearTimeout(timer);
      a();
      b();
    };
  }, [delayMs]);
}
