/**
 * Predicted against recorded in the production build: the real H200 snapshot
 * (tests/fixtures/torch-snapshot/train-varied.pickle.gz, tools/measure/record_snapshot.py) imported
 * in the lab, the calculator's scenario for that run set through the link, and the overlay with its
 * peak table showing PyTorch's recorded reserved peak (train-varied.default.stats.json max_reserved).
 * The prediction runs in a Web Worker (overlay.worker.ts): an 8B LoRA with varied lengths, half a
 * second of work, never holds the page's thread.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, expect, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';
import { MAX_TASK_MS, watchMainThread } from './main-thread';

const SCREENS = '.tmp/screens';
const chromium = browserPerFile();
/** Two animation frames: the page has laid out and painted at its new size before a screenshot. */
const painted = (page: Page) => page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
beforeAll(() => {
  mkdirSync(SCREENS, { recursive: true });
});

// record_snapshot.py: 2-block Llama (hidden 1024, ffn 2816, 16 / 4 heads, vocab 32000), pure bf16, AdamW, batch 2, longest step 2048
const SCENARIO = 'model=custom&hidden=1024&layers=2&heads=16&kv-heads=4&ffn=2816&vocab=32000&mode=training&method=full&weights=bf16&precision=bf16&batch=2&seq=2048';

test('a real snapshot against the calculator’s prediction: overlay, peak table with PyTorch’s reserved peak, en and zh', async () => {
  const stats = JSON.parse(readFileSync('tests/fixtures/torch-snapshot/train-varied.default.stats.json', 'utf8')) as { max_reserved: number };
  expect(stats.max_reserved).toBe(2_931_818_496);
  const base = chromium.base();
  const w = await watchedPage(chromium.browser(), base);
  const { page } = w;
  await page.setViewportSize({ width: 1280, height: 900 });
  const workers: string[] = [];
  page.on('worker', (wk) => workers.push(wk.url()));
  await page.goto(`${base}?view=lab&lab.panel=sim&${SCENARIO}`);
  await page.getByText('Import a real trace (snapshot pickle or memory history JSON)').click();
  await page.getByLabel('Snapshot file (.pickle, .pickle.gz or .json)').setInputFiles('tests/fixtures/torch-snapshot/train-varied.pickle.gz');
  await page.getByText(/^Imported device 0/).waitFor();
  const toggle = page.getByRole('checkbox', { name: 'Compare with the calculator’s prediction' });
  await toggle.waitFor();
  // the scenario in words, tied to the control for screen readers
  await page.getByText('The calculator’s scenario: custom model (2 layers, hidden 1024), Training, Full fine-tune, batch 2 × 2048 tokens, fixed lengths.').waitFor();
  expect(await toggle.isChecked()).toBe(false);
  await toggle.focus();
  await page.keyboard.press('Space');
  expect(await toggle.isChecked()).toBe(true);
  const table = page.getByTestId('lab-overlay-peaks');
  await table.waitFor();
  expect(workers.some((u) => u.includes('overlay.worker'))).toBe(true);
  const recordedReserved = table.locator('tr[data-row="recorded"] td[data-col="reserved"]');
  expect(await recordedReserved.textContent()).toContain(`${stats.max_reserved.toLocaleString('en-US')} B`);
  // a signed error, and the prediction within 5 % of PyTorch's peak (tests/core/timeline/versus-recorded.test.ts)
  const error = (await table.locator('tr[data-row="error"] td[data-col="reserved"]').textContent()) ?? '';
  expect(error).toMatch(/^[+−]\d+(\.\d)? %$/);
  expect(Math.abs(Number(error.replace('−', '-').replace(' %', '')))).toBeLessThan(5);
  // four series on the chart: the recorded pair solid, the predicted pair dashed
  const chart = page.getByTestId('lab-overlay-chart');
  expect(await chart.locator('path[stroke-dasharray]').count()).toBe(2);
  expect(await chart.locator('path').count()).toBe(4);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-en-1280.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await painted(page);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // the peak tables fit a phone as they are (stacked): nothing reaches past the panel, nothing scrolls sideways
  const overflow = () =>
    table.evaluate((el) => {
      const panel = el.closest('.lab-overlay')!.getBoundingClientRect();
      return Math.max(el.scrollWidth - el.clientWidth, ...[...el.querySelectorAll('table')].map((t) => t.getBoundingClientRect().right - panel.right));
    });
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-en-390.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await painted(page);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-en-390-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('checkbox', { name: '与计算器的预测对照' }).waitFor();
  await page.getByText('预留峰值：预测').waitFor();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await overflow()).toBeLessThanOrEqual(0);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-zh-390.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await painted(page);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-zh-390-dark.png` });
  await page.setViewportSize({ width: 1280, height: 900 });
  await painted(page);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-zh-1280-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await painted(page);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-zh-1280.png` });
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
  await page.context().close();
});

