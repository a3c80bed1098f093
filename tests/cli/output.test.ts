// Hostile user text in CLI output: ESC[31m (a terminal colour sequence), CR (rewrites the line),
// BEL (rings) and a lone surrogate (would be written as U+FFFD) must come out escaped, JSON-style.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanOutput, oneLine, quoteArg } from '../../src/cli/output';
import { main as oomMain } from '../../src/cli/oom';
import { main as allocatorMain } from '../../src/cli/allocator';
import { main as estimateMain } from '../../src/cli/estimate';
import { runNetwork } from '../../src/cli/network';
import { spawnCli } from './allocator-cli-spawn';

const H = '\u001b[31mred\r\u0007\ud800';
/** H as JSON writes it, each escape spelled out by hand */
const H_ESCAPED = '\\u001b[31mred\\r\\u0007\\ud800';
const noStdin = () => '';

/** Raw C0 (except the final newline), DEL, C1, or a lone surrogate. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const RAW = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function oneClearLine(r: { code: number | null; stdout: string; stderr: string }): string {
  expect(r.code).toBe(2);
  expect(r.stdout).toBe('');
  expect(r.stderr.endsWith('\n')).toBe(true);
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stderr).toMatch(/^error: /);
  expect(r.stderr).not.toMatch(RAW);
  return r.stderr;
}

describe('the sanitizer', () => {
  test('escapes ESC, CR, BEL and a lone surrogate; keeps printable text and surrogate pairs', () => {
    expect(oneLine(`a${H}b`)).toBe(`a${H_ESCAPED}b`);
    expect(oneLine('résumé 😀 显存')).toBe('résumé 😀 显存');
    expect(quoteArg(H, 60)).toBe(`"${H_ESCAPED}"`);
    expect(quoteArg('plain.log', 60)).toBe("'plain.log'");
  });

  test('bidi overrides and U+2028 are escaped; output keeps its own line breaks, a one-line error does not', () => {
    expect(oneLine('a\u202eb\u2028c')).toBe('a\\u202eb\\u2028c');
    expect(cleanOutput('line 1\nline\u001b 2\n')).toBe('line 1\nline\\u001b 2\n');
    expect(oneLine('line 1\nline 2')).toBe('line 1\\nline 2');
  });
});

describe('every CLI error path: exit 2, one clear line, the hostile text escaped', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
  const cases: [string, () => { code: number; stdout: string; stderr: string } | Promise<{ code: number; stdout: string; stderr: string }>][] = [
    ['oom: unreadable file name', () => oomMain([`/nonexistent/${H}.log`], noStdin)],
    ['oom: unknown flag', () => oomMain([`--x${H}`], noStdin)],
    ['allocator: unreadable trace file name', () => allocatorMain([`/nonexistent/${H}`], noStdin)],
    ['allocator: --capacity value', () => allocatorMain(['classic', '--capacity', H], noStdin)],
    ['allocator: --fraction value', () => allocatorMain(['classic', '--fraction', H], noStdin)],
    ['allocator: --conf value', () => allocatorMain(['classic', '--conf', `max_split_size_mb:${H}`], noStdin)],
    ['allocator: trace line from stdin', () => allocatorMain(['-'], () => `alloc a 4${H}\n`)],
    ['estimate: unreadable config file', () => estimateMain(['--model', `/nonexistent/${H}.json`])],
    ['estimate: unknown flag', () => estimateMain([`--x${H}`])],
    ['network: preset or file name', () => runNetwork(['--network', H])],
    ['network: --gpu value', () => runNetwork(['--network', 'resnet-50', '--gpu', H])],
    ['network: --batch value', () => runNetwork(['--network', 'resnet-50', '--batch', H])],
    ['network: --input value', () => runNetwork(['--network', 'resnet-50', '--input', H])],
    ['network: stray argument', () => runNetwork(['--network', 'resnet-50', H])],
    ['network: layer text', () => runNetwork(['--network', `linear 4 4; ${H}`, '--input', '4'])],
  ];
  test.each(cases)('%s', async (_name, run) => {
    const err = oneClearLine(await run());
    // the escapes, in whatever part of H the message quotes
    expect(err).toMatch(/\\u001b|\\r|\\u0007|\\ud800/);
  });

  test('scenario values: the core already masks each unsafe character as "?" (src/core/scenario)', async () => {
    expect(oneClearLine(await estimateMain(['--weights', H]))).toMatch(/^error: weights: '\?\[31mred\?\?\?' is not valid/);
    expect(oneClearLine(await estimateMain(['--gpu', H]))).toMatch(/^error: gpu: '\?\[31mred\?\?\?' is not valid/);
  });

  test('a trace file whose name holds ESC, CR and BEL: the error names it escaped', () => {
    const name = join(dir, 'bad\u001b[31m\r\u0007.txt');
    writeFileSync(name, 'alloc a 3 parsecs\n');
    const err = oneClearLine(allocatorMain([name], noStdin));
    expect(err).toContain('bad\\u001b[31m\\r\\u0007.txt');
    expect(err).toContain("unknown unit 'parsecs'");
  });
});

describe('as processes: nothing raw reaches the terminal', () => {
  test('the allocator header names a hostile file escaped on stdout; a hostile flag value stays escaped on stderr', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hostile-'));
    const name = join(dir, 'ok\u001b[31m\r\u0007.txt');
    writeFileSync(name, 'capacity 1GiB\nalloc a 4MiB\nfree a\n');
    const ok = spawnCli('src/cli/allocator.ts', [name]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).not.toMatch(RAW);
    expect(ok.stdout).toContain('ok\\u001b[31m\\r\\u0007.txt": 2 events');
    const bad = spawnCli('src/cli/oom.ts', ['--x\u001b[31m\r\u0007']);
    oneClearLine(bad);
    expect(bad.stderr).toContain('--x\\u001b[31m\\r\\u0007');
  });
});
