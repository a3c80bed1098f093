/**
 * Issue #16 §7: the page promises to work offline. A service worker precaches the build, so a
 * reload without a network opens the page and every view; and a view whose chunk failed to load
 * while offline (before any worker was installed) loads on "Try again" once the network is back.
 */
import { expect, test } from 'vitest';
import { browserPerFile } from './browser';

const chromium = browserPerFile();

test('after one visit, an offline reload of a share link opens the calculator, and the allocator lab opens offline', async () => {
  const context = await chromium.browser().newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(`${chromium.base()}?v=1&model=meta-llama/Llama-2-7b-hf&batch=2`);
  await page.getByTestId('device-total').first().waitFor();
  // the worker installs and precaches everything in the background
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await context.setOffline(true);
  await page.goto(`${chromium.base()}?v=1&model=meta-llama/Llama-2-7b-hf&batch=4`);
  await page.getByTestId('device-total').first().waitFor();
  await page.getByRole('tab', { name: 'Allocator lab' }).click();
  await page.getByRole('tablist', { name: 'Lab panels' }).waitFor();
  expect(await page.locator('.panel-error').count()).toBe(0);
  expect(errors).toEqual([]);
  await context.close();
}, 90_000);

test('a view whose chunk failed offline loads on "Try again" once the network is back', async () => {
  const context = await chromium.browser().newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto(chromium.base());
  await page.getByTestId('device-total').first().waitFor();
  await context.setOffline(true);
  await page.getByRole('tab', { name: 'Allocator lab' }).click();
  await page.getByText('This panel could not be downloaded').waitFor();
  await context.setOffline(false);
  await page.getByRole('button', { name: 'Try again' }).click();
  await page.getByRole('tablist', { name: 'Lab panels' }).waitFor();
  expect(await page.locator('.panel-error').count()).toBe(0);
  await context.close();
}, 90_000);
