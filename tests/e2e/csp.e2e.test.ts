// The built page's Content-Security-Policy (vite.config.ts): present as a <meta> in dist/,
// no violations while the calculator, the allocator lab and the layer builder run, and the page
// keeps working with the network off. Also: no React raw-HTML escape hatch anywhere in src/.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { BrowserContext } from 'playwright-core';
import { browserPerFile } from './browser';

const chromium = browserPerFile();
const base = chromium.base;
/** The policy the brief fixes (issue 6): own origin only, no inline script, no plugins, no form posts. */
const DIRECTIVES = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' https://huggingface.co https://*.huggingface.co https://*.hf.co",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
];

interface Watch {
  context: BrowserContext;
  violations: string[];
  foreign: string[];
  errors: string[];
}

/** A context that records CSP violation events and console messages, and every request leaving the origin. */
async function watch(): Promise<Watch> {
  const context = await chromium.browser().newContext();
  const origin = new URL(base()).origin;
  const w: Watch = { context, violations: [], foreign: [], errors: [] };
  await context.exposeBinding('__cspViolation', (_src, text: string) => void w.violations.push(text));
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      (window as unknown as { __cspViolation: (t: string) => void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  context.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) w.violations.push(m.text());
    if (m.type() === 'error') w.errors.push(m.text());
  });
  context.on('weberror', (e) => void w.errors.push(String(e.error())));
  context.on('request', (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) w.foreign.push(u);
  });
  return w;
}

test('the built page carries the policy as its first <head> element, and the browser enforces it', async () => {
  const html = await (await fetch(base())).text();
  expect(html).not.toMatch(/<script(?![^>]+\bsrc=)[^>]*>/);
  const w = await watch();
  const page = await w.context.newPage();
  await page.goto(base());
  const first = await page.evaluate(() => {
    const m = document.head.firstElementChild;
    return m?.getAttribute('http-equiv') === 'Content-Security-Policy' ? m.getAttribute('content') : null;
  });
  expect(first?.split('; ')).toEqual(DIRECTIVES);
  // an injected inline script must be blocked and reported
  const ran = await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.append(s);
    return (window as unknown as { __inlineRan?: boolean }).__inlineRan ?? false;
  });
  expect(ran).toBe(false);
  await expect.poll(() => w.violations.some((v) => v.startsWith('script-src'))).toBe(true);
  await w.context.close();
});

test('no violations across the calculator, the allocator lab and the layer builder', async () => {
  const w = await watch();
  const page = await w.context.newPage();
  await page.goto(base());
  await page.getByTestId('device-total').first().waitFor();
  await page.getByRole('textbox', { name: 'Batch size', exact: true }).fill('8');
  await page.locator('.term-chart .term-seg').first().waitFor();
  for (const view of ['lab', 'layers']) {
    await page.goto(`${base()}?view=${view}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(300);
  }
  expect(w.violations).toEqual([]);
  expect(w.errors).toEqual([]);
  expect(w.foreign).toEqual([]);
  await w.context.close();
});

test('network off: the loaded page keeps estimating, and a reload needs nothing but its own origin', async () => {
  const w = await watch();
  const page = await w.context.newPage();
  await page.goto(base());
  const total = page.getByTestId('device-total').first();
  await total.waitFor();
  await w.context.setOffline(true);
  const before = await total.textContent();
  await page.getByRole('textbox', { name: 'Batch size', exact: true }).fill('16');
  await expect.poll(() => total.textContent()).not.toBe(before);
  await w.context.setOffline(false);
  // "Offline" for a local page: every origin but the page's own is cut off, then reload.
  const origin = new URL(base()).origin;
  await w.context.route('**/*', (r) => (r.request().url().startsWith(origin) ? r.continue() : r.abort('internetdisconnected')));
  await page.reload();
  await total.waitFor();
  expect(await total.textContent()).toMatch(/\d/);
  expect(w.violations).toEqual([]);
  expect(w.foreign).toEqual([]);
  await w.context.close();
});

test('no dangerouslySetInnerHTML anywhere in src/', () => {
  const hits: string[] = [];
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (readFileSync(p, 'utf8').includes('dangerouslySetInnerHTML')) hits.push(p);
    }
  };
  walk('src');
  expect(hits).toEqual([]);
});
