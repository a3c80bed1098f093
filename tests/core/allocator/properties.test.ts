// Property tests (fast-check, ≥ 1,000 runs each): random traces keep every invariant of the
// allocator; parsers and decoders never throw on random text; printed figures decode back.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CachingAllocator } from '../../../src/core/allocator/allocator';
import { parseAllocConf } from '../../../src/core/allocator/config';
import { kOneEiB } from '../../../src/core/allocator/constants';
import { GiB, MiB } from '../../../src/core/units';
import { decodeOom } from '../../../src/core/allocator/oom-decoder';
import { formatOomMessage, OOM_VERSIONS } from '../../../src/core/allocator/oom-message';
import { formatMemorySummary, parseMemorySummary } from '../../../src/core/allocator/summary';
import { parseTrace } from '../../../src/core/allocator/trace';
import { importMemoryHistory } from '../../../src/core/allocator/history-import';
import { simulateTrace, viewAt } from '../../../src/core/allocator/run';
import { viewAllocator } from '../../../src/core/allocator/view';
import type { MemoryStatKey } from '../../../src/core/allocator/stats';
import { invariantViolations } from './invariants';

const RUNS = 1000;

const sizeArb = fc.oneof(
  fc.integer({ min: 1, max: MiB }),
  fc.integer({ min: MiB + 1, max: 10 * MiB }),
  fc.integer({ min: 10 * MiB, max: 300 * MiB }),
  fc.constantFrom(4 * MiB, 20 * MiB, 100 * MiB, 512),
);
const opArb = fc.oneof(
  // `at`: a recorded segment address (history-import.ts), a few 2 MiB steps from the model's own
  // first address, so that recorded and chosen ranges collide
  {
    weight: 6,
    arbitrary: fc
      .record({ size: sizeArb, at: fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }) })
      .map(({ size, at }) => ({ op: 'alloc' as const, size, at: at === undefined ? undefined : 0x7f0000000000 + at * 2 * MiB })),
  },
  { weight: 4, arbitrary: fc.nat().map((pick) => ({ op: 'free' as const, pick })) },
  { weight: 1, arbitrary: fc.constant({ op: 'empty_cache' as const }) },
);
const confArb = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 21, max: 400 }).map((m) => `max_split_size_mb:${m}`),
  fc.constant('expandable_segments:True'),
  fc.constantFrom('roundup_power2_divisions:4', 'roundup_power2_divisions:[64:8,256:4,>:1]'),
  fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((g) => `garbage_collection_threshold:${g.toFixed(2)}`),
  fc.integer({ min: 21, max: 200 }).map((m) => `max_split_size_mb:${m},expandable_segments:True`),
);
const scenarioArb = fc.record({
  conf: confArb,
  capacity: fc.integer({ min: 64, max: 4096 }).map((m) => m * MiB),
  overheadPct: fc.integer({ min: 0, max: 30 }),
  fraction: fc.option(fc.double({ min: 0.3, max: 1, noNaN: true }), { nil: null }),
  ops: fc.array(opArb, { maxLength: 80 }),
});

