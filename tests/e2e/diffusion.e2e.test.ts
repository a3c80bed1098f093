import { expect, test } from 'vitest';
import { browserPerFile } from './browser';
import { expectClean, open, settledQuery } from './page';

const chromium = browserPerFile();
const base = chromium.base;

test('SDXL from the image-generation group: its own form, the VAE decode in the breakdown, training refused in words', async () => {
  const w = await open(chromium.browser(), base());
  const p = w.page;
  await p.getByRole('button', { name: 'Stable Diffusion XL base 1.0' }).click();
  expect(await p.getByRole('button', { name: 'Stable Diffusion XL base 1.0' }).getAttribute('aria-pressed')).toBe('true');
  // the image form: side, guidance and offload; no prompt / KV fields
  await p.getByLabel('Image side (px)', { exact: true }).waitFor();
  expect(await p.getByLabel('Classifier-free guidance').count()).toBe(1);
  expect(await p.getByLabel('Prompt tokens', { exact: true }).count()).toBe(0);
  expect(await p.getByLabel('KV cache format').count()).toBe(0);
  // 'auto' shows the native side
  expect(await p.getByLabel('Image side (px)', { exact: true }).inputValue()).toBe('1024');
  await p.getByLabel('Weight format').selectOption('fp16');
  expect(await settledQuery(p)).toContain('model=stabilityai/stable-diffusion-xl-base-1.0');
  await p.getByRole('cell', { name: 'VAE decode' }).first().waitFor();
  // the training tab says why instead of showing fields
  await p.getByRole('tab', { name: 'Training' }).click();
  await p.getByText('image-generation models are estimated for inference only').first().waitFor();
  expectClean(w);
});

test('a Chinese link to FLUX.1-dev at 1000 px: rounded to a multiple of 16 with a note, no errors', async () => {
  const w = await open(chromium.browser(), base(), '?v=2&lang=zh&model=black-forest-labs/FLUX.1-dev&resolution=1000&gpu=h100-sxm');
  await w.page.getByRole('cell', { name: 'VAE 解码' }).first().waitFor();
  // FluxPipeline rounds the side down to a multiple of 16 (prepare_latents): 992
  await w.page.getByText('向下取整为 992 像素').first().waitFor();
  expect(await w.page.getByRole('button', { name: 'FLUX.1 [dev]' }).getAttribute('aria-pressed')).toBe('true');
  expectClean(w);
});
