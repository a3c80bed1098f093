import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with no background traffic (the machines have no network); `extraArgs` are added switches. */
export async function launch(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...extraArgs],
  });
}

export interface Watched {
  page: Page;
  consoleErrors: string[];
  /** requests that left the page's own origin */
  foreignRequests: string[];
}

/** A fresh page that records console errors, page errors and requests to other origins. */
export async function watchedPage(browser: Browser, baseUrl: string): Promise<Watched> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const origin = new URL(baseUrl).origin;
  const consoleErrors: string[] = [];
  const foreignRequests: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  page.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) foreignRequests.push(u);
  });
  return { page, consoleErrors, foreignRequests };
}

/** One Chromium per test file, launched before its tests and closed after; `base()` is the served page's URL. */
export function browserPerFile(): { browser: () => Browser; base: () => string } {
  let b: Browser | undefined;
  beforeAll(async () => {
    b = await launch();
  });
  afterAll(async () => {
    await b?.close();
  });
  return {
    browser: () => {
      if (!b) throw new Error('Chromium is not running');
      return b;
    },
    base: () => inject('baseUrl'),
  };
}
