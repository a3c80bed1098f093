import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { expect, inject, test } from 'vitest';
import type { Page } from 'playwright-core';
import { browserPerFile, watchedPage, type Watched } from './browser';
import { quickstartRepr } from '../ui/layers/quickstart-repr';

const SCREENS = '.tmp/screens';
const chromium = browserPerFile();
const base = chromium.base;
mkdirSync(SCREENS, { recursive: true });

async function openLayers(query: string, dark = false, ready = '[data-testid="net-params"]'): Promise<Watched> {
  const w = await watchedPage(chromium.browser(), base());
  await w.page.setViewportSize({ width: 1400, height: 1000 });
  if (dark) await w.page.emulateMedia({ colorScheme: 'dark' });
  await w.page.goto(base() + query);
  await w.page.locator(ready).first().waitFor();
  return w;
}

const text = async (page: Page, id: string) => (await page.getByTestId(id).textContent()) ?? '';
/** The query once the view's debounced replaceState has caught up. */
async function settled(page: Page): Promise<string> {
  await page.waitForTimeout(400);
  return page.url();
}
const clean = (w: Watched) => {
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
};
/** Heights of the bars of the "where the memory goes" chart, as drawn. */
async function unitBars(page: Page): Promise<number[]> {
  await page.locator('.net-unit-chart .recharts-bar-rectangle').first().waitFor();
  return page.$$eval('.net-unit-chart .recharts-bar-rectangle path', (els) => els.map((e) => Math.round(e.getBoundingClientRect().width)));
}

test('?view=layers opens ResNet-50 (25,557,032 parameters); the batch slider changes totals, chart and link', async () => {
  const w = await openLayers('?view=layers');
  const { page } = w;
  expect(await page.getByRole('tab', { name: 'Layer builder' }).getAttribute('aria-selected')).toBe('true');
  expect(await text(page, 'net-params')).toBe('25,557,032');
  const device = await text(page, 'net-device');
  const bars = await unitBars(page);
  await page.locator('.net-charts .term-chart .cap-line').first().waitFor({ state: 'attached' });
  await page.screenshot({ path: `${SCREENS}/layers-en-light.png`, fullPage: true });
  const slider = page.getByRole('slider', { name: 'Batch size (slider)' });
  await slider.focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  const batch = Number(await page.getByRole('textbox', { name: 'Batch size', exact: true }).inputValue());
  expect(batch).toBeGreaterThan(32);
  expect(await text(page, 'net-device')).not.toBe(device);
  await expect.poll(() => unitBars(page)).not.toEqual(bars);
  expect(await settled(page)).toContain(`net.b=${batch}`);
  clean(w);
});

test('a link round-trips: preset edits, mode, input size and GPUs come back in a fresh page', async () => {
  const w = await openLayers('?view=layers');
  const { page } = w;
  // ResNet-50 as a 10-class model: fc 2048 -> 10
  await page.getByRole('button', { name: 'Edit fc' }).click();
  await page.getByRole('textbox', { name: 'out_features' }).fill('10');
  await page.getByLabel('Mode', { exact: true }).selectOption('inference');
  await page.getByRole('textbox', { name: 'Input size (H = W)', exact: true }).fill('160');
  await page.getByLabel('Custom capacity, e.g. 24gib or 16gb').fill('24gib');
  await page.getByRole('button', { name: 'Add capacity' }).click();
  // 25,557,032 − (2048·1000 + 1000) + (2048·10 + 10)
  const expected = (25_557_032 - (2048 * 1000 + 1000) + (2048 * 10 + 10)).toLocaleString('en-US');
  expect(await text(page, 'net-params')).toBe(expected);
  const device = await text(page, 'net-device');
  const link = await settled(page);
  const q = new URL(link).search;
  expect(q).toContain('net.p=resnet-50');
  expect(q).toContain('net.e=10(out:10)');
  console.log(`ResNet-50 share link with one edit, mode, input size and a GPU: ${link.length} characters: ${link}`);
  clean(w);

  const w2 = await openLayers(q);
  expect(await text(w2.page, 'net-params')).toBe(expected);
  expect(await text(w2.page, 'net-device')).toBe(device);
  expect(await w2.page.getByLabel('Mode', { exact: true }).inputValue()).toBe('inference');
  expect(await w2.page.getByLabel('Input shape per sample (C×H×W, no batch)').inputValue()).toBe('3x160x160');
  expect(await w2.page.getByText('24 GiB', { exact: true }).count()).toBeGreaterThan(0);
  clean(w2);
});

