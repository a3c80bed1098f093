// Advice by PyTorch release and by the user's current PYTORCH_CUDA_ALLOC_CONF (docs/reference/allocator.md §8.1).
// The messages are written by hand from the templates of docs/reference/allocator.md §7.2 with the figures of
// §9 (ii): 200 MiB asked, 124 MiB free, 500 MiB allocated, 900 MiB reserved, so 400 MiB sit in cached holes.
// By hand: short = 200 − 124 − 400 < 0 → fragmentation; max_split_size_mb = 2^⌊log2 200⌋ = 128;
// 400 + 124 = 524 MiB ≥ 2 × 200 MiB → no smaller batch.
import { describe, expect, it } from 'vitest';
import { parseAllocConf } from '../../../src/core/allocator/config';
import { OPTION_SINCE, optionStatus, releaseAtLeast } from '../../../src/core/allocator/conf-history';
import { withOption } from '../../../src/core/allocator/advice-fit';
import { decodeOom, type DecodedOom } from '../../../src/core/allocator/oom-decoder';

const OLD_HEAD = 'CUDA out of memory. Tried to allocate 200.00 MiB (GPU 0; 1024.00 MiB total capacity; 500.00 MiB already allocated; 124.00 MiB free; 900.00 MiB reserved in total by PyTorch)';
const V1_10 = `RuntimeError: ${OLD_HEAD} If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF`;
const V1_9 = `RuntimeError: ${OLD_HEAD}`;
const NEW_HEAD =
  'CUDA out of memory. Tried to allocate 200.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 124.00 MiB is free. Including non-PyTorch memory, this process has 900.00 MiB memory in use. Of the allocated memory 500.00 MiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but unallocated.';
const V2_2 = `torch.OutOfMemoryError: ${NEW_HEAD} If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)`;
// #173051: when expandable segments are on, the message drops the hint and keeps only the link
const MAIN = `torch.OutOfMemoryError: ${NEW_HEAD} See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)`;

function decoded(text: string, confText?: string): DecodedOom {
  let conf = null;
  if (confText !== undefined) {
    const c = parseAllocConf(confText);
    if (!c.ok) throw new Error(c.errors[0]?.message);
    conf = { text: confText, value: c.value };
  }
  const r = decodeOom(text, conf);
  if (!r.found || !r.oom.diagnosis) throw new Error('not decoded');
  expect(r.oom.diagnosis.code).toBe('fragmentation');
  return r.oom;
}
const codes = (o: DecodedOom) => o.diagnosis!.advice.map((a) => (a.variant ? `${a.code}.${a.variant}` : a.code));

describe('first releases of the options (docs/reference/allocator.md §8.1)', () => {
  it('the table: expandable_segments 2.1, the 2022 options 1.12, max_split_size_mb 1.10', () => {
    expect(OPTION_SINCE.expandable_segments.release).toBe('2.1');
    // #96995 merged between its review of 2023-04-13 and #99933 of 2023-04-24 ("merged from OSS"): after 2.0 (2023-03-15)
    expect(OPTION_SINCE.expandable_segments.source).toContain('#96995');
    expect(OPTION_SINCE.expandable_segments.source).toContain('#99933');
    expect(OPTION_SINCE.roundup_power2_divisions.release).toBe('1.12');
    expect(OPTION_SINCE.garbage_collection_threshold.release).toBe('1.12');
    // #44742's option and memory_stats entries: missing from the 1.9.0 release docs (pytorch/pytorch.github.io
    // docs/1.9.0/notes/cuda.html, generated/torch.cuda.memory_stats.html), present in docs/1.10.0
    expect(OPTION_SINCE.max_split_size_mb.release).toBe('1.10');
    expect(OPTION_SINCE.max_split_size_mb.source).toContain('#44742');
    expect(OPTION_SINCE.max_split_size_mb.source).toContain('1.9.0 release docs');
    // 1.9, the release before, is not advised to set it; 1.10 is
    expect(releaseAtLeast('1.9', OPTION_SINCE.max_split_size_mb.release)).toBe(false);
    expect(releaseAtLeast('1.10', OPTION_SINCE.max_split_size_mb.release)).toBe(true);
  });

  it('by message family: 1.10–2.0 has max_split_size_mb only; 2.1 has all four; ≤ 1.9 none; unreadable is unknown', () => {
    expect(optionStatus('max_split_size_mb', 'version.1.10-2.0')).toBe('available');
    expect(optionStatus('garbage_collection_threshold', 'version.1.10-2.0')).toBe('too-old');
    expect(optionStatus('expandable_segments', 'version.1.10-2.0')).toBe('too-old');
    expect(optionStatus('expandable_segments', 'version.2.1')).toBe('available');
    expect(optionStatus('roundup_power2_divisions', 'version.2.2-2.7')).toBe('available');
    expect(optionStatus('max_split_size_mb', 'version.le-1.9')).toBe('too-old');
    expect(optionStatus('expandable_segments', 'version.main')).toBe('already-on');
    expect(optionStatus('expandable_segments', 'version.unknown')).toBe('unknown');
    expect(releaseAtLeast('2.10', '2.9')).toBe(true);
    expect(releaseAtLeast('2.0', '2.1')).toBe(false);
  });
});

