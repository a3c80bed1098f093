import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import type { Browser } from 'playwright-core';
import { launch, watchedPage } from './browser';

let browser: Browser;
beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  await browser?.close();
});

test('the built page loads from a sub-path with no console errors and no outside requests', async () => {
  const w = await watchedPage(browser, inject('baseUrl'));
  await w.page.goto(inject('baseUrl'));
  await expect(w.page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/GPU Memory Calculator/);
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
});
