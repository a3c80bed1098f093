// Fuzz: the memory_stats() dict reader (src/core/allocator/stats-dict.ts) behind the pasted-text sniffer
// (paste.ts). Inputs: arbitrary text, token soup of the printed forms, and random edits of the real dicts
// of tests/fixtures/memory-stats. No throw, bounded time, no NaN/Infinity, no negative figure.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { readPaste } from '../../src/core/allocator/paste';
import { LIMIT_MS, RUNS, assertFinite, mutated, soup, timed } from './scan';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/memory-stats/${name}`, import.meta.url), 'utf8');
const REAL = [fixture('fragmentation-oom.txt'), fixture('retries-pprint.txt')];
const tokens = [
  'OrderedDict([',
  '])',
  "('",
  "', ",
  '{',
  '}',
  "'",
  '"',
  ': ',
  ', ',
  '\n ',
  '-1',
  '0',
  '18446744073709551615',
  'allocated_bytes.all.current',
  'reserved_bytes.all.peak',
  'inactive_split_bytes.all.current',
  'num_alloc_retries',
  'max_split_size',
];

describe(`memory_stats() reader fuzz (${RUNS} cases)`, () => {
  test('arbitrary, token-soup and edited real dicts', () => {
    const input = fc.oneof(fc.string({ maxLength: 400, unit: 'binary' }), soup(tokens, 60), { weight: 2, arbitrary: mutated(fc.constantFrom(...REAL)) });
    fc.assert(
      fc.property(input, (text) => {
        const r = timed('readPaste', LIMIT_MS, () => readPaste(text));
        assertFinite('readPaste', r);
        if (r.kind === 'stats') for (const [k, v] of Object.entries(r.stats.figures)) if (v !== null) expect(v, k).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: RUNS },
    );
  });
});
