import { expect, test } from 'vitest';
import { browserPerFile } from './browser';
import { deviceTotal, expectClean, open, settledQuery } from './page';

// #12 §11: the GPU inputs.
const chromium = browserPerFile();
const base = chromium.base;

test('the saved-GPU form is closed until asked for', async () => {
  const w = await open(chromium.browser(), base());
  const saved = w.page.getByRole('group', { name: 'Saved GPUs' });
  expect(await saved.getByLabel('GPU name', { exact: true }).count()).toBe(0);
  await saved.getByRole('button', { name: 'Save a custom GPU under a name…' }).click();
  expect(await saved.getByLabel('GPU name', { exact: true }).count()).toBe(1);
  expectClean(w);
});

test('the GiB / GB choice travels in the share link', async () => {
  const w = await open(chromium.browser(), base(), '?gpu=rtx-4090');
  expect(await deviceTotal(w.page)).toMatch(/GiB$/);
  await w.page.getByRole('button', { name: 'GB', exact: true }).click();
  expect(await deviceTotal(w.page)).toMatch(/ GB$/);
  expect(await settledQuery(w.page)).toMatch(/[?&]unit=gb(&|$)/);
  expect(await w.page.getByRole('textbox', { name: 'Link to this configuration' }).inputValue()).toMatch(/[?&]unit=gb(&|$)/);
  // a fresh page opened on that link shows GB
  const again = await open(chromium.browser(), base(), new URL(w.page.url()).search);
  expect(await deviceTotal(again.page)).toMatch(/ GB$/);
  await again.page.getByRole('button', { name: 'GiB', exact: true }).click();
  expect(await settledQuery(again.page)).not.toContain('unit=');
  expectClean(w);
  expectClean(again);
});

test("no select cuts its chosen option: the verdict's GPU picker, the catalogue and every form select, inference and training, en and zh, 1280 and 390 px", async () => {
  for (const lang of ['en', 'zh']) {
    for (const mode of ['inference', 'training']) {
      const w = await open(chromium.browser(), base(), `?lang=${lang}&mode=${mode}&gpu=rtx-4090`);
      await w.page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
      for (const width of [1280, 390]) {
        await w.page.setViewportSize({ width, height: 900 });
        // each option's text in the select's own font, plus its padding and Chromium's 20 px drop-down arrow, fits the box
        const cut = await w.page.evaluate(() => {
          const ctx = document.createElement('canvas').getContext('2d')!;
          return [...document.querySelectorAll('select')]
            .filter((sel) => sel.offsetParent !== null)
            .flatMap((sel) => {
              const cs = getComputedStyle(sel);
              ctx.font = cs.font;
              const text = sel.selectedOptions[0]?.text ?? '';
              const need = ctx.measureText(text).width + parseFloat(cs.paddingLeft) + parseFloat(cs.paddingRight) + 20;
              return need > sel.clientWidth + 1 ? [`${sel.labels?.[0]?.textContent ?? sel.id}: "${text}" ${Math.round(need)} > ${sel.clientWidth}`] : [];
            });
        });
        expect(cut, `${lang} ${mode} ${width}px`).toEqual([]);
      }
      expect(await w.page.locator('.verdict-gpu select option:checked').textContent()).toMatch(/GeForce RTX 4090 — 24 GB$/);
      expectClean(w);
    }
  }
});
