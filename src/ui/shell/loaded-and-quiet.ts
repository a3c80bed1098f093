/**
 * A moment for background work the user should not feel: after the load event, once the page has
 * gone QUIET_MS without a key, click, touch, wheel or pointer move (offline.ts installs the service
 * worker then).
 */

/** How long the page must go without input before the worker installs. */
export const QUIET_MS = 2000;

const INPUT = ['keydown', 'pointerdown', 'pointermove', 'wheel'] as const;

/** Resolves after the load event, once no input has arrived for `ms`. */
export function loadedAndQuiet(ms = QUIET_MS): Promise<void> {
  return new Promise((resolve) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let loaded = document.readyState === 'complete';
    const done = () => {
      for (const type of INPUT) removeEventListener(type, restart, true);
      resolve();
    };
    // input before the load event counts from the load event
    const restart = () => {
      if (!loaded) return;
      clearTimeout(timer);
      timer = setTimeout(done, ms);
    };
    for (const type of INPUT) addEventListener(type, restart, { capture: true, passive: true });
    if (loaded) restart();
    else
      addEventListener(
        'load',
        () => {
          loaded = true;
          restart();
        },
        { once: true },
      );
  });
}
