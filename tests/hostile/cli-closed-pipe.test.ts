/**
 * A reader that stops early (`npm run --silent oom -- --json big.log | head`) closes the pipe while
 * the CLI is still writing. Node then raises EPIPE on process.stdout; unhandled, it crashes with a
 * stack trace on stderr ("Error: write EPIPE … Unhandled 'error' event"). The CLI must stop quietly.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { OOM_EXAMPLE } from '../../src/core/allocator';

test('closing stdout after the first bytes: no EPIPE crash, no stack trace', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'gpumem-pipe-'));
  const file = join(dir, 'ooms.log');
  // 300 OOM messages: several hundred KB of JSON, more than one pipe buffer (64 KiB on Linux)
  writeFileSync(file, `${OOM_EXAMPLE.replace(' …', '')}\n`.repeat(300));
  const r = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'src/cli/oom.ts', '--json', file], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
  expect(r.stderr).not.toContain('EPIPE');
  expect(r.stderr).not.toContain('Unhandled');
  expect(r.code).toBe(0);
}, 60_000);
