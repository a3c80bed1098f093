// Fuzz: the OOM-message decoder (src/core/allocator/oom-decoder.ts) and the memory_summary()
// reader (summary.ts). Inputs: arbitrary text, and real texts — every OOM template of
// docs/reference/allocator.md §7 printed by formatOomMessage for random figures, wrapped in tracebacks, ANSI
// colours and line breaks; memory_summary() tables printed by formatMemorySummary after random
// allocator work — with random edits. No throw, bounded time, no NaN/Infinity, sane figures.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { CachingAllocator } from '../../src/core/allocator/allocator';
import { GiB, MiB } from '../../src/core/units';
import { decodeOom, OOM_EXAMPLE } from '../../src/core/allocator/oom-decoder';
import { formatOomMessage, oomExceptionName, OOM_VERSIONS } from '../../src/core/allocator/oom-message';
import { toMemoryStats } from '../../src/core/allocator/stats';
import { formatMemorySummary, parseMemorySummary } from '../../src/core/allocator/summary';
import { LIMIT_MS, RUNS, assertFinite, mutated, soup, timed } from './scan';

const factsArb = fc
  .record({
    requested: fc.integer({ min: 1, max: 64 * GiB }),
    total: fc.integer({ min: GiB, max: 192 * GiB }),
    used: fc.double({ min: 0, max: 1, noNaN: true }),
    alloc: fc.double({ min: 0, max: 1, noNaN: true }),
    allowed: fc.option(fc.double({ min: 0.05, max: 1, noNaN: true })),
    version: fc.constantFrom(...OOM_VERSIONS),
    device: fc.integer({ min: 0, max: 15 }),
    nvml: fc.boolean(),
    pools: fc.constantFrom(0, 0, 2 * MiB, 300 * MiB),
  })
  .map((f) => {
    const reserved = Math.floor(f.total * f.used * 0.95);
    const allocated = Math.floor(reserved * f.alloc);
    const facts = {
      overOneEiB: false,
      requested: f.requested,
      allocSize: f.requested,
      total: f.total,
      free: f.total - reserved - Math.floor(f.total * 0.02),
      allocated,
      reserved,
      allowed: f.allowed === null ? null : Math.floor(f.total * f.allowed),
      processInUse: reserved + 500 * MiB,
    };
    return `${oomExceptionName(f.version)}: ${formatOomMessage(f.version, facts, { device: f.device, nvml: f.nvml, privatePools: Math.min(f.pools, reserved - allocated) })}`;
  });
/** The message as users paste it: after a traceback, coloured, or wrapped at a column. */
const pastedArb = fc.tuple(factsArb, fc.constantFrom('plain', 'traceback', 'ansi', 'wrapped', 'two'), fc.integer({ min: 20, max: 120 })).map(([m, how, col]) => {
  if (how === 'traceback') return `Traceback (most recent call last):\n  File "train.py", line 12, in <module>\n    loss.backward()\n${m}\n`;
  if (how === 'ansi') return `\u001b[31m${m}\u001b[0m`;
  if (how === 'wrapped') return m.replace(new RegExp(`(.{${col}})`, 'g'), '$1\n');
  if (how === 'two') return `${m}\n[rank1]: ${m}`;
  return m;
});
const oomTokens = [
  'CUDA out of memory.',
  'Tried to allocate',
  ' 20.00 MiB',
  ' GiB',
  ' KiB',
  ' bytes',
  'GPU 0 has a total capacity of',
  'of which',
  'is free.',
  'Process 1234 has',
  'memory in use.',
  'Of the allocated memory',
  'is allocated by PyTorch,',
  'reserved by PyTorch but unallocated.',
  'HIP',
  'CUDA error: out of memory',
  'more than 1EB memory.',
  'allowed;',
  '(GPU 0; ',
  'total capacity;',
  'already allocated;',
];

/** Checks one decode; returns it. */
function checkOom(text: string): ReturnType<typeof decodeOom> {
  const r = timed('decodeOom', LIMIT_MS, () => decodeOom(text));
  assertFinite('decodeOom', r);
  if (!r.found) return r;
  for (const o of [r.oom, ...r.others]) {
    for (const f of o.fields) expect(f.value).toBeGreaterThanOrEqual(0);
    for (const [k, v] of Object.entries(o.derived)) if (typeof v === 'number') expect(v, k).toBeGreaterThanOrEqual(0);
  }
  return r;
}

// memory_summary() tables from a real allocator state after a few random allocations and frees.
const summaryArb = fc.tuple(fc.array(fc.integer({ min: 1, max: 300 * MiB }), { minLength: 1, maxLength: 12 }), fc.boolean(), fc.integer({ min: 0, max: 7 })).map(([sizes, abbreviated, device]) => {
  const a = new CachingAllocator({ capacity: 8 * GiB, overhead: 0, fraction: null });
  sizes.forEach((s, i) => a.malloc(`t${i}`, s));
  sizes.forEach((_, i) => i % 3 === 0 && a.free(`t${i}`));
  return formatMemorySummary(toMemoryStats(a.stats, null), device, abbreviated);
});
/** 200 tables, built once; full tables cut to a 30-line window to keep each case cheap. */
const SUMMARIES = fc.sample(summaryArb, { numRuns: 200, seed: 7 }).map((t, i) => {
  const lines = t.split('\n');
  return lines.length > 40 ? lines.slice(i % (lines.length - 30), (i % (lines.length - 30)) + 30).join('\n') : t;
});
const summaryTokens = [
  '|',
  ' Allocated memory ',
  ' Reserved memory ',
  ' from large pool ',
  ' from small pool ',
  ' Non-releasable memory ',
  ' 86016 KiB ',
  ' 12 GiB ',
  ' 0 B ',
  ' 5 ',
  ' 12K ',
  '\n',
  '===',
];

function checkSummary(text: string): void {
  const r = timed('parseMemorySummary', LIMIT_MS, () => parseMemorySummary(text));
  assertFinite('parseMemorySummary', r);
  if (!r.ok) return;
  for (const row of r.value.rows) for (const c of [row.current, row.peak, row.allocated, row.freed]) expect(c.value).toBeGreaterThanOrEqual(0);
}

describe(`OOM decoder and memory_summary() reader fuzz (${RUNS} cases each)`, () => {
  test('OOM decoder: arbitrary text, real messages of every release as pasted (decoded completely), and edited ones', () => {
    const input = fc.oneof(
      fc.string({ maxLength: 400, unit: 'binary' }).map((text) => ({ text, real: false })),
      soup(oomTokens, 50).map((text) => ({ text, real: false })),
      pastedArb.map((text) => ({ text, real: true })),
      { weight: 2, arbitrary: mutated(fc.oneof(pastedArb, fc.constant(OOM_EXAMPLE))).map((text) => ({ text, real: false })) },
    );
    fc.assert(
      fc.property(input, ({ text, real }) => {
        const r = checkOom(text);
        if (real) {
          expect(r.found && r.oom.complete).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('memory_summary() reader: arbitrary text and real tables with random edits', () => {
    const input = fc.oneof(fc.string({ maxLength: 400, unit: 'binary' }), soup(summaryTokens, 80), { weight: 2, arbitrary: mutated(fc.constantFrom(...SUMMARIES)) });
    fc.assert(fc.property(input, checkSummary), { numRuns: RUNS });
  });
});
