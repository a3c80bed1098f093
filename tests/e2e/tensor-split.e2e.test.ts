import { expect, test } from 'vitest';
import { browserPerFile } from './browser';
import { expectClean, open, settledQuery } from './page';

const chromium = browserPerFile();
const LLAMA = '?model=meta-llama/Llama-2-7b-hf&engine=llama.cpp&weights=gguf-q4_k_m&kv=fp16&gpus=2';

test('llama.cpp over two GPUs: the tensor-split box explains bad input beside itself, and 3,1 gives the per-GPU list', async () => {
  const w = await open(chromium.browser(), chromium.base(), LLAMA);
  await w.page.locator('summary', { hasText: 'GPUs and parallelism' }).click();
  const box = w.page.getByRole('textbox', { name: 'Tensor split (--tensor-split)', exact: true });
  expect(await box.inputValue()).toBe('auto');
  await box.fill('3,x');
  await expect.poll(() => box.getAttribute('aria-invalid')).toBe('true');
  expect(await w.page.getByRole('alert').filter({ hasText: "tensor-split: '3,x' is not valid" }).count()).toBe(1);
  await box.fill('3,1,1');
  await expect.poll(() => w.page.getByRole('alert').filter({ hasText: 'one weight per GPU' }).count()).toBeGreaterThan(0);
  await box.fill('3,1');
  await expect.poll(() => settledQuery(w.page)).toMatch(/[?&]tensor-split=3,1(&|$)/);
  await w.page.getByText(/puts 25 \/ 7\+out layers on the GPUs/).waitFor();
  await w.page.getByText(/per GPU: [\d.]+ GiB \/ [\d.]+ GiB allocated/).waitFor();
  expectClean(w);
});
