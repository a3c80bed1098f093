import { expect, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';
import { expectClean, open, settledQuery } from './page';

// #12 §4–§6 in the production build: recipes, constrained controls, scenarios side by side.
const chromium = browserPerFile();
const base = chromium.base;
const GiB = 2 ** 30;

test('two scenarios side by side: the chips name bf16 and AWQ int4, each with its own total and verdict on the 4090', async () => {
  const w = await open(chromium.browser(), base(), '?gpu=rtx-4090');
  await w.page.getByRole('button', { name: 'Add scenario' }).click();
  await w.page.getByLabel('Weight format').selectOption('awq-int4');
  const chips = w.page.getByRole('group', { name: 'Scenarios side by side' }).locator('button[aria-pressed]');
  await expect.poll(async () => (await chips.allTextContents()).join('|')).toContain('AWQ int4');
  const [a, b] = await chips.allTextContents();
  const re = /^([AB]): meta-llama\/Llama-3\.1-8B · Inference · (bf16|AWQ int4) · ([\d.]+) GiB · ✓ fits$/;
  const ma = re.exec(a);
  const mb = re.exec(b);
  expect(ma, a).not.toBeNull();
  expect(mb, b).not.toBeNull();
  expect([ma![2], mb![2]]).toEqual(['bf16', 'AWQ int4']);
  // Llama-3.1-8B's 8,030,261,248 parameters in bf16 are 14.96 GiB of weights alone; 4-bit weights are a quarter of that plus the 16-bit embedding and head
  expect(Number(ma![3])).toBeGreaterThan((8_030_261_248 * 2) / GiB);
  expect(Number(mb![3])).toBeLessThan(Number(ma![3]) / 2);
  expectClean(w);
});

test('picking QLoRA in the form applies the recipe people run (QLoRA paper, PEFT), and Llama-3.1-8B then fits the 4090', async () => {
  const w = await open(chromium.browser(), base(), '?gpu=rtx-4090');
  await w.page.getByRole('tab', { name: 'Training' }).click();
  await w.page.getByLabel('Method').selectOption('qlora');
  await expect.poll(async () => w.page.getByTestId('verdict-big').textContent()).toBe('✓ Fits on GeForce RTX 4090');
  const q = await settledQuery(w.page);
  for (const kv of ['method=qlora', 'weights=nf4', 'grad-ckpt=full', 'optimizer=paged-adamw-8bit', 'bnb-compute=bf16']) expect(q).toContain(kv);
  expectClean(w);
});

test('tensor parallel brings its GPU count; a count that cannot be split says so in words, by the form and by a link alike', async () => {
  const w = await open(chromium.browser(), base(), '?gpu=rtx-4090');
  const box = (name: string) => w.page.getByRole('textbox', { name, exact: true });
  await w.page.getByText('GPUs and parallelism', { exact: true }).click();
  await box('Tensor parallel').fill('2');
  await box('Tensor parallel').press('Tab');
  await expect.poll(async () => box('GPUs in total').inputValue()).toBe('2');
  await box('Pipeline parallel').fill('3');
  await box('Pipeline parallel').press('Tab');
  // world size = data parallel × tp × pp (Megatron-LM, DeepSpeed): 2 × 3 = 6
  await expect.poll(async () => box('GPUs in total').inputValue()).toBe('6');
  await box('GPUs in total').fill('8');
  await box('GPUs in total').press('Tab');
  const said = '8 GPUs cannot be split into groups of tensor parallel 2 × pipeline parallel 3 = 6';
  await expect.poll(async () => w.page.getByTestId('verdict').textContent()).toContain(said);
  expect(await w.page.locator('main').textContent()).not.toMatch(/does not fit|Short by/);
  // the page's own link of this state, opened in a fresh page, says the same (the link keeps the typed numbers)
  const q = await settledQuery(w.page);
  expect(q).toMatch(/gpus=8/);
  const again = await watchedPage(chromium.browser(), base());
  await again.page.goto(base() + q);
  await expect.poll(async () => again.page.getByTestId('verdict').textContent()).toContain(said);
  expect(await again.page.locator('main').textContent()).not.toMatch(/does not fit|Short by|ignored/);
  expect(again.consoleErrors).toEqual([]);
  expectClean(w);
});

test('"How to make it fit" offers more GPUs only when no single-GPU change reaches the card (#12 §7)', async () => {
  const fixes = async (q: string) => {
    const w = await open(chromium.browser(), base(), q);
    const list = w.page.getByRole('heading', { name: 'How to make it fit' }).locator('xpath=ancestor::section[1]').locator('ol.fixes li');
    await list.first().waitFor();
    const items = await list.allTextContents();
    expectClean(w);
    return items;
  };
  // Llama-3.1-8B full fine-tuning on a 4090: LoRA, QLoRA, checkpointing … fit on the one card
  const eight = await fixes('?mode=training&gpu=rtx-4090');
  expect(eight.some((t) => t.includes('✓'))).toBe(true);
  expect(eight.filter((t) => /GPUs/.test(t))).toEqual([]);
  // Llama-3.1-70B QLoRA: its nf4 weights alone, 70.55e9 × 0.5 B = 32.9 GiB, exceed the 24 GiB card, so a split is offered
  const seventy = await fixes('?model=meta-llama/Llama-3.1-70B&mode=training&method=qlora&weights=nf4&gpu=rtx-4090');
  expect(seventy.some((t) => /over \d+ GPUs|across \d+ GPUs/.test(t))).toBe(true);
});
