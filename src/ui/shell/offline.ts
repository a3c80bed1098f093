/**
 * Registers the service worker that keeps the page working offline (vite.config.ts `offline`).
 * Not in embed mode (a docs site's frame should not install workers on our origin for its
 * readers) and not where the browser refuses one (sandboxed frames, file://, some privacy modes):
 * the page works the same, online only. A waiting new version is announced, never forced. The
 * registration code is a chunk of its own, fetched after the page's first script (it is not needed
 * to draw anything).
 */
import { useApp } from '../../state/store';

export async function registerOffline(): Promise<void> {
  if (useApp.getState().embed) return;
  try {
    if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
    const { registerSW } = await import('virtual:pwa-register');
    registerSW({
      immediate: true,
      onNeedRefresh: () => useApp.getState().notify({ id: 'update', key: 'notice.updateReady' }),
    });
  } catch {
    // SecurityError where workers are not allowed, or the chunk could not be fetched (offline
    // before any worker was installed): nothing to cache, nothing to say
  }
}
