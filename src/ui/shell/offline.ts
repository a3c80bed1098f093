/**
 * Registers the service worker that keeps the page working offline (vite.config.ts `offline`).
 * Not in embed mode (a docs site's frame should not install workers on our origin for its
 * readers) and not where the browser refuses one (sandboxed frames, file://, some privacy modes):
 * the page works the same, online only. A waiting new version is announced, never forced.
 */
import { registerSW } from 'virtual:pwa-register';
import { useApp } from '../../state/store';

export function registerOffline(): void {
  if (useApp.getState().embed) return;
  try {
    if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
    void registerSW({
      immediate: true,
      onNeedRefresh: () => useApp.getState().notify({ id: 'update', key: 'notice.updateReady' }),
    });
  } catch {
    // SecurityError where workers are not allowed: nothing to cache, nothing to say
  }
}
