// Fuzz: the estimate CLI's flag parser (src/cli/args.ts parseArgs) and what main() does with its
// record (parseScenario, then estimate), called in-process. Random argv, flag-shaped argv, and
// well-formed argv with random edits: no throw, a one-line error or a record of known keys, and
// finite estimates for every scenario the flags produce.
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parseArgs } from '../../src/cli/args';
import { estimate } from '../../src/core/estimate';
import { ALL_KEYS, parseScenario } from '../../src/core/scenario';
import { LIMIT_MS, RUNS, assertFinite, mutated, timed } from './scan';
import { pairArb, recordArb } from './scenario-arb';

const KEYS = new Set(ALL_KEYS);

const flagArb = fc.oneof(
  pairArb.map(([k, v]) => [`--${k}=${v}`]),
  pairArb.map(([k, v]) => [`--${k}`, v]),
  fc.constantFrom(['--json'], ['--help'], ['-h'], ['--'], ['--json=1'], ['--tied'], ['--gated'], ['--batch'], ['--nope', 'x'], ['?model=custom&hidden=64']),
  fc.string({ maxLength: 20 }).map((s) => [s]),
  fc.string({ maxLength: 12 }).map((s) => [`--${s}`]),
);
const argvArb = fc.array(flagArb, { maxLength: 10 }).map((a) => a.flat());
/** Well-formed argv (one `--key=value` per key) as one string, edited, then split on spaces. */
const editedArgv = mutated(
  recordArb().map((r) =>
    Object.entries(r)
      .map(([k, v]) => `--${k}=${v}`)
      .join(' '),
  ),
).map((s) => s.split(' '));

/** Checks one argv end to end; returns what parseArgs made of it. */
function check(argv: string[]): ReturnType<typeof parseArgs> {
  const r = timed('parseArgs', LIMIT_MS, () => parseArgs(argv));
  if (!r.ok) {
    expect(r.error.length).toBeGreaterThan(0);
    expect(r.error).not.toContain('\n');
    return r;
  }
  for (const k of Object.keys(r.args.record)) expect(KEYS.has(k)).toBe(true);
  const parsed = timed('parseScenario', LIMIT_MS, () => parseScenario(r.args.record));
  assertFinite('parseScenario', parsed);
  if (parsed.errors.length > 0) return r;
  const est = timed('estimate', LIMIT_MS, () => estimate(parsed.scenario));
  assertFinite('estimate', est);
  if (est.ok) expect(est.value.deviceBytes).toBeGreaterThanOrEqual(est.value.reservedBytes);
  return r;
}

describe(`estimate CLI flag parsing fuzz (${RUNS} cases)`, () => {
  test('random, flag-shaped and edited argv; a record written as --key=value flags reads back unchanged', () => {
    const input = fc.oneof(
      argvArb.map((argv) => ({ argv, record: null })),
      editedArgv.map((argv) => ({ argv, record: null })),
      recordArb().map((record) => ({ argv: Object.entries(record).map(([k, v]) => `--${k}=${v}`), record })),
    );
    fc.assert(
      fc.property(input, ({ argv, record }) => {
        const r = check(argv);
        if (record === null) return;
        expect(r.ok && { ...r.args.record }).toEqual({ ...record });
      }),
      { numRuns: RUNS, examples: [[{ argv: ['\n'], record: null }]] },
    ); // regression: .tmp/requests/trust.md §2 (fixed)
  });
});
