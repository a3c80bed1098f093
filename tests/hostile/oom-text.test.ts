/**
 * Issue #16 points 3, 5 and 8 (oom --json bounded) for the OOM decoder and the memory_summary()
 * reader: linear time on adversarial pastes, out-of-range figures named as errors (never
 * Infinity), and a bounded list of decoded messages.
 */
import { describe, expect, test } from 'vitest';
import { decodeOom, MAX_OOM_MESSAGES, MAX_OOM_TEXT, OOM_EXAMPLE } from '../../src/core/allocator/oom-decoder';
import { parseMemorySummary } from '../../src/core/allocator/summary';
import { main as oomCli } from '../../src/cli/oom';
import { cpuMs } from './budget';

const MESSAGE = OOM_EXAMPLE.replace(' …', '');

describe('OOM decoder on adversarial text', () => {
  test('1.5 MB of newline-free near-matches decodes in under 1 s', () => {
    // each near-match is an anchor: the decoder used to search back for the line start from every one (O(n²): 12.6 s)
    const near = 'CUDA out of memory. Tried to allocate x. ';
    const text = near.repeat(Math.ceil(1_500_000 / near.length));
    expect(text.length).toBeGreaterThanOrEqual(1_500_000);
    const [r, ms] = cpuMs(() => decodeOom(text));
    expect(ms).toBeLessThan(1000);
    expect(r.found).toBe(true);
    if (r.found) {
      // every near-match is counted, but only the first MAX_OOM_MESSAGES are decoded and kept
      expect(r.count).toBe(Math.ceil(1_500_000 / near.length));
      expect(r.others.length).toBe(MAX_OOM_MESSAGES - 1);
    }
  });

  test('a message followed by a 4,000-digit run on one line decodes in linear time', () => {
    // the old-form "reserved" figure was matched unanchored: \d+ from every digit of a run backtracks O(run²)
    const head = 'RuntimeError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 23.65 GiB total capacity; 22.94 GiB already allocated; 12.81 MiB free; ';
    const text = `${head}${'7'.repeat(3900)}`.repeat(400);
    const [r, ms] = cpuMs(() => decodeOom(text));
    expect(ms).toBeLessThan(1000);
    expect(r.found).toBe(true);
  });

  test('text longer than the cap is refused with a message saying so', () => {
    const [r, ms] = cpuMs(() => decodeOom(' '.repeat(MAX_OOM_TEXT + 1)));
    expect(ms).toBeLessThan(1000);
    expect(r.found).toBe(false);
    if (!r.found) {
      expect(r.message.code).toBe('oom-too-long');
      expect(r.message.text).toContain('64 MiB');
    }
  });

  test.each([
    ['requested', MESSAGE.replace('20.00 MiB', `${'9'.repeat(400)}.00 MiB`)],
    ['total', MESSAGE.replace('23.65 GiB', `${'9'.repeat(400)} GiB`)],
    ['device', MESSAGE.replace('GPU 0', `GPU ${'9'.repeat(400)}`)],
    // 2^63 bytes = 8 EiB = 8,589,934,592 GiB: one GiB more is beyond a signed 64-bit byte count
    ['allocated', MESSAGE.replace('22.94 GiB', '8589934593 GiB')],
  ])('a 400-digit (or > 2^63 B) %s figure is an error naming the field, never Infinity', (key, text) => {
    const r = decodeOom(text);
    expect(JSON.stringify(r)).not.toMatch(/Infinity|NaN|null,"text"/);
    expect(r.found).toBe(false);
    if (!r.found) {
      expect(r.message.code).toBe('oom-out-of-range');
      expect(r.message.params?.field).toBe(key);
      expect(r.message.text).toMatch(new RegExp(`^${key}: .* is out of range \\(at most `));
    }
  });

  test('largest in-range figure is still decoded: 8,589,934,592 GiB = 2^63 B', () => {
    const r = decodeOom(MESSAGE.replace('22.94 GiB', '8589934592 GiB'));
    expect(r.found && r.oom.fields.find((f) => f.key === 'allocated')?.value).toBe(2 ** 63);
  });

  test('oom --json on 20,000 messages stays bounded (it echoed every message back)', () => {
    const log = `${MESSAGE}\n`.repeat(20_000);
    const r = oomCli(['--json'], () => log);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.count).toBe(20_000);
    expect(out.others.length).toBe(MAX_OOM_MESSAGES - 1);
    // ~MAX_OOM_MESSAGES decoded records of a few kB each, not 20,000
    expect(r.stdout.length).toBeLessThan(MAX_OOM_MESSAGES * 8000);
    const text = oomCli([], () => log);
    expect(text.stdout).toContain('(19999 more out-of-memory messages in the input; --json lists the first 99)');
  });

  test('the CLI names the field of an out-of-range figure', () => {
    const r = oomCli([], () => MESSAGE.replace('20.00 MiB', `${'9'.repeat(400)}.00 MiB`));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: requested: 9{20}… MiB is out of range \(at most 8 EiB\)\n$/);
  });
});

describe('memory_summary() reader on adversarial text', () => {
  const row = (label: string, cur: string) => `| ${label.padEnd(21)} | ${cur} |    0 B     |    0 B     |    0 B     |`;

  test('a 400-digit cell is an error naming the row and column', () => {
    const r = parseMemorySummary([row('Allocated memory', `${'9'.repeat(400)} GiB`), row('GPU reserved memory', '   2 GiB   ')].join('\n'));
    expect(JSON.stringify(r)).not.toMatch(/Infinity|NaN/);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.message.code).toBe('summary-out-of-range');
      expect(r.message.text).toMatch(/^Allocated memory, Cur Usage: 9{20}… GiB is out of range \(at most 8 EiB\)$/);
    }
  });

  test('a 400-digit device id or OOM count is an error naming it', () => {
    const r = parseMemorySummary(`PyTorch CUDA memory summary, device ID ${'9'.repeat(400)}\n${row('Allocated memory', '   1 GiB   ')}`);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message.text).toMatch(/^device ID: 9{20}… is out of range/);
  });

  test('1.5 MB of whitespace and pipes on one line reads in under 1 s', () => {
    const text = `|${' '.repeat(500_000)}|${' '.repeat(500_000)}|${' \t'.repeat(250_000)}`;
    const [r, ms] = cpuMs(() => parseMemorySummary(text));
    expect(ms).toBeLessThan(1000);
    expect(r.ok).toBe(false);
  });
});
