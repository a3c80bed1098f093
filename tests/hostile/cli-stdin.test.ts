/**
 * Issue #16 point 2: a log piped into the CLI slowly (as `cat big.log | npm run oom` does when the
 * writer is slower than the reader) must be read to its end. Reading stdin after asking
 * `process.stdin.isTTY` made the pipe non-blocking, the first empty read threw EAGAIN, and the
 * CLI said "no input".
 */
import { spawn } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { OOM_EXAMPLE } from '../../src/core/allocator';

/** Run `npx tsx <script> ...args`, writing `input` through a pipe in `chunk`-byte pieces `delayMs` apart. */
function runPiped(script: string, args: string[], input: Buffer, chunk: number, delayMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', script, ...args], { cwd: process.cwd(), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.on('error', () => {}); // the child may exit before reading everything (the bug)
    let at = 0;
    const next = () => {
      if (at >= input.length) {
        child.stdin.end();
        return;
      }
      child.stdin.write(input.subarray(at, at + chunk));
      at += chunk;
      setTimeout(next, delayMs);
    };
    // the first bytes arrive only after the CLI has started reading
    setTimeout(next, 1500);
  });
}

/** ~1 MB of training log lines, then one real OOM message as the last line. */
function bigLog(): Buffer {
  const line = (i: number) => `step ${i} loss ${(2 + Math.sin(i)).toFixed(4)} lr 3.0e-4 tokens/s 41235.7\n`;
  let s = '';
  for (let i = 0; s.length < 1_000_000; i++) s += line(i);
  return Buffer.from(`${s}${OOM_EXAMPLE.replace(' …', '')}\n`);
}

describe('piped stdin is read to its end', () => {
  test('oom: 1 MB written slowly through a pipe decodes the message on its last line', async () => {
    const log = bigLog();
    expect(log.length).toBeGreaterThan(1_000_000);
    const r = await runPiped('src/cli/oom.ts', ['--json'], log, 64 * 1024, 40);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.kind).toBe('oom');
    // 20.00 MiB = 20 · 2^20 B, the request of the message's first figure
    expect(out.oom.fields.find((f: { key: string }) => f.key === 'requested').value).toBe(20 * 2 ** 20);
  }, 60_000);

  test('allocator -: a 1 MB trace written slowly through a pipe runs every line', async () => {
    // n allocs of 1 MiB each then n frees; the simulator reports n allocations
    const n = 20_000;
    const lines = ['capacity 80GiB'];
    for (let i = 0; i < n; i++) lines.push(`alloc tensor_number_${i} 1MiB`);
    for (let i = 0; i < n; i++) lines.push(`free tensor_number_${i}`);
    const text = Buffer.from(`${lines.join('\n')}\n`);
    expect(text.length).toBeGreaterThan(1_000_000);
    const r = await runPiped('src/cli/allocator.ts', ['-', '--json'], text, 64 * 1024, 40);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    // every alloc line arrived: n allocations, and at the peak all n MiB were allocated at once
    expect(out.stats['allocation.all.allocated']).toBe(n);
    expect(out.stats['allocated_bytes.all.peak']).toBe(n * 2 ** 20);
    expect(out.stats['allocated_bytes.all.current']).toBe(0);
  }, 60_000);
});
