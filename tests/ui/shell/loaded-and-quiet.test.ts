// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { loadedAndQuiet, QUIET_MS } from '../../../src/ui/shell/loaded-and-quiet';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** Whether the promise has settled, after letting pending microtasks run. */
async function settled(p: Promise<void>): Promise<boolean> {
  let done = false;
  void p.then(() => (done = true));
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

test('the worker waits for the load event, then for QUIET_MS without input; every key or pointer move starts the wait again', async () => {
  vi.useFakeTimers();
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
  const quiet = loadedAndQuiet();
  // before the load event no amount of quiet is enough
  await vi.advanceTimersByTimeAsync(QUIET_MS * 3);
  expect(await settled(quiet)).toBe(false);
  window.dispatchEvent(new Event('load'));
  await vi.advanceTimersByTimeAsync(QUIET_MS - 500);
  // a key 500 ms before the wait was over, then a pointer move: each restarts it
  document.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
  await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
  expect(await settled(quiet)).toBe(false);
  document.dispatchEvent(new PointerEvent('pointermove', { bubbles: true }));
  await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
  expect(await settled(quiet)).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(await settled(quiet)).toBe(true);
});

test('a page already loaded waits QUIET_MS from the call', async () => {
  vi.useFakeTimers();
  const quiet = loadedAndQuiet();
  await vi.advanceTimersByTimeAsync(QUIET_MS - 1);
  expect(await settled(quiet)).toBe(false);
  await vi.advanceTimersByTimeAsync(1);
  expect(await settled(quiet)).toBe(true);
});
