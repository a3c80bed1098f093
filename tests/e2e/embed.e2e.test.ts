import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { browserPerFile } from './browser';
import { barHeights, expectClean, open } from './page';

// #12 §10: ?embed=1 is a widget, result first, with at most the inputs its link names.
const chromium = browserPerFile();
const base = chromium.base;

/** A parent page (same origin) holding the widget at `src`; it records the height messages. */
async function hostPage(page: Page, src: string, width: number): Promise<void> {
  const parent = `${base()}embed-parent.html`;
  await page.route(parent, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>p</title><body style="margin:0"><script>window.got=[];addEventListener('message',e=>got.push(e.data.height))</script><iframe src="${src}" width="${width}" height="1200" style="border:0"></iframe>`,
    }),
  );
  await page.goto(parent);
}

const lastHeight = (page: Page) => page.evaluate(() => (window as unknown as { got: number[] }).got.at(-1) ?? 0);
const bodyBg = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);

test('the default widget: verdict, totals and chart, no inputs, and a reported height that fits it (≤ 900 px)', async () => {
  const w = await open(chromium.browser(), base(), '?embed=1&gpu=rtx-4090');
  await w.page.setViewportSize({ width: 1000, height: 800 });
  expect((await barHeights(w.page)).length).toBeGreaterThan(0);
  expect(await w.page.getByTestId('verdict').count()).toBe(1);
  expect(await w.page.locator('input, select, textarea').count()).toBe(0);
  // the result comes first: the verdict is above the chart
  const verdictY = (await w.page.getByTestId('verdict').boundingBox())!.y;
  const chartY = (await w.page.locator('.chart-box').boundingBox())!.y;
  expect(verdictY).toBeLessThan(chartY);
  // the frame is 1,200 px tall; the widget reports its own height, not the frame's
  await hostPage(w.page, './?embed=1&gpu=rtx-4090', 1000);
  const frame = w.page.frameLocator('iframe');
  await frame.locator('.term-chart .term-seg').first().waitFor();
  await expect.poll(() => lastHeight(w.page)).toBeGreaterThan(300);
  await w.page.waitForTimeout(300);
  expect(await lastHeight(w.page)).toBeLessThanOrEqual(900);
  expectClean(w);
});

test('controls=batch,prompt shows exactly those inputs, and they drive the result; controls=gpu puts back the GPU choice', async () => {
  const w = await open(chromium.browser(), base(), '?embed=1&gpu=rtx-4090&controls=batch,prompt');
  const sliders = await w.page.getByRole('slider').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
  expect(sliders).toEqual(['Batch size (slider)', 'Prompt tokens (slider)']);
  expect(await w.page.locator('select').count()).toBe(0);
  const before = await w.page.getByTestId('device-total').first().textContent();
  await w.page.getByRole('textbox', { name: 'Batch size', exact: true }).fill('64');
  await expect.poll(() => w.page.getByTestId('device-total').first().textContent()).not.toBe(before);
  const g = await open(chromium.browser(), base(), '?embed=1&gpu=rtx-4090&controls=gpu');
  expect(await g.page.locator('select').count()).toBe(1);
  expect(await g.page.getByRole('slider').count()).toBe(0);
  expectClean(w);
  expectClean(g);
});

test('theme=dark and theme=light override the system scheme; auto follows it', async () => {
  const dark = 'rgb(18, 20, 24)';
  const light = 'rgb(247, 247, 249)';
  const a = await open(chromium.browser(), base(), '?embed=1&theme=dark');
  expect(await bodyBg(a.page)).toBe(dark);
  const b = await open(chromium.browser(), base(), '?embed=1&theme=light', true);
  expect(await bodyBg(b.page)).toBe(light);
  const c = await open(chromium.browser(), base(), '?embed=1&theme=auto', true);
  expect(await bodyBg(c.page)).toBe(dark);
  const d = await open(chromium.browser(), base(), '?embed=1');
  expect(await bodyBg(d.page)).toBe(light);
  for (const x of [a, b, c, d]) expectClean(x);
});

test('the snippet in "Share and embed" is exactly this widget, with the inputs its author lists', async () => {
  const w = await open(chromium.browser(), base(), '?gpu=rtx-4090&batch=4');
  const snippet = w.page.getByRole('textbox', { name: 'Embed on your page' });
  const controls = w.page.getByRole('textbox', { name: 'Inputs the widget shows' });
  expect(await controls.inputValue()).toBe('batch,prompt');
  await controls.fill('gen');
  const html = await snippet.inputValue();
  const src = /src="([^"]+)"/.exec(html)![1];
  const height = Number(/height="(\d+)"/.exec(html)![1]);
  expect(src).toMatch(/[?&]embed=1(&|$)/);
  expect(src).toMatch(/[?&]batch=4(&|$)/);
  expect(src).toMatch(/[?&]controls=gen(&|$)/);
  expect(height).toBeLessThanOrEqual(900);
  const e = await open(chromium.browser(), src);
  expect(await e.page.getByRole('slider').evaluateAll((els) => els.map((x) => x.getAttribute('aria-label')))).toEqual(['Generated tokens (slider)']);
  expect(await e.page.getByRole('textbox', { name: 'Batch size', exact: true }).count()).toBe(0);
  expectClean(w);
  expectClean(e);
});
