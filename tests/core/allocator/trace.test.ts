import { describe, expect, it } from 'vitest';
import { parseTrace, traceToText } from '../../../src/core/allocator/trace';
import { parseByteSize } from '../../../src/core/allocator/size-text';

describe('parseByteSize', () => {
  it('reads plain bytes, SI and binary units', () => {
    expect(parseByteSize('4194304')).toEqual({ ok: true, bytes: 4_194_304 });
    expect(parseByteSize('4 MiB')).toEqual({ ok: true, bytes: 4 * 1024 * 1024 });
    expect(parseByteSize('1.5GB')).toEqual({ ok: true, bytes: 1_500_000_000 });
    expect(parseByteSize('2 KB')).toEqual({ ok: true, bytes: 2000 });
    expect(parseByteSize('8GiB')).toEqual({ ok: true, bytes: 8 * 2 ** 30 });
    expect(parseByteSize('512 B')).toEqual({ ok: true, bytes: 512 });
  });
  it('reads shapes with dtypes (itemsize: fp32 4, bf16 2, int8 1)', () => {
    expect(parseByteSize('1024x1024 float32')).toEqual({ ok: true, bytes: 4_194_304 });
    expect(parseByteSize('4096x4096 bf16')).toEqual({ ok: true, bytes: 33_554_432 });
    expect(parseByteSize('(8, 128, 4096) torch.float16')).toEqual({ ok: true, bytes: 8 * 128 * 4096 * 2 });
    expect(parseByteSize('10 int8')).toEqual({ ok: true, bytes: 10 });
  });
  it('names what is wrong', () => {
    expect(parseByteSize('4 MeB')).toMatchObject({ ok: false, message: expect.stringContaining("unknown unit 'MeB'") });
    expect(parseByteSize('1024x1024 float33')).toMatchObject({ ok: false, message: expect.stringContaining("unknown dtype 'float33'") });
    expect(parseByteSize('0.3 KiB')).toMatchObject({ ok: false, message: expect.stringContaining('whole number') });
    expect(parseByteSize('lots')).toMatchObject({ ok: false });
  });
});

describe('parseTrace', () => {
  it('parses settings, events and comments', () => {
    const r = parseTrace('# demo\ncapacity 8GiB\noverhead 500MiB\nfraction 0.5\nconf max_split_size_mb:128\n\nalloc x 1024x1024 float32  # 4 MiB\nfree x\nempty_cache\n');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.trace.settings).toEqual({ capacity: 8 * 2 ** 30, overhead: 500 * 2 ** 20, fraction: 0.5, conf: 'max_split_size_mb:128' });
    expect(r.trace.events).toEqual([
      { op: 'alloc', name: 'x', size: 4_194_304, line: 7 },
      { op: 'free', name: 'x', line: 8 },
      { op: 'empty_cache', line: 9 },
    ]);
  });

  it('reports every bad line with its number', () => {
    const r = parseTrace(['alloc a 4MiB', 'alloc a 4MiB', 'free b', 'frobnicate', 'alloc c', 'free a', 'free a', 'capacity 4GiB', 'alloc d 3 parsecs'].join('\n'));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => [e.line, e.code])).toEqual([
      [2, 'trace-double-alloc'],
      [3, 'trace-free-unknown'],
      [4, 'trace-unknown-op'],
      [5, 'trace-alloc-syntax'],
      [7, 'trace-free-unknown'],
      [8, 'trace-setting-late'],
      [9, 'trace-bad-size'],
    ]);
    expect(r.errors[4].message).toBe("line 7: 'a' was already freed on line 6");
  });

  it('round-trips through traceToText', () => {
    const text = 'capacity 1073741824\nconf expandable_segments:True\nalloc a 100\nfree a\nempty_cache\n';
    const r = parseTrace(text);
    expect(r.ok && traceToText(r.trace)).toBe(text);
  });
});
