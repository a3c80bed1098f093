import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, inject, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';

const chromium = browserPerFile();

test('the built page loads from a sub-path with no console errors and no outside requests', async () => {
  const w = await watchedPage(chromium.browser(), chromium.base());
  await w.page.goto(chromium.base());
  await expect(w.page.getByRole('heading', { level: 1 }).textContent()).resolves.toMatch(/GPU Memory Calculator/);
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
});

test("the page under test is the production build (React's, not its development warnings) and is not left in dist/", () => {
  const dir = inject('distDir');
  const js = readdirSync(join(dir, 'assets'))
    .filter((f) => f.endsWith('.js'))
    .map((f) => readFileSync(join(dir, 'assets', f), 'utf8'))
    .join('\n');
  // react-dom's production build throws "Minified React error #n"; only the development build warns about list keys
  expect(js).toContain('Minified React error');
  expect(js).not.toContain('Each child in a list should have a unique');
  if (!process.env.E2E_DIST) expect(resolve(dir)).not.toBe(resolve('dist'));
});
