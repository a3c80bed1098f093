/**
 * Ready-made traces: the classic 10 × 4 MiB experiment and the worked examples of
 * docs/reference/allocator.md §9, including a fragmentation OOM that a setting cures.
 */
import type { Message } from '../types';

export interface TracePreset {
  id: string;
  title: Message;
  description: Message;
  text: string;
}

const lines = (...ls: string[]) => ls.join('\n') + '\n';
const range = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i));

const CLASSIC = [...range(10, (i) => `alloc t${i} 1024x1024 float32`), ...range(5, (i) => `free t${2 * i}`), 'alloc big 4096x4096 float32'];

const FRAGMENTATION = [
  'capacity 1GiB',
  'alloc a 900MiB',
  'free a',
  ...range(9, (i) => `alloc B${i + 1} 100MiB`),
  'free B1',
  'free B3',
  'free B5',
  'free B7',
  'alloc c 200MiB   # 400 MiB sit free in the cache, but no hole holds 200 MiB',
];

const preset = (id: string, title: string, description: string, text: string): TracePreset => ({
  id,
  title: { code: `preset.${id}.title`, text: title },
  description: { code: `preset.${id}.description`, text: description },
  text,
});

export const TRACE_PRESETS: readonly TracePreset[] = [
  preset(
    'classic',
    'Ten 4 MiB tensors, free every other one, then 64 MiB',
    'Freed 4 MiB holes cannot merge (their neighbours are live), so the 64 MiB tensor needs a new segment: reserved 104 MiB for 84 MiB allocated (docs/reference/allocator.md §9 i).',
    lines('# docs/reference/allocator.md §9 (i), steps A–C', 'capacity 80GiB', ...CLASSIC),
  ),
  preset(
    'classic-followup',
    'Classic experiment, then 40 MiB and 64 MiB again',
    'Compare default, max_split_size_mb:64 and expandable_segments:True: the 40 MiB tensor splits the cached 64 MiB block unless it is oversize (docs/reference/allocator.md §9 i, step D).',
    lines('# docs/reference/allocator.md §9 (i), steps A–D', 'capacity 80GiB', ...CLASSIC, 'free big', 'alloc m 40MiB', 'alloc big2 4096x4096 float32'),
  ),
  preset(
    'fragmentation-oom',
    'Fragmentation OOM on a 1 GiB card',
    '100 MiB tensors carve up a cached 900 MiB block; after four frees 400 MiB are free in the cache but a 200 MiB tensor runs out of memory (docs/reference/allocator.md §9 ii).',
    lines('# docs/reference/allocator.md §9 (ii), default settings: OOM', ...FRAGMENTATION),
  ),
  preset(
    'fragmentation-max-split',
    'Same fragmentation, cured by max_split_size_mb:128',
    'The 900 MiB block is oversize, so 100 MiB tensors get their own segments; whole free segments go back to the driver and the 200 MiB tensor fits (docs/reference/allocator.md §9 ii).',
    lines('# docs/reference/allocator.md §9 (ii) with max_split_size_mb:128: no OOM', 'conf max_split_size_mb:128', ...FRAGMENTATION),
  ),
  preset(
    'fragmentation-expandable',
    'Same fragmentation, cured by expandable_segments:True',
    'The holes are page-aligned, so their pages are unmapped and remapped at the end of the segment, where 200 MiB fit (docs/reference/allocator.md §9 ii).',
    lines('# docs/reference/allocator.md §9 (ii) with expandable_segments:True: no OOM', 'conf expandable_segments:True', ...FRAGMENTATION),
  ),
  preset(
    'rounding',
    'Rounding and slack',
    'A 1000 B tensor takes 1024 B of a 2 MiB small segment; a 19.5 MiB tensor keeps its 0.5 MiB remainder; a 4 MiB tensor takes a whole cached 5 MiB block (docs/reference/allocator.md §9, extra vectors).',
    lines(
      '# docs/reference/allocator.md §9 extra unit vectors',
      'capacity 8GiB',
      'alloc tiny 1000',
      'alloc odd 20447232   # 19.5 MiB',
      'alloc p 5MiB',
      'alloc q 15MiB',
      'free p',
      'alloc r 4MiB         # remaining 1 MiB is not > 1 MiB: no split',
    ),
  ),
];

/** Looks a preset up by id. */
export function findPreset(id: string): TracePreset | undefined {
  return TRACE_PRESETS.find((p) => p.id === id);
}
