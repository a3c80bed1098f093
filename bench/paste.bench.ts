// Reading pasted text (src/core/allocator/paste.ts): a 4 MiB training log whose only PyTorch memory output is a
// memory_stats() dict at the end, so the OOM decoder reads it all and finds nothing before the dict reader scans it
// (target 1,000 ms: the page answers a paste of that size within a second); and the dict reader alone on 16 MiB.
import { readFileSync } from 'node:fs';
import { readPaste } from '../src/core/allocator/paste';
import { parseMemoryStats } from '../src/core/allocator/stats-dict';
import type { BenchRow } from './types';

function medianMs(fn: () => void, runs = 5): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

export default function bench(): BenchRow[] {
  const dict = readFileSync(new URL('../tests/fixtures/memory-stats/retries-pprint.txt', import.meta.url), 'utf8');
  const line = "step 1200 | loss 2.3125 | lr 3.0e-05 | tokens/s 51234 | {'grad_norm': 0.81, 'epoch': 0.42}\n";
  const log = (mib: number) => line.repeat(Math.ceil((mib * 2 ** 20) / line.length)) + dict;
  const small = log(4);
  const big = log(16);
  const paste = medianMs(() => {
    const r = readPaste(small);
    if (r.kind !== 'stats') throw new Error(`read as ${r.kind}`);
  });
  const dictOnly = medianMs(() => {
    if (!parseMemoryStats(big).ok) throw new Error('dict not read');
  });
  return [
    { name: 'paste: read a 4 MiB log ending in a memory_stats() dict (OOM decoder, then the dict reader)', value: paste, unit: 'ms', target: 1000 },
    { name: 'paste: memory_stats() dict reader alone on a 16 MiB log', value: dictOnly, unit: 'ms', target: 500 },
  ];
}
