// The oom CLI, spawned as a process. Messages follow docs/reference/allocator.md §7.2 / §9 (ii).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from './allocator-cli-spawn';

const run = (args: string[], stdin = '') => spawnCli('src/cli/oom.ts', args, stdin);

// docs/reference/allocator.md §9 (ii), PyTorch 2.2+ text.
const MSG =
  'CUDA out of memory. Tried to allocate 200.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 124.00 MiB is free. Including non-PyTorch memory, this process has 900.00 MiB memory in use. Of the allocated memory 500.00 MiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)';
const LOG = `epoch 1\nTraceback (most recent call last):\n  File "train.py", line 9, in <module>\n\x1b[31mtorch.OutOfMemoryError\x1b[0m: ${MSG}\n`;

describe('oom CLI', () => {
  it('decodes a log from stdin into readable text', () => {
    const r = run([], LOG);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('raised as torch.OutOfMemoryError');
    expect(r.stdout).toContain('reserved but unallocated          400.00 MiB');
    expect(r.stdout).toContain('Diagnosis: Fragmentation');
    expect(r.stdout).toContain('PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True');
    expect(r.stdout).toContain('max_split_size_mb:128');
  });

  it('--json on a file gives fields, derived figures and advice codes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'oom-'));
    const file = join(dir, 'train.log');
    writeFileSync(file, LOG);
    const r = run([file, '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.kind).toBe('oom');
    expect(j.oom.fields.find((f: { key: string }) => f.key === 'requested').value).toBe(200 * 2 ** 20);
    expect(j.oom.derived.reserved).toBe(900 * 2 ** 20);
    expect(j.oom.diagnosis.code).toBe('fragmentation');
    expect(j.oom.diagnosis.advice.map((a: { code: string }) => a.code)).toEqual(['expandable-segments', 'max-split-size']);
  });

  it('reads a memory_summary() table too', () => {
    const table = [
      '|===========================================================================|',
      '| Allocated memory      |  86016 KiB |  86016 KiB | 106496 KiB |  20480 KiB |',
      '| GPU reserved memory   | 106496 KiB | 106496 KiB | 106496 KiB |      0 B   |',
      '| Non-releasable memory |  20480 KiB |  20480 KiB |  53248 KiB |  32768 KiB |',
    ].join('\n');
    const r = run([], table);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('non-releasable (holes)');
    expect(r.stdout).toContain('20.00 MiB');
  });

  it.each([
    [['--bogus'], LOG, /^error: unknown flag --bogus/],
    [[], 'loss 0.1\nall fine\n', /^error: no PyTorch out-of-memory message found/],
    [[], '', /^error: no input/],
    [['/nonexistent/train.log'], '', /^error: cannot read \/nonexistent\/train.log: ENOENT/],
    [['a.log', 'b.log'], '', /^error: give at most one file/],
  ])('bad input %j exits 2 with one line on stderr', (args, stdin, re) => {
    const r = run(args, stdin);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd()).toMatch(re);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
