/**
 * Issue #16 point 3: every parser of pasted or linked text runs in linear time. Each parser gets
 * ~200 KB inputs built to make a backtracking regular expression go quadratic (long runs of the
 * characters its quantifiers share, then a character that makes the match fail). A linear
 * parser takes milliseconds; a quadratic one takes minutes on 200 KB (the torchinfo row regex
 * took 35 s), so a CPU budget of 1.5 s per call separates them on any machine.
 */
import { describe, expect, test } from 'vitest';
import { parseAllocConf } from '../../src/core/allocator/config';
import { importMemoryHistory } from '../../src/core/allocator/history-import';
import { parseTrace } from '../../src/core/allocator/trace';
import { parseByteSize } from '../../src/core/allocator/size-text';
import { readPaste } from '../../src/core/allocator/paste';
import { importTorchRepr } from '../../src/core/layers/repr-import';
import { parseLayerText } from '../../src/core/layers/text';
import { importTorchinfo, isTorchinfo } from '../../src/core/layers/torchinfo-import';
import { parseNetworkJson } from '../../src/core/layers/validate';
import { decodeUrl } from '../../src/state/url-codec';
import { parseEdits } from '../../src/ui/layers/net-edits';
import { cpuMs } from './budget';

const N = 200_000;
const run = (c: string, tail: string) => `${c.repeat(N)}${tail}`;

/** Inputs that defeat the common super-linear shapes: `\s*\s*`, `\d*\.?\d+`, `(x|x)*`, nested quantifiers. */
const ADVERSARIAL: [string, string][] = [
  ['spaces then x', run(' ', 'x')],
  ['x, spaces, x', `x${run(' ', 'x')}`],
  ['tabs and spaces then (', run(' \t', '(')],
  ['digits then x', run('1', 'x')],
  ['digits after a dot then x', `0.${run('1', 'x')}`],
  ['box-drawing prefix then a name with no shape', `${run('│ ', '')}└─Conv2d: 1-1 x`],
  ['torchinfo row with a long whitespace gap', `Conv2d: 1-1 [1, 64, 112, 112]${run(' ', 'x')}`],
  ['torchinfo row with long whitespace in the shape', `Conv2d: 1-1 [${run(' ', 'x')}`],
  ['long name then (', `(a): ${run('a', '')}(`],
  ['repr head with long arguments', `(a): Conv2d(${run(' ', '')}x`],
  ['pipes', run('|', 'x')],
  ['commas and digits', run('1,', 'x')],
  ['equals signs', `a${run(' = ', '')}`],
  ['brackets', run('[', '')],
  ['parentheses', run('(', '')],
  ['ampersands and equals (query strings)', run('&a=', '')],
];

const PARSERS: [string, (s: string) => unknown][] = [
  ['torchinfo import', (s) => importTorchinfo(s, [3, 224, 224])],
  ['torchinfo detection', (s) => isTorchinfo(s)],
  ['print(model) import', (s) => importTorchRepr(s, [3, 224, 224])],
  ['layer text', (s) => parseLayerText(s, [3, 224, 224])],
  ['layer JSON', (s) => parseNetworkJson(s, [3, 224, 224])],
  ['allocator trace', (s) => parseTrace(s)],
  ['allocator trace: fraction value', (s) => parseTrace(`fraction ${s.replace(/\s/g, '')}`)],
  ['PYTORCH_CUDA_ALLOC_CONF', (s) => parseAllocConf(s)],
  ['PYTORCH_CUDA_ALLOC_CONF: gc threshold value', (s) => parseAllocConf(`garbage_collection_threshold:${s.replace(/[\s,:]/g, '')}`)],
  ['memory history JSON', (s) => importMemoryHistory(s)],
  ['pasted OOM / memory_stats() / memory_summary()', (s) => readPaste(s)],
  ['byte size', (s) => parseByteSize(s)],
  ['share URL', (s) => decodeUrl(s)],
  ['layer edits', (s) => parseEdits(s)],
];

describe.each(PARSERS)('%s is linear on adversarial text', (_, parse) => {
  test.each(ADVERSARIAL)('%s', (_, text) => {
    const [, ms] = cpuMs(() => parse(text));
    expect(ms).toBeLessThan(1500);
  });
});
