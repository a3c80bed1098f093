/**
 * Predicted against recorded in the production build: the real H200 snapshot
 * (tests/fixtures/torch-snapshot/train-varied.pickle.gz, tools/measure/record_snapshot.py) imported
 * in the lab, the calculator's scenario for that run set through the link, and the overlay with its
 * peak table showing PyTorch's recorded reserved peak (train-varied.default.stats.json max_reserved).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';

const SCREENS = '.tmp/screens';
const chromium = browserPerFile();
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
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('checkbox', { name: '与计算器的预测对照' }).waitFor();
  await page.getByText('预留峰值：预测').waitFor();
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.locator('.lab-overlay').screenshot({ path: `${SCREENS}/lab-overlay-zh-390.png` });
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