test('a scenario the calculator cannot estimate says why next to the control', async () => {
  const base = chromium.base();
  const w = await watchedPage(chromium.browser(), base);
  const { page } = w;
  await page.goto(`${base}?view=lab&lab.panel=sim&engine=llama.cpp&weights=gguf-q4_k_m`);
  await page.getByText('Import a real trace (snapshot pickle or memory history JSON)').click();
  await page.getByLabel('Snapshot file (.pickle, .pickle.gz or .json)').setInputFiles('tests/fixtures/torch-snapshot/train-varied.pickle.gz');
  await page.getByRole('checkbox', { name: 'Compare with the calculator’s prediction' }).check();
  await page.getByRole('alert').filter({ hasText: 'llama.cpp does not allocate through PyTorch’s caching allocator' }).waitFor();
  expect(await page.getByTestId('lab-overlay-chart').count()).toBe(0);
  expect(w.consoleErrors).toEqual([]);
  await page.context().close();
});

test('an 8B LoRA with varied lengths is predicted off the page’s thread: a pending line, then its peaks, with no long task', async () => {
  const base = chromium.base();
  const w = await watchedPage(chromium.browser(), base);
  const { page } = w;
  await page.setViewportSize({ width: 1280, height: 900 });
  const mainThread = await watchMainThread(page);
  await page.goto(`${base}?view=lab&lab.panel=sim&model=meta-llama/Llama-3.1-8B&mode=training&method=lora&lengths=varied`);
  await page.getByText('Import a real trace (snapshot pickle or memory history JSON)').click();
  await page.getByLabel('Snapshot file (.pickle, .pickle.gz or .json)').setInputFiles('tests/fixtures/torch-snapshot/train-varied.pickle.gz');
  await page.getByText(/^Imported device 0/).waitFor();
  const toggle = page.getByRole('checkbox', { name: 'Compare with the calculator’s prediction' });
  await toggle.waitFor();
  await mainThread.start();
  // whether the pending line was ever drawn (it may come and go between two polls)
  await page.evaluate(() => {
    const seen = { pending: false };
    (window as unknown as { seen: typeof seen }).seen = seen;
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="lab-overlay-pending"]')) seen.pending = true;
    }).observe(document.body, { childList: true, subtree: true });
  });
  await toggle.check();
  const table = page.getByTestId('lab-overlay-peaks');
  await table.waitFor();
  const probe = await mainThread.read();
  console.log(`long tasks (ms): ${probe.tasks.map((d) => d.toFixed(0)).join(', ') || 'none'}; longest frame gap ${probe.gap.toFixed(0)} ms`);
  expect(Math.max(0, ...probe.tasks)).toBeLessThanOrEqual(MAX_TASK_MS);
  expect(await page.evaluate(() => (window as unknown as { seen: { pending: boolean } }).seen.pending)).toBe(true);
  expect(await page.getByTestId('lab-overlay-pending').count()).toBe(0);
  // Llama-3.1-8B holds 8.03e9 parameters (its model card): 16.06 GB of bf16 weights before anything else
  const predicted = (await table.locator('tr[data-row="predicted"] td[data-col="reserved"] .muted').textContent()) ?? '';
  expect(Number(predicted.replace(/\D/g, ''))).toBeGreaterThan(2 * 8.03e9);
  expect(await table.locator('tr[data-row="error"] td[data-col="reserved"]').textContent()).toMatch(/^\+[\d,]+(\.\d)? %$/);
  expect(w.consoleErrors).toEqual([]);
  await page.context().close();
});
