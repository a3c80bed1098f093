/**
 * The memory_stats() dict reader (src/core/allocator/stats-dict.ts) on hostile pastes: linear time on
 * inputs built against its one regular expression, a bounded number of entries kept, out-of-range and
 * negative values named as errors (never Infinity), and no throw on random edits of a real dict.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { MAX_STATS_KEYS, parseMemoryStats } from '../../src/core/allocator/stats-dict';
import { readPaste } from '../../src/core/allocator/paste';
import { assertFinite, mutated } from '../fuzz/scan';
import { cpuMs } from './budget';

const REAL = readFileSync(new URL('../fixtures/memory-stats/fragmentation-oom.txt', import.meta.url), 'utf8');
const N = 1_500_000;
const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length));

describe('memory_stats() reader on adversarial text', () => {
  test.each([
    ['keys with no value', fill("'allocated_bytes.all.current': ")],
    ['an unclosed quote before 200-character keys', fill(`'${'a'.repeat(250)} `)],
    ['digit runs ending in a dot', fill(`'k': ${'7'.repeat(5000)}.`)],
    ['quotes only', fill("'")],
    ['separators and minus signs', fill(":-,'")],
  ])('1.5 MB of %s reads in under 1.5 s of CPU', (_, text) => {
    const [r, ms] = cpuMs(() => parseMemoryStats(text));
    expect(ms).toBeLessThan(1500);
    assertFinite('parseMemoryStats', r);
  });

  test(`a million distinct entries: at most ${MAX_STATS_KEYS} kept, the rest said to be there`, () => {
    const text = `{'allocated_bytes.all.current': 1, ${Array.from({ length: 1_000_000 }, (_, i) => `'k${i}': ${i}`).join(', ')}}`;
    const [r, ms] = cpuMs(() => parseMemoryStats(text));
    expect(ms).toBeLessThan(3000);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.entries).toBe(MAX_STATS_KEYS);
      expect(r.value.more).toBe(true);
    }
  });

  test.each([
    ['a 400-digit value', `'reserved_bytes.all.current': ${'9'.repeat(400)}`, 'stats-out-of-range'],
    ['2^64, one past a 64-bit count', "'reserved_bytes.all.current': 18446744073709551616", 'stats-out-of-range'],
    ['a negative byte count', "'inactive_split_bytes.all.current': -5", 'stats-negative'],
  ])('%s is an error naming the key', (_, entry, code) => {
    const [key = '', value = ''] = entry.split(': ');
    // the real dict with this one entry's value replaced
    const r = parseMemoryStats(REAL.replace(new RegExp(`${key.replace(/\./g, '\\.')}, \\d+`), `${key}, ${value}`));
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message.code).toBe(code);
      expect(r.message.text).toMatch(/^(reserved|inactive_split)_bytes\.all\.current: /);
      expect(JSON.stringify(r)).not.toMatch(/Infinity|NaN/);
    }
  });

  test('max_split_size −1 (unlimited) is not a negative count', () => {
    const r = parseMemoryStats(REAL);
    expect(r.ok && r.value.figures.maxSplitSize).toBeNull();
  });

  test('random edits of a real dict never throw, never give NaN or Infinity, never a negative figure', () => {
    fc.assert(
      fc.property(mutated(fc.constant(REAL)), (text) => {
        const r = readPaste(text);
        assertFinite('readPaste', r);
        if (r.kind === 'stats') for (const v of Object.values(r.stats.figures)) if (v !== null) expect(v).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });
});