describe('random traces never break the allocator invariants', () => {
  it('blocks tile segments, free neighbours merged, stats equal sums over blocks, reserved ≥ allocated', () => {
    fc.assert(
      fc.property(scenarioArb, ({ conf, capacity, overheadPct, fraction, ops }) => {
        const c = parseAllocConf(conf);
        if (!c.ok) throw new Error(c.errors[0].message);
        const overhead = Math.floor((capacity * overheadPct) / 100);
        const a = new CachingAllocator({ capacity, overhead, fraction }, c.value);
        const live: string[] = [];
        let n = 0;
        for (const op of ops) {
          if (op.op === 'alloc') {
            const name = `t${n++}`;
            const r = a.malloc(name, op.size, op.at);
            if (r.ok) live.push(name);
            else expect(r.oom.allocated).toBeLessThanOrEqual(r.oom.reserved);
          } else if (op.op === 'free' && live.length) {
            expect(a.free(live.splice(op.pick % live.length, 1)[0])).toBe(true);
          } else if (op.op === 'empty_cache') a.emptyCache();
          const bad = invariantViolations(a);
          if (bad.length) throw new Error(`${conf} after ${JSON.stringify(op)}: ${bad.join('; ')}`);
        }
        a.emptyCache();
        for (const name of live) a.free(name);
        a.emptyCache();
        // With every tensor freed, a flush returns all memory (whole free segments / whole pages).
        expect(viewAllocator(a).stats['allocated_bytes.all.current']).toBe(0);
        expect(a.reserved).toBe(0);
      }),
      { numRuns: RUNS },
    );
  });

  it('a clone replays identically (stepping back and forth is exact)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.nat(), ({ conf, capacity, ops }, cut) => {
        const lines = [`capacity ${capacity}`, ...(conf ? [`conf ${conf}`] : [])];
        const live: string[] = [];
        const ats = new Map<string, number>();
        ops.forEach((op, i) => {
          if (op.op === 'alloc') {
            lines.push(`alloc t${i} ${op.size}`);
            live.push(`t${i}`);
            if (op.at !== undefined) ats.set(`t${i}`, op.at);
          } else if (op.op === 'free' && live.length) lines.push(`free ${live.splice(op.pick % live.length, 1)[0]}`);
          else if (op.op === 'empty_cache') lines.push('empty_cache');
        });
        const p = parseTrace(lines.join('\n'));
        if (!p.ok) throw new Error(p.errors[0].message);
        for (const e of p.trace.events) if (e.op === 'alloc' && ats.has(e.name)) e.segmentAt = ats.get(e.name);
        const run = simulateTrace(p.trace, { checkpointEvery: 7 });
        if (!run.ok) throw new Error(run.errors[0].message);
        const k = p.trace.events.length ? cut % p.trace.events.length : -1;
        const prefix = simulateTrace({ ...p.trace, events: p.trace.events.slice(0, k + 1) });
        expect(prefix.ok && viewAt(run.value, k)).toEqual(prefix.ok && prefix.value.final);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('random text never throws', () => {
  const textArb = fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .array(
        fc.constantFrom(
          'CUDA out of memory. ',
          'Tried to allocate ',
          '12.00 MiB',
          'GiB',
          '. GPU 0 has a total capacity of ',
          ' is free. ',
          'Process 1 has ',
          '(GPU 0; ',
          'allowed; ',
          '| Allocated memory |',
          ' 12 KiB ',
          '\n',
          '\x1b[31m',
          'alloc x ',
          'free x',
          'capacity ',
          '{"device_traces": [[',
          '{"action": "alloc", "addr": 1, "size": 2}',
          ']]}',
          ',',
          ':',
        ),
        { maxLength: 40 },
      )
      .map((a) => a.join('')),
  );
  it('decodeOom, parseMemorySummary, parseTrace, parseAllocConf, importMemoryHistory', () => {
    fc.assert(
      fc.property(textArb, (t) => {
        const o = decodeOom(t);
        if (o.found) for (const f of o.oom.fields) expect(Number.isFinite(f.value)).toBe(true);
        parseMemorySummary(t);
        const tr = parseTrace(t);
        if (tr.ok) simulateTrace(tr.trace);
        parseAllocConf(t);
        importMemoryHistory(t);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('printed figures decode back within their printing precision', () => {
  it('OOM messages of every version', () => {
    const factsArb = fc.record({
      total: fc.integer({ min: 1, max: 192 }).map((g) => g * GiB),
      a: fc.double({ min: 0, max: 1, noNaN: true }),
      u: fc.double({ min: 0, max: 1, noNaN: true }),
      req: fc.integer({ min: 1, max: 2 ** 40 }),
      v: fc.constantFrom(...OOM_VERSIONS),
    });
    fc.assert(
      fc.property(factsArb, ({ total, a, u, req, v }) => {
        const reserved = Math.floor(total * 0.9 * a);
        const allocated = Math.floor(reserved * (1 - u));
        const facts = { overOneEiB: false, requested: req, allocSize: req, total, free: total - reserved, allocated, reserved, allowed: null, processInUse: reserved };
        const r = decodeOom(formatOomMessage(v, facts, { device: 0, nvml: true, privatePools: 0 }));
        expect(r.found).toBe(true);
        if (!r.found) return;
        const tol = (x: number) => Math.max(1, 0.0051 * 2 ** (10 * Math.ceil(Math.log2(Math.max(2, x)) / 10)));
        const get = (k: string) => r.oom.fields.find((f) => f.key === k)?.value ?? NaN;
        expect(Math.abs(get('requested') - req)).toBeLessThanOrEqual(tol(req));
        expect(Math.abs(get('total') - total)).toBeLessThanOrEqual(tol(total));
        expect(Math.abs(get('allocated') - allocated)).toBeLessThanOrEqual(tol(allocated));
        expect(r.oom.complete).toBe(true);
        expect(req >= kOneEiB).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });
});

it('memory_summary tables read back within one printed unit', () => {
  fc.assert(
    fc.property(fc.array(sizeArb, { maxLength: 30 }), (sizes) => {
      const a = new CachingAllocator({ capacity: 16 * GiB, overhead: 0, fraction: null });
      sizes.forEach((s, i) => a.malloc(`t${i}`, s));
      sizes.forEach((_, i) => i % 2 === 0 && a.free(`t${i}`));
      const stats = viewAllocator(a).stats;
      const r = parseMemorySummary(formatMemorySummary(stats));
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      for (const row of r.value.rows) {
        const key = (row.stat.startsWith('oversize') ? `${row.stat}.current` : `${row.stat}.${row.pool}.current`) as MemoryStatKey;
        const truth = stats[key];
        expect(truth).toBeGreaterThanOrEqual(row.current.value);
        expect(truth).toBeLessThan(row.current.value + row.current.precision);
      }
    }),
    { numRuns: RUNS },
  );
});

it('long whitespace runs do not make any reader backtrack (each input well under a second)', () => {
  const sp = ' '.repeat(200_000);
  const inputs: [(s: string) => unknown, string][] = [
    [parseTrace, `alloc a 1${sp}x#`],
    [parseMemorySummary, `| Allocated memory |  12${sp}x | 1 KiB | 1 KiB | 1 KiB |`],
    [decodeOom, `CUDA out of memory. Tried to allocate${sp}2.00 MiB${sp}(GPU 0;${sp}`],
    [parseAllocConf, `max_split_size_mb${sp}:${sp}x`],
  ];
  for (const [fn, text] of inputs) {
    const t0 = performance.now();
    fn(text);
    expect(performance.now() - t0).toBeLessThan(1000);
  }
});
