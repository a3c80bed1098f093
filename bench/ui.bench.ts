// The page's two budgets, measured on the real build in headless Chromium:
// - slider input-to-paint p95 (target ≤ 16 ms = one 60 Hz frame);
// - first-load JavaScript, gzip (target ≤ 150 KB): the entry script plus its modulepreloads, not lazy chunks.
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launch } from '../tests/e2e/browser';
import { serveStatic } from '../tests/e2e/static-server';
import type { BenchRow } from './types';

const DIST = 'dist';

/** gzip bytes of the JS the page loads before any interaction. */
export function firstLoadGzip(dist = DIST): number {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const srcs = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((m) => m[1]);
  return srcs.reduce((sum, src) => sum + gzipSync(readFileSync(join(dist, src.replace(/^\.\//, '')))).length, 0);
}

/** Press arrow keys on the batch slider; per press, time from the keydown to after the next paint. */
async function sliderLatencies(url: string, presses: number): Promise<number[]> {
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(`${url}${process.env.BENCH_QUERY ?? "?gpu=rtx-4090&compare=rtx-4090,a100-80gb-sxm4"}`);
    await page.locator('.chart-box .recharts-bar-rectangle').first().waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { lat: number[] };
      w.lat = [];
      document.addEventListener(
        'keydown',
        (e) => {
          const t0 = e.timeStamp;
          requestAnimationFrame(() => {
            const ch = new MessageChannel();
            ch.port1.onmessage = () => w.lat.push(performance.now() - t0);
            ch.port2.postMessage(0);
          });
        },
        true,
      );
    });
    const slider = page.getByRole('slider', { name: 'Batch size (slider)' });
    await slider.focus();
    for (let i = 0; i < presses; i++) {
      await page.keyboard.press(i % 80 < 40 ? 'ArrowRight' : 'ArrowLeft');
      await page.waitForFunction((n) => (window as unknown as { lat: number[] }).lat.length > n, i);
    }
    return await page.evaluate(() => (window as unknown as { lat: number[] }).lat);
  } finally {
    await browser.close();
  }
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.95 * s.length) - 1)];
}

export default async function uiBench(): Promise<BenchRow[]> {
  if (!process.env.BENCH_SKIP_BUILD) execSync('npx vite build --logLevel warn', { stdio: 'inherit' });
  const { server, url } = await serveStatic(DIST, '/sub/path/');
  try {
    const lat = await sliderLatencies(url, Number(process.env.BENCH_PRESSES ?? 160));
    const sorted = [...lat].sort((a, b) => a - b);
    return [
      { name: 'ui: batch slider input-to-paint p95', value: p95(lat), unit: 'ms', target: 16 },
      { name: 'ui: batch slider input-to-paint median', value: sorted[Math.floor(sorted.length / 2)], unit: 'ms' },
      { name: 'ui: first-load JS (gzip)', value: firstLoadGzip() / 1024, unit: 'KiB', target: 150 },
    ];
  } finally {
    server.close();
  }
}
