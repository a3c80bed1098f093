import { expect, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';

const chromium = browserPerFile();

test('the built page loads from a sub-path with no console errors and no outside requests', async () => {
  const w = await watchedPage(chromium.browser(), chromium.base());
  await w.page.goto(chromium.base());
  await expect(w.page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/GPU Memory Calculator/);
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
});
