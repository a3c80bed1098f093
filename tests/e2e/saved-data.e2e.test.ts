import { expect, test } from 'vitest';
import { browserPerFile } from './browser';
import { expectClean, open } from './page';

const chromium = browserPerFile();
const base = chromium.base;

test('a saved custom GPU and a saved network survive a reload, saved by keyboard, with no console errors', async () => {
  const w = await open(chromium.browser(), base());
  const p = w.page;
  // calculator: a named 24 GiB GPU with its bandwidth, saved with Enter
  await p.getByLabel('Custom capacity', { exact: true }).fill('24');
  // the save form is closed until asked for
  await p.getByRole('button', { name: 'Save a custom GPU under a name…' }).click();
  await p.getByLabel('Memory bandwidth, GB/s (optional)').fill('936');
  await p.getByLabel('GPU name', { exact: true }).fill('lab box');
  await p.getByLabel('GPU name', { exact: true }).press('Enter');
  await p.getByRole('button', { name: 'lab box', exact: true }).waitFor();

  // layer builder: VGG-16 at batch 4, saved
  await p.goto(`${base()}?view=layers`);
  await p.getByTestId('net-params').waitFor();
  await p.getByLabel('Start from').selectOption('vgg-16');
  await p.getByLabel('Network name').fill('my vgg');
  await p.getByRole('button', { name: 'Save network' }).press('Enter');
  await p.getByRole('button', { name: 'my vgg', exact: true }).waitFor();

  // a fresh page load without the network in the link: what comes back comes from storage
  await p.goto(`${base()}?view=layers`);
  await p.getByTestId('net-params').waitFor();
  expect(await p.getByTestId('net-params').textContent()).toBe('25,557,032');
  await p.getByRole('button', { name: 'my vgg', exact: true }).press('Enter');
  // VGG-16: 138,357,544 parameters (torchvision models/vgg.py, config D)
  await expect.poll(() => p.getByTestId('net-params').textContent()).toBe('138,357,544');
  await p.getByRole('group', { name: 'Saved networks' }).screenshot({ path: '.tmp/screens/saved-networks.png' });

  await p.goto(base());
  await p.getByTestId('device-total').first().waitFor();
  const saved = p.getByRole('group', { name: 'Saved GPUs' });
  expect(await saved.getByText('24.0 GiB, 936 GB/s').count()).toBe(1);
  await saved.getByRole('button', { name: 'lab box', exact: true }).click();
  const chosen = p.getByRole('list', { name: 'Chosen GPUs' });
  await chosen.getByRole('button', { name: 'Remove lab box' }).waitFor();
  expect(JSON.parse((await p.evaluate(() => localStorage.getItem('gpumem.gpus')))!).version).toBe(1);
  await p.locator('section.panel', { has: saved }).screenshot({ path: '.tmp/screens/saved-gpus.png' });
  expectClean(w);
});

test('unreadable saved GPUs and networks: notices beside the lists, both views still work', async () => {
  const w = await open(chromium.browser(), base());
  await w.page.evaluate(() => {
    localStorage.setItem('gpumem.gpus', '{"theme":"dark"}');
    localStorage.setItem('gpumem.networks', JSON.stringify({ version: 7, items: {} }));
  });
  await w.page.reload();
  await w.page.getByTestId('device-total').first().waitFor();
  expect(await w.page.getByRole('group', { name: 'Saved GPUs' }).getByRole('alert').textContent()).toContain('could not be read');
  await w.page.goto(`${base()}?view=layers`);
  await w.page.getByTestId('net-params').waitFor();
  expect(await w.page.getByRole('group', { name: 'Saved networks' }).getByRole('alert').textContent()).toContain('newer version of this page');
  expectClean(w);
});

test('inside a sandboxed iframe (allow-scripts only, where storage throws) the page answers and says nothing is saved', async () => {
  const w = await open(chromium.browser(), base());
  const p = w.page;
  await p.evaluate((src) => {
    document.body.innerHTML = `<iframe sandbox="allow-scripts" src="${src}" width="1200" height="900"></iframe>`;
  }, `${base()}?v=1&model=meta-llama/Llama-2-7b-hf`);
  const frame = p.frameLocator('iframe');
  await frame.getByTestId('device-total').first().waitFor();
  await frame.getByText('This browser blocks storage here, so nothing is saved').waitFor();
  expect(w.consoleErrors.filter((e) => !e.includes('404'))).toEqual([]);
});
