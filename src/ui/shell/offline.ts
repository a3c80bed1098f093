/**
 * Registers the service worker that keeps the page working offline (vite.config.ts `offline`).
 * Not in embed mode (a docs site's frame should not install workers on our origin for its
 * readers) and not where the browser refuses one (sandboxed frames, file://, some privacy modes):
 * the page works the same, online only. A waiting new version is announced, never forced. The
 * registration code is a chunk of its own, fetched after the page's first script (it is not needed
 * to draw anything).
 *
 * It registers once the page has loaded and then gone QUIET_MS without input (loaded-and-quiet.ts),
 * not at once: installing precaches the whole build and Chromium compiles every script it caches,
 * ~0.9 s of CPU on the worker's thread in a trace of a first visit, which otherwise lands on the
 * first seconds of typing or dragging (web.dev, "Service worker registration", waits for the load
 * event for the same reason).
 */
import { useApp } from '../../state/store';
import { loadedAndQuiet } from './loaded-and-quiet';

export async function registerOffline(): Promise<void> {
  if (useApp.getState().embed) return;
  try {
    if (!('serviceWorker' in navigator) || !window.isSecureContext) return;
    await loadedAndQuiet();
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
