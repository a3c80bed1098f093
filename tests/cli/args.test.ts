import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { parseArgs } from '../../src/cli/args';
import { quoteArg } from '../../src/cli/output';
import { main } from '../../src/cli/estimate';
import { ALL_KEYS } from '../../src/core/scenario';

describe('parseArgs', () => {
  test('--key value and --key=value; bare boolean architecture flags', () => {
    const r = parseArgs(['--batch', '4', '--weights=nf4', '--model', 'custom', '--tied', '--hidden', '64', '--json']);
    expect(r).toEqual({ ok: true, args: { record: { batch: '4', weights: 'nf4', model: 'custom', tied: 'true', hidden: '64' }, json: true, help: false, recommend: false, solve: false, url: null } });
  });

  test('one URL-looking positional is a share link', () => {
    const r = parseArgs(['?v=1&batch=2', '--json']);
    expect(r.ok && r.args.url).toBe('?v=1&batch=2');
    expect(parseArgs(['?v=1', '--batch', '2']).ok).toBe(false);
  });
});

describe('error lines never carry raw control characters', () => {
  const error = (argv: string[]) => {
    const r = parseArgs(argv);
    return r.ok ? '' : r.error;
  };
  test('a newline argument is escaped: one line naming "\\n"', () => {
    expect(error(['\n'])).toBe('unexpected argument "\\n" (a share URL must be the only argument besides --json)');
  });
  test('an unknown flag with CR LF or an ESC sequence is JSON-quoted', () => {
    expect(error(['--x\r\ny'])).toBe('unknown flag "--x\\r\\ny"; see --help');
    expect(error(['\u001b[2J'])).toContain('"\\u001b[2J"');
  });
  test('DEL, C1 CSI (U+009B) and U+2028 are escaped as \\uXXXX', () => {
    expect(quoteArg('a\u007fb\u009b2J\u2028', 60)).toBe('"a\\u007fb\\u009b2J\\u2028"');
  });
  test('printable text keeps its old form; long text is cut at 60 code points without splitting a surrogate pair', () => {
    expect(error(['stray'])).toContain("unexpected argument 'stray'");
    expect(error(['--bach', '4'])).toBe('unknown flag --bach (did you mean --batch?); see --help');
    expect(quoteArg('😀'.repeat(70), 60)).toBe(`'${'😀'.repeat(60)}…'`);
  });
  test('--grad-accum and --grad-zero are flags like every schema key', () => {
    const r = parseArgs(['--grad-accum', '8', '--grad-zero=zeros']);
    expect(r.ok && r.args.record).toEqual({ 'grad-accum': '8', 'grad-zero': 'zeros' });
  });
});

describe('CLI properties (fast-check)', () => {
  const token = fc.oneof(
    fc.constantFrom(...ALL_KEYS.map((k) => `--${k}`), '--json', '--help', '--', '-h', '--x', '--batch=2', '--gpu=24GiB'),
    fc.constantFrom('7b', '1', '0', '-1', 'all', 'nf4', 'training', 'qlora', 'llama.cpp', 'true', 'custom', '1e400', 'NaN', 'v=1&batch=2'),
    fc.string({ maxLength: 10 }),
  );
  test('random argv: never throws, exit 0 with output or exit 2 with exactly one error line', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(token, { maxLength: 8 }), async (argv) => {
        expect(() => parseArgs(argv)).not.toThrow();
        const r = await main(argv);
        expect([0, 2]).toContain(r.code);
        if (r.code === 2)
          expect(
            r.stderr
              .trimEnd()
              .split('\n')
              .filter((l) => l.startsWith('error:')),
          ).toHaveLength(1);
        else expect(r.stdout.length).toBeGreaterThan(0);
        // no number reads NaN or Infinity; a label the user typed may, where it is quoted back
        // ("model_type 'NaN' is not a family the calculator knows")
        expect(r.stdout.replace(/'[^'\n]*'/g, "''")).not.toMatch(/NaN|Infinity/);
      }),
      { numRuns: 1000 },
    );
  }, 120_000); // generous: thousands of cases on a loaded CI machine
});