test('switching to the calculator and back keeps the network and its link', async () => {
  const w = await openLayers('?view=layers&net.p=vgg-16&net.b=4');
  const { page } = w;
  // torchvision vgg16 (configuration D): 138,357,544 parameters
  expect(await text(page, 'net-params')).toBe('138,357,544');
  await page.getByRole('button', { name: 'Remove classifier' }).click();
  const params = (138_357_544 - (25088 * 4096 + 4096) - (4096 * 4096 + 4096) - (4096 * 1000 + 1000)).toLocaleString('en-US');
  expect(await text(page, 'net-params')).toBe(params);
  await page.getByRole('tab', { name: 'Calculator' }).click();
  await page.getByTestId('device-total').first().waitFor();
  expect(new URL(await settled(page)).search).toContain('net.e=x3');
  await page.getByRole('tab', { name: 'Layer builder' }).click();
  await page.getByTestId('net-params').waitFor();
  expect(await text(page, 'net-params')).toBe(params);
  expect(await page.getByRole('textbox', { name: 'Batch size', exact: true }).inputValue()).toBe('4');
  clean(w);
});

test('a plain ResNet-50 link is short', async () => {
  const w = await openLayers('?view=layers');
  const link = await settled(w.page);
  console.log(`ResNet-50 default share link: ${link.length} characters: ${link}`);
  expect(new URL(link).search.length).toBeLessThan(60);
  clean(w);
});

test('Chinese, dark, and a shape error shown on its row', async () => {
  const w = await openLayers('?view=layers&lang=zh&net.p=resnet-50&net.e=4.0.3(in:32)', true, 'tr.net-err-row');
  const { page } = w;
  const err = page.locator('tr.net-err-row');
  await err.waitFor();
  expect(await err.textContent()).toContain("层 'layer1.0.conv2'（conv2d）：需要 32 个输入通道，实际为 64");
  await page.screenshot({ path: `${SCREENS}/layers-zh-dark-error.png`, fullPage: true });
  await page.getByRole('button', { name: '撤销全部修改' }).click();
  await page.locator('.net-unit-chart .recharts-bar-rectangle').first().waitFor();
  await page.screenshot({ path: `${SCREENS}/layers-zh-dark.png`, fullPage: true });
  clean(w);
});

test('English dark and Chinese light render without errors; unusable link values are named', async () => {
  const w = await openLayers('?view=layers&net.p=vit-b-16&net.b=abc', true);
  await w.page.locator('.net-unit-chart .recharts-bar-rectangle').first().waitFor();
  await w.page.getByRole('status').filter({ hasText: 'net.b=abc' }).waitFor();
  await w.page.screenshot({ path: `${SCREENS}/layers-en-dark.png`, fullPage: true });
  clean(w);
  const z = await openLayers('?view=layers&lang=zh&net.p=mobilenet-v2&net.m=inference');
  await z.page.locator('.net-unit-chart .recharts-bar-rectangle').first().waitFor();
  await z.page.screenshot({ path: `${SCREENS}/layers-zh-light.png`, fullPage: true });
  clean(z);
});

const QUICKSTART = quickstartRepr('(extra): ???');

test('import print(model), see what was not read, edit a layer; every control is labelled', async () => {
  const w = await openLayers('?view=layers&net.p=cnn');
  const { page } = w;
  await page.getByText('Import from PyTorch').click();
  await page.getByLabel('print(model) or torchinfo text').fill(QUICKSTART);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  // 784·512+512 + 512·512+512 + 512·10+10
  await expect.poll(() => text(page, 'net-params')).toBe('669,706');
  expect(await page.locator('.net-unparsed').textContent()).toContain('10: (extra): ???');
  await page.getByRole('button', { name: 'Show the layers of linear_relu_stack' }).click();
  await page.getByRole('button', { name: 'Edit linear_relu_stack.2' }).click();
  await page.getByRole('textbox', { name: 'out_features' }).fill('256');
  await page.locator('tr.net-err-row').waitFor();
  expect(await page.locator('tr.net-err-row').textContent()).toMatch(/linear_relu_stack\.4.*512.*256|256.*512/);
  await page.screenshot({ path: `${SCREENS}/layers-import-edit-en-light.png`, fullPage: true });
  const unlabelled = await page.$$eval('input, select, textarea', (els) =>
    els
      .filter((e) => {
        const el = e as HTMLInputElement;
        const byFor = el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
        return !byFor && !el.closest('label') && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby');
      })
      .map((e) => e.outerHTML.slice(0, 80)),
  );
  expect(unlabelled).toEqual([]);
  expect(new URL(await settled(page)).search).toContain('net.p=custom');
  clean(w);
});

test('the Layer builder is not in the first-load bundle', () => {
  const dist = inject('distDir');
  const assets = readdirSync(`${dist}/assets`).filter((f) => f.endsWith('.js'));
  const html = readFileSync(`${dist}/index.html`, 'utf8');
  const entry = assets.filter((f) => html.includes(f));
  expect(entry.length).toBeGreaterThan(0);
  for (const f of entry) expect(readFileSync(`${dist}/assets/${f}`, 'utf8')).not.toContain('Where the activation memory goes');
});
