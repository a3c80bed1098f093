import { mkdirSync } from 'node:fs';
import { beforeAll, expect, test } from 'vitest';
import { browserPerFile, watchedPage } from './browser';

/**
 * One codec for every view: a link from a newer app, with an unreadable version, with a malformed
 * escape or with values a view cannot use opens that view with a notice naming what was not used,
 * never a blank page, in English and Chinese, on a desktop and a phone.
 */
const SCREENS = '.tmp/screens';
const chromium = browserPerFile();
beforeAll(() => {
  mkdirSync(SCREENS, { recursive: true });
});

/** Each link, what its view shows when ready (a selector), and what the notice says in English and Chinese (src/ui/i18n). */
const CASES = [
  {
    name: 'lab-newer',
    query: '?v=99&view=lab&lab.panel=sim&lab.preset=classic',
    ready: '#lab-panel-sim .lab-chart svg',
    en: 'link written by a newer version (v99); reading it as v2',
    zh: '此链接由更新的版本（v99）生成',
  },
  {
    name: 'lab-bad-values',
    query: '?v=2&view=lab&lab.panel=charts&lab.step=abc',
    ready: '#lab-panel-oom',
    en: 'were ignored and defaults used instead: lab.panel=charts; lab.step=abc',
    zh: '已改用默认值：lab.panel=charts; lab.step=abc',
  },
  { name: 'layers-bad-version', query: '?v=abc&view=layers&net.p=vgg-16&net.b=4', ready: '[data-testid="net-params"]', en: "v: 'abc' is not a version number; read as v2", zh: 'v：取值无效' },
  { name: 'calculator-malformed', query: '?v=2&batch=4&%E0%A4%A=1&gpu=rtx-4090', ready: '[data-testid="device-total"]', en: "could not read '%E0%A4%A=1' in the link", zh: '链接中有无法解析的片段' },
] as const;

test.each(CASES)('$name: the view opens with a notice of what the link could not give it (en 1280 px, zh 390 px)', async ({ name, query, ready, en, zh }) => {
  const base = chromium.base();
  for (const [lang, width] of [
    ['en', 1280],
    ['zh', 390],
  ] as const) {
    const w = await watchedPage(chromium.browser(), base);
    const { page } = w;
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${base}${query}${lang === 'zh' ? '&lang=zh' : ''}`);
    await page.locator('.notice').first().waitFor();
    expect((await page.locator('.notice').allTextContents()).join(' | ')).toContain(lang === 'en' ? en : zh);
    // the view itself is there, in both languages
    await page.locator(ready).first().waitFor();
    await page.screenshot({ path: `${SCREENS}/links-${name}-${lang}-${width}.png`, fullPage: true });
    expect(w.consoleErrors).toEqual([]);
    expect(w.foreignRequests).toEqual([]);
    await page.context().close();
  }
});
