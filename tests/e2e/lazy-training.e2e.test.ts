import { expect, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';
import { expectClean } from './page';

const chromium = browserPerFile();
/** The training estimator's chunk (core/training/builders.ts, loaded by ui/calculator/estimator-loader.ts). */
const TRAINING_CHUNK = /\/assets\/builders-[\w-]+\.js$/;

test('the default page draws its 80 % bands and fit marks without the training estimator; the Training tab fetches it', async () => {
  const w = await watchedPage(chromium.browser(), chromium.base());
  const scripts: string[] = [];
  w.page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await w.page.goto(chromium.base());
  // the band line, the bands under the totals and the catalogue's marks all score the development rows (src/validation)
  const band = w.page.getByTestId('error-band');
  await expect.poll(() => band.getAttribute('data-basis'), { timeout: 10_000 }).toBe('validated');
  expect(await band.getAttribute('title')).toMatch(/^Development rows of this kind \(inference/);
  await w.page.getByTestId('band-device').waitFor();
  await w.page.getByTestId('picked-mark').waitFor();
  await w.page.waitForLoadState('networkidle');
  expect(scripts.filter((u) => TRAINING_CHUNK.test(u))).toEqual([]);
  await w.page.getByRole('tab', { name: 'Training' }).click();
  // full fine-tuning on one GPU: the training rows of that kind are scored once the chunk is in
  await expect.poll(() => band.getAttribute('title'), { timeout: 10_000 }).toMatch(/^Development rows of this kind \(training/);
  expect(await band.getAttribute('data-basis')).toBe('validated');
  expect(scripts.filter((u) => TRAINING_CHUNK.test(u))).toHaveLength(1);
  expectClean({ ...w, dialogs: [] });
});
