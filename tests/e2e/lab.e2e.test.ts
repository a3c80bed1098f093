import { mkdirSync, readFileSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { browserPerFile, watchedPage } from './browser';

/** docs/reference/allocator.md §9 (ii), the 2.2+ message, verbatim. */
const OOM =
  'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 200.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 124.00 MiB is free. Including non-PyTorch memory, this process has 900.00 MiB memory in use. Of the allocated memory 500.00 MiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)';
const SCREENS = '.tmp/screens';

const chromium = browserPerFile();
beforeAll(() => {
  mkdirSync(SCREENS, { recursive: true });
});

const stat = (page: Page, key: string) => page.locator(`.lab-stats td[data-key="${key}"]`).textContent();

test('lab: run a preset, step, paste an OOM message; state in lab.* keys; no console errors, no outside requests', async () => {
  const base = chromium.base();
  const w = await watchedPage(chromium.browser(), base);
  const { page } = w;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}?view=lab&lab.panel=sim&lab.preset=classic`);
  await page.getByText('Step 16 of 16').waitFor();
  // docs/reference/allocator.md §9 (i) step C: reserved 104 MiB = 109,051,904 B, allocated 84 MiB = 88,080,384 B
  expect(await stat(page, 'reserved_bytes.all.current')).toBe('109,051,904 B');
  expect(await stat(page, 'allocated_bytes.all.current')).toBe('88,080,384 B');
  await page.locator('.lab-chart svg').first().waitFor();
  await page.screenshot({ path: `${SCREENS}/lab-sim-en-light.png`, fullPage: true });

  await page.getByRole('button', { name: 'Step back' }).click();
  await page.getByText('Step 15 of 16').waitFor();
  // step B: reserved 40 MiB, allocated 20 MiB
  expect(await stat(page, 'reserved_bytes.all.current')).toBe('41,943,040 B');
  expect(await stat(page, 'allocated_bytes.all.current')).toBe('20,971,520 B');
  await page.getByRole('slider', { name: 'Step through the trace' }).focus();
  await page.keyboard.press('ArrowRight');
  await page.getByText('Step 16 of 16').waitFor();
  await page.keyboard.press('ArrowLeft');
  await page.getByText('Step 15 of 16').waitFor();
  await expect.poll(() => new URL(page.url()).searchParams.get('lab.step')).toBe('14');
  expect(new URL(page.url()).searchParams.get('view')).toBe('lab');

  await page.getByRole('tab', { name: 'OOM decoder' }).click();
  await page.getByLabel('Paste the OOM error (or a whole log)').fill(OOM);
  await page.getByText(/^Fragmentation:/).waitFor();
  expect(await page.locator('.lab-advice li').first().textContent()).toContain('PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True');
  await expect.poll(() => new URL(page.url()).searchParams.get('lab.oom')).toBe(OOM);
  await page.screenshot({ path: `${SCREENS}/lab-oom-en-light.png`, fullPage: true });

  // a reload of the written link restores the panel and the message
  await page.reload();
  await page.getByText(/^Fragmentation:/).waitFor();

  // the calculator link carries the card's capacity as a custom GPU, which the calculator accepts
  await page.getByRole('link', { name: /Open the calculator/ }).click();
  await page.getByRole('tab', { name: 'Calculator' }).waitFor();
  await expect.poll(() => new URL(page.url()).searchParams.get('gpu')).toBe('1024.00mib');
  expect(await page.getByRole('tab', { name: 'Calculator' }).getAttribute('aria-selected')).toBe('true');
  expect(await page.locator('.notice').count()).toBe(0);

  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
  await page.context().close();
});

test('lab in Chinese, dark: the simulator and the decoder render translated', async () => {
  const base = chromium.base();
  const w = await watchedPage(chromium.browser(), base);
  const { page } = w;
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}?lang=zh&view=lab&lab.panel=sim&lab.preset=fragmentation-oom`);
  await page.getByText('第 16 步，共 16 步').waitFor();
  await page.getByText('共 1 步显存不足（第一次在第 18 行）。').waitFor();
  await page.locator('.lab-chart svg').first().waitFor();
  await page.screenshot({ path: `${SCREENS}/lab-sim-zh-dark.png`, fullPage: true });
  await page.getByRole('button', { name: '解读这条报错' }).click();
  await page.getByText(/^碎片：/).waitFor();
  await page.screenshot({ path: `${SCREENS}/lab-oom-zh-dark.png`, fullPage: true });
  await page.getByRole('tab', { name: 'memory_summary() 读取' }).click();
  await page.getByRole('button', { name: 'memory_summary() 表格' }).click();
  await page.getByText('碎片数值').waitFor();
  await page.screenshot({ path: `${SCREENS}/lab-summary-zh-dark.png`, fullPage: true });
  // switching the page language re-renders the lab in English and keeps its keys in the link
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByText('Fragmentation figures').waitFor();
  await expect.poll(() => new URL(page.url()).searchParams.get('lab.panel')).toBe('summary');
  expect(new URL(page.url()).searchParams.get('lab.preset')).toBe('fragmentation-oom');
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
  await page.context().close();
});

