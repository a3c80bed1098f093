import { expect, test } from 'vitest';
import { browserPerFile } from './browser';
import { barHeights, deviceTotal, expectClean, open, settledQuery } from './page';

const chromium = browserPerFile();
const base = chromium.base;

test('loads with totals, a chart and every control labelled', async () => {
  const w = await open(chromium.browser(), base(), '?gpu=rtx-4090');
  expect(await deviceTotal(w.page)).toMatch(/GiB$/);
  expect((await barHeights(w.page)).length).toBeGreaterThan(0);
  // capacity line of the chosen GPU
  await w.page.locator('.term-chart .cap-line').first().waitFor({ state: 'attached' });
  const unlabelled = await w.page.$$eval('input, select, textarea', (els) =>
    els
      .filter((e) => {
        const el = e as HTMLInputElement;
        if (el.type === 'hidden') return false;
        const byFor = el.id && document.querySelector(`label[for="${CSS.escape(el.id)}"]`);
        return !byFor && !el.closest('label') && !el.getAttribute('aria-label') && !el.getAttribute('aria-labelledby');
      })
      .map((e) => e.outerHTML.slice(0, 80)),
  );
  expect(unlabelled).toEqual([]);
  expectClean(w);
});

test('moving the batch slider changes the totals and the chart', async () => {
  const w = await open(chromium.browser(), base());
  const before = await deviceTotal(w.page);
  const barsBefore = await barHeights(w.page);
  const slider = w.page.getByRole('slider', { name: 'Batch size (slider)' });
  await slider.focus();
  for (let i = 0; i < 20; i++) await w.page.keyboard.press('ArrowRight');
  const box = w.page.getByRole('textbox', { name: 'Batch size', exact: true });
  expect(Number(await box.inputValue())).toBeGreaterThan(1);
  expect(await deviceTotal(w.page)).not.toBe(before);
  // the chart redraws once the slider settles
  await expect.poll(() => barHeights(w.page)).not.toEqual(barsBefore);
  expect(await settledQuery(w.page)).toMatch(/[?&]batch=\d+/);
  expectClean(w);
});

test('copy link, then open it in a fresh page: same state', async () => {
  const w = await open(chromium.browser(), base());
  const entriesAtLoad = await w.page.evaluate(() => window.history.length);
  await w.page.getByRole('tab', { name: 'Training' }).click();
  await w.page.getByRole('textbox', { name: 'Sequence length', exact: true }).fill('4096');
  await w.page.getByLabel('Method').selectOption('lora');
  await w.page.getByRole('button', { name: 'Copy link' }).click();
  const link = await w.page.getByLabel('Link to this configuration').inputValue();
  expect(link).toContain('mode=training');
  expect(link).toContain('seq=4096');
  expect(link).toContain('method=lora');
  const entries = await w.page.evaluate(() => window.history.length);
  expect(entries).toBe(entriesAtLoad); // replaceState only: editing does not flood the history
  const fresh = await open(chromium.browser(), link.replace(/\?.*$/, ''), link.slice(link.indexOf('?')));
  // the totals follow an edit one render later (use-shown-scenario.ts), and a training total is the
  // closed form until the scenario settles, then the replayed one (use-replay.ts): both pages end on the same
  await expect.poll(async () => (await deviceTotal(fresh.page)) === (await deviceTotal(w.page))).toBe(true);
  expect(await fresh.page.getByRole('textbox', { name: 'Sequence length', exact: true }).inputValue()).toBe('4096');
  expect(await fresh.page.getByLabel('Method').inputValue()).toBe('lora');
  expectClean(w);
  expectClean(fresh);
});

