/**
 * The Layer builder's link: read `net.*` when the view opens, then mirror the view's state into
 * the query with history.replaceState (debounced), replacing only `net.*` pairs and keeping every
 * other pair as it is. The page's own URL sync (src/ui/shell/url-sync.ts) writes the `net.*` pairs
 * back as src/state/url-codec.ts read (and migrated) them.
 */
import { useEffect } from 'react';
import { decodeUrl } from '../../state/url-codec';
import { replaceViewPairs } from '../../state/url-query';
import { useNet, netStateOf } from './net-store';
import { netPairs, readNet } from './net-url';

/** The query with the view's current `net.*` pairs. */
const ownQuery = () => replaceViewPairs(location.search, 'net.', netPairs(netStateOf(useNet.getState())));
const currentQuery = () => location.search.replace(/^\?/, '');

/** Write the view's `net.*` pairs into the address bar now. */
export function writeNetUrl(): void {
  const q = ownQuery();
  if (q !== currentQuery()) history.replaceState(history.state, '', `${location.pathname}?${q}${location.hash}`);
}

/** Keep `net.*` of the address bar and the view in step while the view is open. */
export function useNetUrl(delayMs = 150): void {
  useEffect(() => {
    // a link's pairs are read unless they are what this view wrote itself (a remount keeps the store as it is)
    if (/[?&]net\./.test(location.search) && ownQuery() !== currentQuery()) {
      const { state, ignored } = readNet(decodeUrl(location.search).extra.views ?? {});
      useNet.getState().load(state, ignored);
    }
    writeNetUrl();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsub = useNet.subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(writeNetUrl, delayMs);
    });
    return () => {
      clearTimeout(timer);
      unsub();
      // leaving the view: the last change must not be lost with the pending write
      writeNetUrl();
    };
  }, [delayMs]);
}
