import { expect, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';
import { expectClean, open } from './page';

// #12 §8 (trust signals agree) and §9 (Chinese as a first language) in the production build.
const chromium = browserPerFile();
const base = chromium.base;

test('the Accuracy view labels the development set, shows signed error, and quotes the independent check with its date and commit', async () => {
  const w = { ...(await watchedPage(chromium.browser(), base())), dialogs: [] };
  await w.page.goto(base() + '?view=accuracy');
  await w.page.getByTestId('acc-independent').waitFor();
  const heads = await w.page.locator('table').first().locator('thead th').allTextContents();
  expect(heads.join('|')).toContain('Bias (median signed)');
  expect(await w.page.locator('main').textContent()).toMatch(/development set/i);
  // the independent check of 2026-11-25 on commit 759022c: 319 rows from 12 publishers (src/validation/independent-check.ts)
  const help = (await w.page.locator('#acc-ind-h + p').textContent()) ?? '';
  for (const fact of ['319', '12', '2026-11-25', '759022c']) expect(help).toContain(fact);
  expect(await w.page.locator('main').textContent()).not.toContain('± 0.4 %');
  expectClean(w);
});

test("the primer says in one sentence why its int8 row and the calculator's bnb-int8 differ", async () => {
  const w = await open(chromium.browser(), base());
  await w.page.getByText('New to this? Parameters and precision in two minutes').click();
  await expect.poll(async () => w.page.locator('details[open]').filter({ hasText: 'New to this?' }).textContent()).toContain('bitsandbytes LLM.int8, which keeps the embeddings and LM head in 16-bit');
  expectClean(w);
});

test("in Chinese, a term's formula speaks Chinese: the replay's worded values are translated, not left in English", async () => {
  const w = await open(chromium.browser(), base(), '?lang=zh&mode=training&model=meta-llama/Llama-3.2-1B&seq=2048&batch=4');
  await w.page.getByRole('heading', { level: 1, name: 'GPU 显存计算器' }).waitFor();
  // the breakdown's term names open their formulas; the allocator's reserve comes from the replay once it settles
  const reserve = w.page.getByRole('button', { name: '分配器余量', exact: true });
  await reserve.first().click();
  const panel = w.page.locator('section.derivation');
  await expect.poll(async () => (await panel.locator('dd').allTextContents()).join('|'), { timeout: 15_000 }).toContain('两步经缓存分配器模型回放');
  const dds = await panel.locator('dd').allTextContents();
  // no value reads as an English phrase (two words of letters in a row)
  expect(dds.filter((v) => /[a-z]{3,} [a-z]{3,}/i.test(v))).toEqual([]);
  expectClean(w);
});