test('embed mode: compact, no header or footer, posts only its height to the parent', async () => {
  const w = await open(chromium.browser(), base());
  const parent = `${base()}embed-parent.html`;
  await w.page.route(parent, (r) =>
    r.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><title>p</title><script>window.got=[];addEventListener('message',e=>got.push(e.data))</script><iframe src="./?embed=1&gpu=rtx-4090" width="900" height="600"></iframe>`,
    }),
  );
  await w.page.goto(parent);
  const frame = w.page.frameLocator('iframe');
  await frame.getByTestId('device-total').waitFor();
  expect(await frame.locator('header').count()).toBe(0);
  expect(await frame.locator('footer').count()).toBe(0);
  await w.page.waitForFunction(() => (window as unknown as { got: unknown[] }).got.length > 0);
  const got = await w.page.evaluate(() => (window as unknown as { got: Record<string, unknown>[] }).got);
  for (const m of got) {
    expect(Object.keys(m).sort()).toEqual(['height', 'type']);
    expect(m.type).toBe('gpu-memory-calculator:height');
    expect(m.height).toBeGreaterThan(100);
  }
  expectClean(w);
});

test('language switch: Chinese labels, kept in the URL and after reload', async () => {
  const w = await open(chromium.browser(), base());
  await w.page.getByRole('button', { name: '简体中文' }).click();
  // The Chinese strings arrive as their own chunk: wait for the heading to change, then read the rest.
  await w.page.getByRole('heading', { level: 1, name: 'GPU 显存计算器' }).waitFor();
  await w.page.getByText('批大小', { exact: true }).first().waitFor();
  expect(await settledQuery(w.page)).toContain('lang=zh');
  expect(await w.page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  await w.page.reload();
  await w.page.getByTestId('device-total').waitFor();
  await w.page.getByRole('heading', { level: 1, name: 'GPU 显存计算器' }).waitFor();
  expectClean(w);
});

test('a malformed, hostile URL opens the defaults with a notice of what was ignored', async () => {
  const q = '?v=1&batch=abc&evil=%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E&mode=%3Cscript%3Ealert(2)%3C%2Fscript%3E&prompt=1e999';
  const w = await open(chromium.browser(), base(), q);
  const notice = w.page.locator('.notice');
  await notice.waitFor();
  const text = (await notice.textContent()) ?? '';
  expect(text).toContain('evil');
  expect(await w.page.getByRole('textbox', { name: 'Batch size', exact: true }).inputValue()).toBe('1');
  expect(await w.page.locator('img[src="x"]').count()).toBe(0);
  expect(await w.page.locator('#root script').count()).toBe(0);
  expectClean(w);
});

test('a bad config.json paste names the field, and the scenario is unchanged', async () => {
  const w = await open(chromium.browser(), base());
  const before = await deviceTotal(w.page);
  await w.page.getByText('Paste or upload config.json').click();
  await w.page.getByLabel('config.json contents').fill('{"model_type":"llama","hidden_size":-3,"num_hidden_layers":32,"num_attention_heads":32,"vocab_size":32000}');
  await w.page.getByRole('button', { name: 'Use this config' }).click();
  const alert = w.page.locator('.config-paste [role=alert]');
  await alert.waitFor();
  expect(await alert.textContent()).toContain('hidden_size');
  expect(await deviceTotal(w.page)).toBe(before);
  await w.page.getByLabel('config.json contents').fill('{"hidden_size": 4096,');
  await w.page.getByRole('button', { name: 'Use this config' }).click();
  expect(await alert.textContent()).toContain('not valid JSON');
  expectClean(w);
});

test('custom models persist in the browser; a corrupted entry gives a notice, never a blank page', async () => {
  const w = await open(chromium.browser(), base());
  await w.page.getByText('Edit architecture fields').click();
  await w.page.getByRole('textbox', { name: 'Layers', exact: true }).fill('40');
  await w.page.getByLabel('Name', { exact: true }).fill('my llama 40L');
  await w.page.getByRole('button', { name: 'Save model' }).click();
  await w.page.evaluate(() => {
    const env = JSON.parse(localStorage.getItem('gpumem.models')!);
    env.models.broken = { arch: { hidden: 'x' }, savedAt: 1 };
    localStorage.setItem('gpumem.models', JSON.stringify(env));
  });
  await w.page.reload();
  await w.page.getByTestId('device-total').waitFor();
  expect(await w.page.locator('.notice').textContent()).toContain('could not be read and was ignored (broken)');
  await w.page.getByText('Edit architecture fields').click();
  await w.page.getByRole('button', { name: 'my llama 40L', exact: true }).click();
  expect(await w.page.getByText(/Custom model \(llama\)/).count()).toBe(1);
  await w.page.evaluate(() => localStorage.setItem('gpumem.models', '{oops'));
  await w.page.reload();
  await w.page.getByTestId('device-total').waitFor();
  expect(await w.page.locator('.notice').textContent()).toContain('could not be read');
  expectClean(w);
});

test('screenshots: English and Chinese, light and dark', async () => {
  for (const lang of ['en', 'zh']) {
    for (const dark of [false, true]) {
      const w = await open(chromium.browser(), base(), `?gpu=rtx-4090&batch=8${lang === 'zh' ? '&lang=zh' : ''}`, dark);
      await w.page.setViewportSize({ width: 1400, height: 1000 });
      await barHeights(w.page);
      await w.page.screenshot({ path: `.tmp/screens/calc-${lang}-${dark ? 'dark' : 'light'}.png`, fullPage: true });
      expectClean(w);
    }
  }
  // training that does not fit, with a derivation open, and the embed layout
  const t = await open(chromium.browser(), base(), '?mode=training&seq=4096&batch=4&gpu=rtx-4090&compare=rtx-4090,a100-80gb-sxm4');
  await t.page.setViewportSize({ width: 1400, height: 1000 });
  await t.page
    .getByRole('table', { name: /Memory terms/ })
    .getByRole('button', { name: 'Optimizer state' })
    .click();
  await t.page.getByRole('heading', { name: /How Optimizer state is computed/ }).waitFor();
  await t.page.screenshot({ path: '.tmp/screens/calc-training-en-light.png', fullPage: true });
  expectClean(t);
  const e = await open(chromium.browser(), base(), '?embed=1&gpu=rtx-4090&lang=zh', true);
  await e.page.setViewportSize({ width: 900, height: 800 });
  await e.page.screenshot({ path: '.tmp/screens/calc-embed-zh-dark.png', fullPage: true });
  expectClean(e);
});

test('a zh-CN browser opens in Chinese with no lang= in the link, and a language picked here is remembered over it', async () => {
  const context = await chromium.browser().newContext({ locale: 'zh-CN' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(base());
  await page.getByRole('heading', { level: 1, name: 'GPU 显存计算器' }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-CN');
  await page.getByRole('button', { name: 'English' }).click();
  await page.getByRole('heading', { level: 1, name: 'GPU Memory Calculator' }).waitFor();
  // a fresh tab of the same browser, on a link without lang=: the choice made here wins over the browser's language
  const again = await context.newPage();
  await again.goto(base());
  await again.getByTestId('device-total').first().waitFor();
  expect(await again.getByRole('heading', { level: 1 }).textContent()).toBe('GPU Memory Calculator');
  expect(await again.evaluate(() => document.documentElement.lang)).toBe('en');
  expect(errors).toEqual([]);
  await context.close();
});
