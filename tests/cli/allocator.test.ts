// The allocator CLI, spawned as a process; expected figures are docs/reference/allocator.md §9.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnCli } from './allocator-cli-spawn';
import { findPreset } from '../../src/core/allocator/presets';

const run = (args: string[], stdin = '') => spawnCli('src/cli/allocator.ts', args, stdin);
const dir = mkdtempSync(join(tmpdir(), 'alloc-'));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('allocator CLI', () => {
  it('runs a preset and prints memory_stats figures (§9 i: 104 MiB reserved, 84 MiB allocated)', () => {
    const r = run(['classic']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/reserved_bytes\.all\.current\s+104\.00 MiB/);
    expect(r.stdout).toMatch(/allocated_bytes\.all\.current\s+84\.00 MiB/);
    expect(r.stdout).toMatch(/segment\.all\.current\s+3/);
  });

  it('a trace file with --conf max_split_size_mb:128 --json avoids the §9 (ii) OOM', () => {
    const trace = file('frag.txt', findPreset('fragmentation-oom')?.text ?? '');
    const r = run([trace, '--conf', 'max_split_size_mb:128', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.stats['reserved_bytes.all.current']).toBe(734_003_200);
    expect(j.stats['num_device_alloc']).toBe(11);
    expect(j.stats['max_split_size']).toBe(134_217_728);
    expect(j.ooms).toEqual([]);
  });

  it('exits 1 with the OOM text when the trace runs out of memory (old 2.0 wording on request)', () => {
    const r = run(['fragmentation-oom', '--version', '2.0']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 200.00 MiB (GPU 0; 1024.00 MiB total capacity; 500.00 MiB already allocated; 124.00 MiB free; 900.00 MiB reserved in total by PyTorch)',
    );
  });

  it('reads a trace from stdin and prints memory_summary()', () => {
    const r = run(['-', '--summary'], 'capacity 1GiB\nalloc x 1000\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('|       from small pool |   2048 KiB |   2048 KiB |   2048 KiB |      0 B   |');
  });

  it('--compare --json: the §9 (ii) trace under default, max_split_size_mb:128 and expandable segments', () => {
    const r = run(['fragmentation-oom', '--compare', '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout) as { conf: string; ooms: number; finalReserved: number }[];
    expect(rows.map((x) => [x.conf, x.ooms, x.finalReserved])).toEqual([
      ['', 1, 943_718_400],
      ['max_split_size_mb:128', 0, 734_003_200],
      ['expandable_segments:True', 0, 734_003_200],
    ]);
  });

  it('imports a memory-history JSON', () => {
    const h = {
      total_memory: 2 ** 30,
      device_traces: [
        [
          { action: 'alloc', addr: 4096, size: 1000 },
          { action: 'free_completed', addr: 4096, size: 1000 },
        ],
      ],
    };
    const r = run([file('hist.json', JSON.stringify(h)), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.events).toBe(2);
    expect(j.stats['reserved_bytes.all.current']).toBe(2 * 2 ** 20);
  });

  it.each([
    [[file('bad.txt', 'alloc a 4MiB\nalloc b 3 parsecs\nfree zz\n')], /^error: .*bad\.txt line 2: unknown unit 'parsecs'.*\(and 1 more bad lines\)$/],
    [['classic', '--conf', 'max_split_size_mb:10'], /^error: CachingAllocator option max_split_size_mb too small, must be > 20$/],
    [['classic', '--conf', 'expandable_segments:yes'], /^error: Expected a single True\/False argument for expandable_segments$/],
    [['classic', '--capacity', 'lots'], /^error: --capacity: cannot read size 'lots'/],
    [['classic', '--version', '3.0'], /^error: --version must be one of/],
    [['no-such-preset-or-file'], /^error: cannot read no-such-preset-or-file: ENOENT/],
    [[], /^error: give one trace file/],
    [[file('h.json', '{"nope": 1}')], /^error: .*no 'device_traces' list/],
  ])('bad input %j exits 2 with one line on stderr', (args, re) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toMatch(re);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
