import type { Page } from 'playwright-core';

/** Allowed main-thread task (ms): the target is 50; the test machine is shared and slow, the freezes these tests guard against took seconds. */
export const MAX_TASK_MS = 200;

export interface MainThreadProbe {
  /** durations of the long tasks since start() */
  tasks: number[];
  /** the longest gap between animation frames since start() */
  gap: number;
}

/**
 * Watches the page's main thread with a long-task observer and a requestAnimationFrame probe; call
 * before page.goto(). start() begins the window, read() returns what was seen since.
 */
export async function watchMainThread(page: Page): Promise<{ start: () => Promise<void>; read: () => Promise<MainThreadProbe> }> {
  await page.addInitScript(() => {
    const probe = { from: Infinity, tasks: [] as number[], gap: 0, last: 0 };
    (window as unknown as { probe: typeof probe }).probe = probe;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (e.startTime >= probe.from) probe.tasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
    const frame = (t: number) => {
      if (probe.last >= probe.from) probe.gap = Math.max(probe.gap, t - probe.last);
      probe.last = t;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  return {
    start: () =>
      page.evaluate(() => {
        const probe = (window as unknown as { probe: { from: number; last: number } }).probe;
        probe.from = performance.now();
        probe.last = probe.from;
      }),
    read: () => page.evaluate(() => (window as unknown as { probe: MainThreadProbe }).probe),
  };
}
