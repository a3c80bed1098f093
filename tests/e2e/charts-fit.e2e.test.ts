import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { browserPerFile } from './browser';
import { deviceTotal, expectClean, open } from './page';

const chromium = browserPerFile();
const base = chromium.base;

/** WCAG 2 contrast ratio of two computed CSS colours ('rgb(r, g, b)'). */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r, g, bl] = (c.match(/[\d.]+/g) ?? []).slice(0, 3).map((v) => {
      const x = Number(v) / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

async function sweepPanel(page: Page, lang: 'en' | 'zh' = 'en') {
  const sec = page.locator('section.panel', { hasText: lang === 'zh' ? '显存随规模的变化' : 'Memory as it grows' });
  // the sweep chart (recharts, a lazy chunk) loads only once it comes near the viewport
  await sec.scrollIntoViewIfNeeded();
  await sec.locator(SWEEP_TICKS).first().waitFor();
  return sec;
}

const SWEEP_TICKS = '.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value';
const tickValues = (page: Page, selector: string) => page.$$eval(selector, (els) => els.map((e) => Number((e.textContent ?? '').replace(/,/g, ''))));

test('"Memory as it grows" stops near the 24 GiB card, marks what runs past it, with round ticks', async () => {
  // QLoRA of Llama-3.1-8B on an RTX 4090: at batch 512 the total is hundreds of GiB
  const w = await open(chromium.browser(), base(), '?v=1&mode=training&method=qlora&weights=nf4&gpu=rtx-4090');
  const sec = await sweepPanel(w.page);
  const ticks = await tickValues(w.page, `section.panel:has-text("Memory as it grows") ${SWEEP_TICKS}`);
  // 24564 MiB = 23.99 GiB; 1.5 x 23.99 = 35.98 -> step 10 -> axis 0..40
  expect(ticks).toEqual([0, 10, 20, 30, 40]);
  expect(await sec.getByTestId('sweep-clipped').textContent()).toMatch(/^The axis stops at 40 GiB/);
  expect(await sec.locator('.clipped-mark').count()).toBeGreaterThan(0);
  // the term chart's ticks are round too: every gap the same step of 1, 2, 2.5 or 5 x 10^k
  const bar = await tickValues(w.page, '.term-chart .term-axis .tick');
  const step = bar[1] - bar[0];
  expect(bar.every((v, i) => Math.abs(v - i * step) < 1e-9)).toBe(true);
  const k = step / 10 ** Math.floor(Math.log10(step));
  expect([1, 2, 2.5, 5].some((m) => Math.abs(k - m) < 1e-9)).toBe(true);
  // the charts are one labelled image each: no keyboard stop inside them
  expect(await w.page.$$eval('.chart-box [tabindex]:not([tabindex="-1"])', (els) => els.length)).toBe(0);
  expectClean(w);
});

test('the term chart draws without recharts, and its accessible name gives every segment: Llama-2-7B fp16 weights and KV cache by hand', async () => {
  const w = await open(chromium.browser(), base(), '?v=1&model=meta-llama/Llama-2-7b-hf&weights=fp16&prompt=2048&gen=256&gpu=rtx-4090');
  const chart = w.page.getByRole('img', { name: /^Memory by term — A: / });
  await chart.waitFor();
  // the first screen fetched no chart library: recharts comes with the sweep chart, further down
  expect(await w.page.evaluate(() => performance.getEntriesByType('resource').filter((e) => /CartesianChart|sweep-chart/.test(e.name)).length)).toBe(0);
  const name = (await chart.getAttribute('aria-label')) ?? '';
  const value = (term: string) => Number(new RegExp(`${term} ([\\d.,]+) GiB`).exec(name)?.[1].replace(/,/g, ''));
  // 6,738,415,616 parameters x 2 B (fp16) = 13,476,831,232 B = 12.55 GiB, written 12.6 (one decimal from 10 on)
  expect(value('Weights')).toBe(12.6);
  // K and V: 32 layers x 2 x 32 heads x 128 x 2 B x (2048 + 256) tokens = 1,207,959,552 B = 1.125 GiB
  expect(value('KV cache')).toBe(1.13);
  // the capacity line is the card's 24564 MiB = 23.99 GiB, written 24
  expect(name).toMatch(/ — GeForce RTX 4090 holds 24 GiB$/);
  // the stack adds up its segments; it is at least the device total (terms of prefill and decode
  // are stacked though they peak at different times, and the device total counts the larger)
  const parts = /A: (.*) \(stacked/
    .exec(name)![1]
    .split(', ')
    .map((p) => Number(/([\d.,]+) GiB$/.exec(p)![1].replace(/,/g, '')));
  const stacked = Number(/\(stacked: ([\d.,]+) GiB\)/.exec(name)![1]);
  expect(Math.abs(parts.reduce((a, b) => a + b, 0) - stacked)).toBeLessThan(0.01 * parts.length + 0.05);
  expect(stacked).toBeGreaterThanOrEqual(Number((await deviceTotal(w.page)).replace(' GiB', '')));
  // every segment named is drawn, its height in proportion to its value
  const heights = await w.page.$$eval('.term-chart .term-seg', (els) => els.map((e) => e.getBoundingClientRect().height));
  expect(heights.length).toBe(parts.length);
  const pxPerGiB = heights[0] / parts[0];
  for (let i = 0; i < parts.length; i++) expect(Math.abs(heights[i] - parts[i] * pxPerGiB)).toBeLessThan(1 + 0.01 * pxPerGiB);
  // in Chinese the name speaks Chinese
  const zh = await open(chromium.browser(), base(), '?v=1&model=meta-llama/Llama-2-7b-hf&weights=fp16&gpu=rtx-4090&lang=zh');
  expect(await zh.page.getByTestId('term-chart').getAttribute('aria-label')).toMatch(/^各项显存占用 — A：权重 12\.6 GiB，KV 缓存 1\.13 GiB，.*（叠加共 [\d.]+ GiB） — GeForce RTX 4090 容量 24 GiB$/);
  expectClean(w);
  expectClean(zh);
});

for (const dark of [false, true]) {
  test(`legend text and tooltips read at 4.5:1 or better (${dark ? 'dark' : 'light'})`, async () => {
    const w = await open(chromium.browser(), base(), '?v=1&mode=training&method=qlora&weights=nf4&gpu=rtx-4090', dark);
    const sec = await sweepPanel(w.page);
    const bg = await sec.evaluate((e) => getComputedStyle(e).backgroundColor);
    const legend = await w.page.$$eval('.chart-legend li', (els) => els.map((e) => getComputedStyle(e).color));
    expect(legend.length).toBeGreaterThan(10);
    for (const c of legend) expect(contrast(c, bg)).toBeGreaterThanOrEqual(4.5);
    // the term chart's axis labels (12 px text) read at 4.5:1 too
    const axis = await w.page.$$eval('.term-chart .tick', (els) => els.map((e) => getComputedStyle(e).fill));
    for (const c of axis) expect(contrast(c, bg)).toBeGreaterThanOrEqual(4.5);
    // hover the sweep chart: the tooltip's rows read against its own background
    const chart = sec.locator('.chart-box');
    const box = (await chart.boundingBox())!;
    await w.page.mouse.move(box.x + 5, box.y + 5);
    await w.page.mouse.move(box.x + box.width / 2, box.y + box.height * 0.6, { steps: 5 });
    const tip = chart.locator('.recharts-default-tooltip');
    await tip.waitFor();
    const tipBg = await tip.evaluate((e) => getComputedStyle(e).backgroundColor);
    const rows = await tip.locator('.recharts-tooltip-item, .recharts-tooltip-label').evaluateAll((els) => els.map((e) => getComputedStyle(e).color));
    expect(rows.length).toBeGreaterThan(1);
    for (const c of rows) expect(contrast(c, tipBg)).toBeGreaterThanOrEqual(4.5);
    expectClean(w);
  });
}

test('on a phone the sweep legend wraps under the plot, never over it (en and zh)', async () => {
  for (const lang of ['en', 'zh'] as const) {
    const w = await open(chromium.browser(), base(), `?v=1&mode=training&method=qlora&weights=nf4&gpu=rtx-4090&lang=${lang}`);
    await w.page.setViewportSize({ width: 390, height: 900 });
    const sec = await sweepPanel(w.page, lang);
    const plot = (await sec.locator('.recharts-surface').first().boundingBox())!;
    const items = await sec.locator('.chart-legend li').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().top));
    // seven terms at 390 px take more than one line, all of them below the plot's bottom edge
    expect(items.length).toBeGreaterThanOrEqual(5);
    expect(new Set(items.map(Math.round)).size).toBeGreaterThan(1);
    for (const top of items) expect(top).toBeGreaterThanOrEqual(plot.y + plot.height);
    expectClean(w);
  }
});
