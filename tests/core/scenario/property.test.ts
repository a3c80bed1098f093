import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { ALL_KEYS, parseScenario, serializeScenario, SCENARIO_FIELDS } from '../../../src/core/scenario';
import { PRESETS } from '../../../src/core/model/presets';
import { estimate } from '../../../src/core/estimate';
import type { Scenario } from '../../../src/core/types';

/** Values that look plausible for some key, plus arbitrary junk. */
const value = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '2',
    '3',
    '4',
    '8',
    '16',
    '32',
    '64',
    '4096',
    '65536',
    '99999999',
    'all',
    'auto',
    'true',
    'false',
    '7b',
    '1.5e9',
    '0.5',
    '0.9',
    '1',
    'custom',
    '',
    'q,v',
    'all',
    'gate,up,down',
    '24GiB',
    'rtx-4090',
    'a100-80gb-sxm4',
    'NaN',
    'Infinity',
    '-1',
    '1e308',
    '__proto__',
    '<script>alert(1)</script>',
  ),
  ...SCENARIO_FIELDS.flatMap((f) => (f.kind.type === 'enum' ? [fc.constantFrom(...f.kind.values)] : [])),
  fc.constantFrom(...PRESETS.map((p) => p.id)),
  fc.string({ maxLength: 30 }),
  fc.integer({ min: -10, max: 200_000 }).map(String),
);
const key = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...ALL_KEYS) }, { weight: 1, arbitrary: fc.string({ maxLength: 12 }) });
const record = fc.dictionary(key, value, { maxKeys: 14 });

function allFinite(s: Scenario): boolean {
  const nums: unknown[] = [s.params, s.batch, s.prompt, s.gen, s.seq, s.loraRank, s.gpus, s.zero, s.tp, s.pp, s.gpuUtil, s.ngl, s.ubatch];
  for (const v of Object.values(s.arch ?? {})) nums.push(...(typeof v === 'object' && v ? Object.values(v) : [v]));
  return nums.every((n) => n === null || typeof n !== 'number' || Number.isFinite(n));
}

describe('parseScenario properties (fast-check)', () => {
  test('random records: never throws, finite values, allowed enums, parse∘serialize is the identity', () => {
    fc.assert(
      fc.property(record, (rec) => {
        const { scenario: s } = parseScenario(rec);
        expect(allFinite(s)).toBe(true);
        for (const f of SCENARIO_FIELDS) {
          if (f.kind.type === 'enum') expect(f.kind.values).toContain(String(s[f.prop] as string | number));
        }
        // a typed GPU count that tp·pp does not divide is kept, as the form keeps it, and refused by
        // the estimate in words (rules.ts typedClash); every other scenario splits evenly
        if (s.gpus % (s.tp * s.pp) !== 0) {
          const r = estimate(s);
          expect(r.ok).toBe(false);
          if (!r.ok) expect(r.errors.map((e) => e.message).join(' ')).toMatch(/GPUs cannot be split/);
        }
        const again = parseScenario(serializeScenario(s));
        expect(again.errors).toEqual([]);
        expect(again.scenario).toEqual(s);
      }),
      { numRuns: 10_000, ...(process.env.FC_SEED ? { seed: Number(process.env.FC_SEED), path: process.env.FC_PATH } : {}) },
    );
  }, 120_000); // generous: thousands of cases on a loaded CI machine
});
