import { mkdirSync } from 'node:fs';
import { expect, test } from 'vitest';
import { browserPerFile, watchedPage, type Watched } from './browser';
import fixture from '../../src/validation/fixtures/measured-dev.json';
import gpuRuns from '../../src/validation/fixtures/measured-gpu.json';

const SCREENS = '.tmp/screens';
const chromium = browserPerFile();
const base = chromium.base;
mkdirSync(SCREENS, { recursive: true });

async function open(query: string, dark = false): Promise<Watched> {
  const w = await watchedPage(chromium.browser(), base());
  await w.page.setViewportSize({ width: 1400, height: 1000 });
  if (dark) await w.page.emulateMedia({ colorScheme: 'dark' });
  await w.page.goto(base() + query);
  await w.page.locator('[data-testid="acc-rows"] tbody tr').first().waitFor();
  await w.page.locator('.acc-chart .recharts-scatter-symbol').first().waitFor();
  return w;
}
const clean = (w: Watched) => {
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
};
const ids = (w: Watched, testId: string) => w.page.$$eval(`[data-testid="${testId}"] tbody tr`, (trs) => trs.map((tr) => tr.getAttribute('data-row')));

test('?view=accuracy lists every published row, scored or skipped, and the source filter narrows table and chart', async () => {
  const w = await open('?view=accuracy');
  const { page } = w;
  expect(await page.getByRole('tab', { name: 'Accuracy' }).getAttribute('aria-selected')).toBe('true');
  const scored = await ids(w, 'acc-rows');
  const skipped = await ids(w, 'acc-skipped');
  expect([...scored, ...skipped].sort()).toEqual(fixture.map((r) => r.id).sort());
  const dots = await page.locator('.acc-chart .recharts-scatter-symbol').count();
  expect(dots).toBe(scored.length);
  await page.screenshot({ path: `${SCREENS}/accuracy-en-light.png`, fullPage: true });

  await page.getByLabel('Source', { exact: true }).selectOption('HF optimize-llm guide');
  const guide = fixture.filter((r) => r.source.includes('llm_tutorial_optimization')).map((r) => r.id);
  const shown = await ids(w, 'acc-rows');
  expect(shown.length).toBeGreaterThan(0);
  for (const id of shown) expect(guide).toContain(id);
  await expect.poll(() => page.locator('.acc-chart .recharts-scatter-symbol').count()).toBe(shown.length);
  expect(await page.getByTestId('acc-shown').textContent()).toMatch(new RegExp(`^${shown.length} of ${scored.length} measured rows shown`));
  clean(w);
});

test('our own GPU runs: every run with both measured totals, t000 as measured (9.64 GiB allocated, 10.31 GiB reserved)', async () => {
  const w = await open('?view=accuracy');
  const rows = w.page.locator('[data-testid="acc-gpu-runs"] tbody tr');
  expect(await rows.count()).toBe(gpuRuns.rows.length);
  const t000 = gpuRuns.rows.find((r) => r.id === 't000')!;
  expect((t000.measured.allocated / 2 ** 30).toFixed(2)).toBe('9.64');
  const text = await rows.filter({ hasText: 't000' }).first().textContent();
  expect(text).toContain('9.64 GiB');
  expect(text).toContain('10.31 GiB');
  clean(w);
});

test('Chinese and dark render without console errors; English dark and Chinese light too', async () => {
  for (const [lang, dark] of [
    ['zh', true],
    ['en', true],
    ['zh', false],
  ] as const) {
    const w = await open(`?view=accuracy&lang=${lang}`, dark);
    if (lang === 'zh') expect(await w.page.getByRole('heading', { name: '按场景类型的误差' }).count()).toBe(1);
    await w.page.screenshot({ path: `${SCREENS}/accuracy-${lang}-${dark ? 'dark' : 'light'}.png`, fullPage: true });
    clean(w);
  }
});

test('the calculator shows the error band next to its totals and links to the Accuracy view', async () => {
  const w = await watchedPage(chromium.browser(), base());
  await w.page.setViewportSize({ width: 1400, height: 1000 });
  await w.page.goto(base() + '?model=Qwen/Qwen2.5-7B&weights=bf16');
  const band = w.page.getByTestId('error-band');
  await band.waitFor();
  // each total carries its own 80 % band; the allocated one sits with the allocated total
  const allocated = w.page.getByTestId('band-allocated');
  await allocated.waitFor();
  expect(await allocated.locator('xpath=..').locator('.k').textContent()).toBe('In live tensors');
  expect(await allocated.textContent()).toMatch(/^\(80 %: [\d.]+–[\d.]+\)$/);
  expect(await w.page.getByTestId('band-device').textContent()).toMatch(/^\(80 %: [\d.]+–[\d.]+\)$/);
  // the line under the totals says what the bands rest on (the old "± x % typical" line quoted the tuned-to rows)
  expect(await band.textContent()).toMatch(/^80 % bands: from the measured error of this kind of scenario, -[\d.]+ to \+[\d.]+ %\./);
  expect(await band.getAttribute('title')).toContain('inference · HF transformers · 16/32-bit weights');
  await w.page.locator('.headline').screenshot({ path: `${SCREENS}/accuracy-band-en-light.png` });
  await band.getByRole('link', { name: 'Accuracy' }).click();
  await w.page.locator('[data-testid="acc-rows"]').waitFor();
  await expect.poll(() => w.page.url()).toContain('view=accuracy');
  clean(w);
});