describe('advice by the release the message shows', () => {
  it('a 1.10–2.0 message is never told to set expandable_segments: "upgrade to ≥ 2.1", then max_split_size_mb on its own', () => {
    const o = decoded(V1_10);
    expect(codes(o)).toEqual(['upgrade-pytorch', 'max-split-size.only']);
    expect(o.diagnosis!.advice[0].params).toEqual({ setting: 'expandable_segments:True', release: '2.1' });
    expect(o.diagnosis!.advice[1].params.value).toBe('max_split_size_mb:128');
    expect(o.diagnosis!.advice[1].text).toBe('Set PYTORCH_CUDA_ALLOC_CONF=max_split_size_mb:128.');
    expect(JSON.stringify(o.diagnosis!.advice.map((a) => a.params.value))).not.toContain('expandable');
  });

  it('a ≤ 1.9 message gets no allocator option at all, only what to upgrade to', () => {
    const o = decoded(V1_9);
    expect(codes(o)).toEqual(['upgrade-pytorch', 'upgrade-pytorch']);
    expect(o.diagnosis!.advice.map((a) => a.params.release)).toEqual(['2.1', '1.10']);
  });

  it('a 2.2+ message keeps expandable segments first and max_split_size_mb as the alternative', () => {
    expect(codes(decoded(V2_2))).toEqual(['expandable-segments', 'max-split-size']);
  });

  it('a message whose wording shows expandable segments already on is not told to turn them on', () => {
    expect(codes(decoded(MAIN))).toEqual(['max-split-size.only']);
  });
});

describe("advice against the user's current PYTORCH_CUDA_ALLOC_CONF", () => {
  it('expandable_segments:True already set: dropped, said so, and max_split_size_mb keeps it in the export line', () => {
    const o = decoded(V2_2, 'expandable_segments:True');
    expect(codes(o)).toEqual(['max-split-size.only', 'already-set']);
    expect(o.diagnosis!.advice[0].params.value).toBe('expandable_segments:True,max_split_size_mb:128');
    expect(o.diagnosis!.advice[1].params.settings).toBe('expandable_segments:True');
  });

  it('max_split_size_mb:512 is larger than the 200 MiB request, so the request still splits cached blocks: lowered to 128', () => {
    const o = decoded(V2_2, 'max_split_size_mb:512,garbage_collection_threshold:0.6');
    expect(codes(o)).toEqual(['expandable-segments', 'max-split-size.lower']);
    expect(o.diagnosis!.advice[0].params.value).toBe('max_split_size_mb:512,garbage_collection_threshold:0.6,expandable_segments:True');
    expect(o.diagnosis!.advice[1].params).toMatchObject({ from: 512, mb: 128, value: 'max_split_size_mb:128,garbage_collection_threshold:0.6' });
  });

  it.each(['max_split_size_mb:128', 'max_split_size_mb:64'])('%s already makes the 200 MiB request oversize: not suggested again', (conf) => {
    const o = decoded(V2_2, conf);
    expect(codes(o)).toEqual(['expandable-segments', 'already-set']);
    expect(o.diagnosis!.advice[1].params.settings).toBe(conf);
  });

  it('both set: nothing left to set but a lower peak', () => {
    const o = decoded(V2_2, 'expandable_segments:True,max_split_size_mb:128');
    expect(codes(o)).toEqual(['already-set']);
    expect(o.diagnosis!.advice[0].params.settings).toBe('expandable_segments:True, max_split_size_mb:128');
  });

  it('withOption replaces or appends one key and keeps the rest, bracketed lists included', () => {
    expect(withOption('max_split_size_mb:512, garbage_collection_threshold:0.6', 'max_split_size_mb', '128')).toBe('max_split_size_mb:128,garbage_collection_threshold:0.6');
    expect(withOption('PYTORCH_CUDA_ALLOC_CONF="expandable_segments:False"', 'expandable_segments', 'True')).toBe('expandable_segments:True');
    expect(withOption('roundup_power2_divisions:[256:1,>:4]', 'max_split_size_mb', '128')).toBe('roundup_power2_divisions:[256:1,>:4],max_split_size_mb:128');
  });
});
