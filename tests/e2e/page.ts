import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { watchedPage, type Watched } from './browser';

/** Open the page at `query` in a fresh context, recording console errors, dialogs and foreign requests. */
export async function open(browser: Browser, base: string, query = '', dark = false): Promise<Watched & { dialogs: string[] }> {
  const w = await watchedPage(browser, base);
  const dialogs: string[] = [];
  w.page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  if (dark) await w.page.emulateMedia({ colorScheme: 'dark' });
  await w.page.goto(base + query);
  await w.page.getByTestId('device-total').first().waitFor();
  return { ...w, dialogs };
}

/** Every test ends here: nothing logged as an error, nothing fetched from elsewhere, no dialogs. */
export function expectClean(w: Watched & { dialogs: string[] }): void {
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
  expect(w.dialogs).toEqual([]);
}

export async function deviceTotal(page: Page): Promise<string> {
  return (await page.getByTestId('device-total').first().textContent()) ?? '';
}

/** Heights of the segments of the stacked bars in the term chart, as drawn. */
export async function barHeights(page: Page): Promise<number[]> {
  await page.locator('.term-chart .term-seg').first().waitFor();
  return page.$$eval('.term-chart .term-seg', (els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
}

/** The query string once the debounced URL sync has caught up. */
export async function settledQuery(page: Page): Promise<string> {
  await page.waitForTimeout(300);
  return new URL(page.url()).search;
}
