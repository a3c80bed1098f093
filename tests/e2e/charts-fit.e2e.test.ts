import { expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { browserPerFile } from './browser';
import { expectClean, open } from './page';

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

async function sweepPanel(page: Page) {
  const sec = page.locator('section.panel', { hasText: 'Memory as it grows' });
  await sec.scrollIntoViewIfNeeded();
  await sec.locator('.recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value').first().waitFor();
  return sec;
}

const tickValues = (page: Page, scope: string) =>
  page.$$eval(`${scope} .recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value`, (els) => els.map((e) => Number((e.textContent ?? '').replace(/,/g, ''))));

test('"Memory as it grows" stops near the 24 GiB card, marks what runs past it, with round ticks', async () => {
  // QLoRA of Llama-3.1-8B on an RTX 4090: at batch 512 the total is hundreds of GiB
  const w = await open(chromium.browser(), base(), '?v=1&mode=training&method=qlora&weights=nf4&gpu=rtx-4090');
  const sec = await sweepPanel(w.page);
  const ticks = await tickValues(w.page, 'section.panel:has-text("Memory as it grows")');
  // 24564 MiB = 23.99 GiB; 1.5 x 23.99 = 35.98 -> step 10 -> axis 0..40
  expect(ticks).toEqual([0, 10, 20, 30, 40]);
  expect(await sec.getByTestId('sweep-clipped').textContent()).toMatch(/^The axis stops at 40 GiB/);
  expect(await sec.locator('.clipped-mark').count()).toBeGreaterThan(0);
  // the term chart's ticks are round too: every gap the same step of 1, 2, 2.5 or 5 x 10^k
  const bar = await tickValues(w.page, 'section.panel:has-text("Memory by term")');
  const step = bar[1] - bar[0];
  expect(bar.every((v, i) => Math.abs(v - i * step) < 1e-9)).toBe(true);
  const k = step / 10 ** Math.floor(Math.log10(step));
  expect([1, 2, 2.5, 5].some((m) => Math.abs(k - m) < 1e-9)).toBe(true);
  // the charts are one labelled image each: no keyboard stop inside them
  expect(await w.page.$$eval('.chart-box [tabindex]:not([tabindex="-1"])', (els) => els.length)).toBe(0);
  expectClean(w);
});

for (const dark of [false, true]) {
  test(`legend text and tooltips read at 4.5:1 or better (${dark ? 'dark' : 'light'})`, async () => {
    const w = await open(chromium.browser(), base(), '?v=1&mode=training&method=qlora&weights=nf4&gpu=rtx-4090', dark);
    const sec = await sweepPanel(w.page);
    const bg = await sec.evaluate((e) => getComputedStyle(e).backgroundColor);
    const legend = await w.page.$$eval('.chart-box .recharts-legend-item-text span', (els) => els.map((e) => getComputedStyle(e).color));
    expect(legend.length).toBeGreaterThan(5);
    for (const c of legend) expect(contrast(c, bg)).toBeGreaterThanOrEqual(4.5);
    // hover the term chart's bar: the tooltip's rows read against its own background
    const chart = w.page.locator('section.panel', { hasText: 'Memory by term' }).locator('.chart-box');
    await chart.scrollIntoViewIfNeeded();
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
