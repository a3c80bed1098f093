// The oom CLI, spawned as a process. Messages follow docs/reference/allocator.md §7.2 / §9 (ii); the
// memory_stats() dicts are tests/fixtures/memory-stats (printed by Python, values chosen by hand).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

  it('--conf: an option the run already has is not advised again, and the export line keeps the rest', () => {
    const r = run(['--conf', 'expandable_segments:True', '--json'], LOG);
    expect(r.code).toBe(0);
    const advice = JSON.parse(r.stdout).oom.diagnosis.advice as { code: string; params: Record<string, unknown> }[];
    expect(advice.map((a) => a.code)).toEqual(['max-split-size', 'already-set']);
    expect(advice[0].params.value).toBe('expandable_segments:True,max_split_size_mb:128');
    const text = run(['--conf', 'expandable_segments:True'], LOG).stdout;
    expect(text).not.toContain('Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True before');
    expect(text).toContain('Set PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True,max_split_size_mb:128.');
  });

  it('a 1.10–2.0 message is told to upgrade for expandable_segments, not to set it', () => {
    const old =
      'RuntimeError: CUDA out of memory. Tried to allocate 200.00 MiB (GPU 0; 1024.00 MiB total capacity; 500.00 MiB already allocated; 124.00 MiB free; 900.00 MiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF';
    const r = run([], old);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Upgrade to PyTorch ≥ 2.1 to use expandable_segments:True');
    expect(r.stdout).not.toContain('PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True');
  });

  it('reads a printed memory_stats() dict: figures, diagnosis, notes, advice', () => {
    const dict = readFileSync(new URL('../fixtures/memory-stats/retries-pprint.txt', import.meta.url), 'utf8');
    const r = run([], `step 900\n${dict}`);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('torch.cuda.memory_stats() (dict, 122 entries)');
    // 100 MiB of holes in a 20 GiB reserve: 100 / 20480 = 0.49 %
    expect(r.stdout).toMatch(/non-releasable \(holes\) +100\.00 MiB \(0\.5 % of reserved\)/);
    expect(r.stdout).toContain('Diagnosis: cudaMalloc failed 37 times');
    expect(r.stdout).toContain('note: 3 device-wide synchronisations besides the retries');
    expect(r.stdout).toContain('PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128,expandable_segments:True');
    const j = JSON.parse(run(['--json'], dict).stdout);
    expect(j.kind).toBe('memory_stats');
    expect(j.counters.numAllocRetries).toBe(37);
  });

  it.each([
    [['--bogus'], LOG, /^error: unknown flag --bogus/],
    [[], 'loss 0.1\nall fine\n', /^error: no PyTorch out-of-memory message, memory_stats\(\) dict or memory_summary\(\) table found/],
    [['--conf', 'expandable_segments:yes'], LOG, /^error: --conf: Expected a single True\/False argument for expandable_segments$/],
    [['--conf'], LOG, /^error: --conf needs a value/],
    [[], `{'allocated_bytes.all.current': ${'9'.repeat(400)}}`, /^error: allocated_bytes\.all\.current: 9{20}… is out of range \(at most 2\^63\)$/],
    [[], 'OrderedDict()', /^error: memory_stats\(\) is empty: CUDA was not initialised/],
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
