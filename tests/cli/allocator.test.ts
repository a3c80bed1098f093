// The allocator CLI, spawned as a process; expected figures are docs/reference/allocator.md §9.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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

// Snapshot pickles written by CPython (tests/core/snapshot/fixtures/make_fixtures.py): §9 (i) and (ii) as recorded runs.
describe('allocator CLI on torch.cuda.memory._dump_snapshot() pickles', () => {
  const snap = (name: string) => join(import.meta.dirname, '../core/snapshot/fixtures', name);

  it('replays a snapshot and puts the recorded run beside the replay (--json)', () => {
    const r = run([snap('classic.p5.pickle'), '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.stats['reserved_bytes.all.peak']).toBe(109_051_904);
    expect(j.recorded).toMatchObject({ deviceAllocs: 3, reservedPeak: 109_051_904, ooms: 0 });
    expect(j.fidelity).toMatchObject({ replayed: { deviceAllocs: 3, reservedPeak: 109_051_904, ooms: 0 }, reservedPeakError: 0 });
  });

  it('the recorded OOM replays as an OOM (exit 1) and --conf shows what a setting would have done', () => {
    const def = run([snap('fragmentation.p4.pickle')]);
    expect(def.code).toBe(1);
    expect(def.stdout).toMatch(/peak reserved\s+900\.00 MiB\s+900\.00 MiB {2}\(\+0\.0%\)/);
    expect(def.stdout).toContain('Tried to allocate 200.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 124.00 MiB is free.');
    const cured = run([snap('fragmentation.p4.pickle'), '--conf', 'expandable_segments:True', '--json']);
    expect(cured.code).toBe(0);
    expect(JSON.parse(cured.stdout).fidelity).toMatchObject({ conf: 'expandable_segments:True', recorded: { ooms: 1 }, replayed: { ooms: 0, deviceAllocs: 2 } });
  });

  it('--compare starts with the recorded run', () => {
    const r = run([snap('fragmentation.p4.pickle'), '--compare']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^ {2}recorded run\s+1 OOM; peak reserved 900\.00 MiB, 1 device allocations$/);
    expect(r.stdout).toMatch(/expandable_segments:True\s+no OOM; peak reserved 900\.00 MiB, final 700\.00 MiB/);
  });

  const truncated = file('cut.pickle', '');
  writeFileSync(truncated, readFileSync(snap('classic.p4.pickle')).subarray(0, 500));
  it.each([
    [[snap('ordered-dict.p2.pickle')], /^error: .*ordered-dict\.p2\.pickle: GLOBAL \(0x63\) at byte 2: .*nothing is run$/],
    [[truncated], /^error: .*cut\.pickle: the file ends at byte 500 before the STOP opcode: the pickle is truncated$/],
    [[snap('plain.p4.pickle')], /^error: .*plain\.p4\.pickle: no 'device_traces' list/],
    [[snap('classic.p4.pickle'), '--device', '1'], /^error: .*no trace for device 1 \(devices with entries: 0\)$/],
    [[snap('classic.p4.pickle'), '--device', 'gpu0'], /^error: --device must be a GPU index/],
    [['classic', '--device', '0'], /^error: --device applies to a snapshot pickle or memory-history JSON/],
  ])('bad snapshot input %j exits 2 with one line on stderr', (args, re) => {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stderr.trimEnd()).toMatch(re);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('a pickle on stdin is refused with a pointer to the file form', () => {
    const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/allocator.ts', '-'], { input: readFileSync(snap('classic.p4.pickle')), encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr.trimEnd()).toBe('error: stdin looks like a snapshot pickle: give its file path instead (stdin is read as text)');
  });
});
