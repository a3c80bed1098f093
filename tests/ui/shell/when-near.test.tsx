// @vitest-environment happy-dom
import { afterEach, expect, test, vi } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { WhenNear } from '../../../src/ui/shell/when-near';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** A stand-in for the browser's IntersectionObserver that the test drives by hand. */
function fakeObserver() {
  const made: { cb: IntersectionObserverCallback; margin?: string; watched: Element[]; off: boolean }[] = [];
  class IO {
    rec: (typeof made)[number];
    constructor(cb: IntersectionObserverCallback, opts?: IntersectionObserverInit) {
      this.rec = { cb, margin: opts?.rootMargin, watched: [], off: false };
      made.push(this.rec);
    }
    observe(el: Element) {
      this.rec.watched.push(el);
    }
    disconnect() {
      this.rec.off = true;
    }
  }
  vi.stubGlobal('IntersectionObserver', IO);
  const fire = (isIntersecting: boolean) => act(() => made.at(-1)!.cb([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver));
  return { made, fire };
}

test('the placeholder until its place comes within a quarter screen of the viewport, then the content, and the observer is let go', () => {
  const io = fakeObserver();
  render(
    <WhenNear fallback={<p>placeholder</p>}>
      <p>chart</p>
    </WhenNear>,
  );
  expect(screen.getByText('placeholder')).toBeTruthy();
  expect(io.made).toHaveLength(1);
  expect(io.made[0].margin).toBe('25% 0px');
  expect(io.made[0].watched[0].textContent).toBe('placeholder');
  io.fire(false);
  expect(screen.queryByText('chart')).toBeNull();
  io.fire(true);
  expect(screen.getByText('chart')).toBeTruthy();
  expect(screen.queryByText('placeholder')).toBeNull();
  expect(io.made[0].off).toBe(true);
});

test('without IntersectionObserver (an old browser) the content renders at once', () => {
  vi.stubGlobal('IntersectionObserver', undefined);
  render(
    <WhenNear fallback={<p>placeholder</p>}>
      <p>chart</p>
    </WhenNear>,
  );
  expect(screen.getByText('chart')).toBeTruthy();
});