test("a pasted memory_stats() dict with the run's PYTORCH_CUDA_ALLOC_CONF: figures, diagnosis, fitted advice, en + zh, wide and narrow", async () => {
  const dict = readFileSync('tests/fixtures/memory-stats/retries-pprint.txt', 'utf8');
  const base = chromium.base();
  const w = await watchedPage(chromium.browser(), base);
  const { page } = w;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}?view=lab&lab.panel=summary`);
  await page.getByLabel(/Paste the output of print/).fill(dict);
  await page.getByText('torch.cuda.memory_stats(), printed as dict: 122 entries read.').waitFor();
  await page.getByText(/^cudaMalloc failed 37 times/).waitFor();
  // the dict's own max_split_size (128 MiB) stays in the export line
  expect(await page.locator('.lab-advice li pre').first().textContent()).toBe('export PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,expandable_segments:True');
  await page.getByLabel('Your PYTORCH_CUDA_ALLOC_CONF (optional)').fill('expandable_segments:True,max_split_size_mb:128');
  await page.getByText(/already has expandable_segments:True/).waitFor();
  expect(await page.locator('.lab-advice li').evaluateAll((li) => li.map((x) => x.getAttribute('data-advice')))).toEqual(['lower-peak', 'already-set']);
  await expect.poll(() => new URL(page.url()).searchParams.get('lab.runconf')).toBe('expandable_segments:True,max_split_size_mb:128');
  await page.screenshot({ path: `${SCREENS}/lab-stats-en-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENS}/lab-stats-en-390.png`, fullPage: true });
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByText(/^cudaMalloc 失败了 37 次/).waitFor();
  await page.screenshot({ path: `${SCREENS}/lab-stats-zh-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.screenshot({ path: `${SCREENS}/lab-stats-zh-1280.png`, fullPage: true });
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
  await page.context().close();
});

test('a real _dump_snapshot() pickle, picked as a file, is read in a worker and replays to the reserved peak PyTorch measured', async () => {
  const base = chromium.base();
  const w = await watchedPage(chromium.browser(), base);
  const { page } = w;
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`${base}?view=lab&lab.panel=sim`);
  await page.getByText('Import a real trace (snapshot pickle or memory history JSON)').click();
  const workers: string[] = [];
  page.on('worker', (wk) => workers.push(wk.url()));
  // tests/fixtures/torch-snapshot: four fine-tuning steps on an H200, torch 2.11; its memory_stats beside it
  const stats = JSON.parse(readFileSync('tests/fixtures/torch-snapshot/train-varied.default.stats.json', 'utf8')) as { memory_stats: Record<string, number> };
  await page.getByLabel('Snapshot file (.pickle, .pickle.gz or .json)').setInputFiles('tests/fixtures/torch-snapshot/train-varied.pickle.gz');
  const done = page.getByText(/^Imported device 0/);
  await done.waitFor();
  expect(workers.some((u) => u.includes('snapshot.worker'))).toBe(true);
  expect(await done.textContent()).toContain(`the real run made ${stats.memory_stats.num_device_alloc} segment allocations and 0 OOMs`);
  // the recorded run's own peak (memory_stats reserved_bytes.all.peak = 2,931,818,496 B), reproduced by the simulator
  await expect.poll(() => stat(page, 'reserved_bytes.all.peak')).toBe(`${stats.memory_stats['reserved_bytes.all.peak'].toLocaleString('en-US')} B`);
  await page.locator('.lab-import').screenshot({ path: `${SCREENS}/lab-snapshot-en-light.png` });
  // a file that is not a snapshot is refused by name, and the imported run stays
  await page.getByLabel('Snapshot file (.pickle, .pickle.gz or .json)').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await page.getByRole('alert').filter({ hasText: 'not a snapshot' }).waitFor();
  expect(w.consoleErrors).toEqual([]);
  expect(w.foreignRequests).toEqual([]);
  await page.context().close();
});
