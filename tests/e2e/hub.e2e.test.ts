// #14 §3: "Fetch from Hugging Face" asks the Hub only when the user presses Fetch, and then only
// huggingface.co; the model it reads becomes the scenario. The Hub is played by Playwright routes
// serving Hub-shaped answers (the machines have no network).
// A model without an index is not asked for one: the info's file list says so, and nothing 404s.
import { expect, test } from 'vitest';
import type { Route } from 'playwright-core';
import { browserPerFile } from './browser';
import { settledQuery } from './page';
import { hubAnswer, llamaServer } from '../core/hub/fake-hub';

const chromium = browserPerFile();
const base = chromium.base;

const FILES = llamaServer();

/** The Hub as its resolve endpoint answers (fake-hub.ts), with CORS open as huggingface.co sends it. */
async function hub(route: Route): Promise<void> {
  const a = hubAnswer(FILES, new URL(route.request().url()).pathname, (await route.request().headerValue('range')) ?? undefined);
  return route.fulfill({ status: a.status, headers: { 'access-control-allow-origin': '*' }, body: typeof a.body === 'string' ? a.body : Buffer.from(a.body) });
}

async function page(query = '') {
  // service workers off: a worker's fetches would pass Playwright's routes by
  const context = await chromium.browser().newContext({ serviceWorkers: 'block' });
  const p = await context.newPage();
  const origin = new URL(base()).origin;
  const foreign: string[] = [];
  const errors: string[] = [];
  p.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:') && !r.url().startsWith('blob:')) foreign.push(r.url());
  });
  p.on('console', (m) => {
    // the gated repo's 401 is logged by Chromium as a failed resource load; that is the case under test
    if (m.type() === 'error' && !/401/.test(m.text())) errors.push(m.text());
  });
  p.on('pageerror', (e) => errors.push(String(e)));
  await context.route('https://huggingface.co/**', hub);
  await p.goto(base() + query);
  await p.getByTestId('device-total').first().waitFor();
  return { p, foreign, errors };
}

test('nothing leaves the page until Fetch; then only huggingface.co, and the model is the scenario', async () => {
  const { p, foreign, errors } = await page();
  await p.getByText('Paste or upload config.json, or fetch it from Hugging Face').click();
  const box = p.getByLabel('Model id on the Hub');
  await box.fill('meta-llama/Llama-2-7b-hf');
  // typing an id and waiting sends nothing
  await p.waitForTimeout(300);
  expect(foreign).toEqual([]);
  await p.getByRole('button', { name: 'Fetch', exact: true }).click();
  await p.getByText('Loaded meta-llama/Llama-2-7b-hf: a llama architecture.').waitFor();
  // Llama-2-7b: 6,738,415,616 parameters (Meta's model card), in one bf16 file
  await p.getByText(/Its 1 safetensors file\(s\) hold 6\.74B elements/).waitFor();
  expect(await p.getByRole('status').filter({ hasText: 'Counted from config.json: 6.74B parameters.' }).count()).toBe(1);
  expect(foreign.length).toBeGreaterThan(0);
  expect(foreign.every((u) => /^https:\/\/huggingface\.co\/(?:api\/models\/)?meta-llama\/Llama-2-7b-hf(?:\/resolve\/main\/|$)/.test(u))).toBe(true);
  expect(new URLSearchParams(await settledQuery(p)).get('model')).toBe('custom');
  expect(errors).toEqual([]);
});

test('a gated repo says to paste config.json instead, in Chinese too', async () => {
  const { p } = await page('?lang=zh');
  await p.getByText('粘贴或上传 config.json，或从 Hugging Face 获取').click();
  await p.getByLabel('Hub 上的模型 id').fill('meta-llama/Llama-3.1-8B');
  await p.getByRole('button', { name: '获取', exact: true }).click();
  await p.getByRole('alert').filter({ hasText: 'meta-llama/Llama-3.1-8B 是受限或私有模型' }).waitFor();
});

test('the embed has no Hub box', async () => {
  const { p, foreign } = await page('?embed=1&controls=batch');
  expect(await p.getByLabel('Model id on the Hub').count()).toBe(0);
  expect(foreign).toEqual([]);
});
