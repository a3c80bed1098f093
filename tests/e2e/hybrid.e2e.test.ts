/**
 * Zamba2 and RWKV-7 in the built page: the preset by link (English and Chinese), an RWKV-7
 * config.json pasted in, and one the core refuses (softmax-attention layers) named at the box.
 */
import { expect, test } from 'vitest';
import { browserPerFile } from './browser';
import { expectClean, open } from './page';

const chromium = browserPerFile();
const base = chromium.base;

const RWKV_1B5 = {
  model_type: 'rwkv7',
  hidden_size: 2048,
  num_hidden_layers: 24,
  head_dim: 64,
  intermediate_size: 8192,
  vocab_size: 65536,
  decay_low_rank_dim: 96,
  a_low_rank_dim: 96,
  v_low_rank_dim: 64,
  gate_low_rank_dim: 256,
};

test('the Zamba2-2.7B preset counts 2.66B parameters, in English and in Chinese', async () => {
  const en = await open(chromium.browser(), base(), '?model=Zyphra%2FZamba2-2.7B&prompt=2048');
  await en.page.getByText('2.66B parameters').first().waitFor();
  expectClean(en);
  const zh = await open(chromium.browser(), base(), '?model=Zyphra%2FZamba2-2.7B&prompt=2048&lang=zh');
  await zh.page.getByText('26.62亿 个参数').first().waitFor();
  expectClean(zh);
});

test('a pasted RWKV-7 config is estimated with its loader note; one with attention layers is refused at the box', async () => {
  const w = await open(chromium.browser(), base());
  await w.page.getByText('Paste or upload config.json').click();
  await w.page.getByLabel('config.json contents').fill(JSON.stringify(RWKV_1B5));
  await w.page.getByRole('button', { name: 'Use this config' }).click();
  await w.page.getByText('1.53B parameters').first().waitFor();
  await w.page.getByText('transformers has no RWKV-7 class', { exact: false }).first().waitFor();
  await w.page.getByLabel('config.json contents').fill(JSON.stringify({ ...RWKV_1B5, attn: { layers: [3] } }));
  await w.page.getByRole('button', { name: 'Use this config' }).click();
  const alert = w.page.locator('.config-paste [role=alert]');
  await alert.waitFor();
  expect(await alert.textContent()).toContain('attn');
  expectClean(w);
});
