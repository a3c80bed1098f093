// Allocator simulator throughput: 100,000 trace events (target < 1,000 ms), plus parsing the
// same trace as text and rebuilding a mid-trace state for stepping back; and a 1,000,000-entry
// memory snapshot pickle read and replayed (issue #13: ≤ 3 s in the CLI).
import { importSnapshotPickle, parseTrace, simulateTrace, viewAt, type Trace } from '../src/core/allocator';
import { pickle4, type Plain } from '../tests/core/snapshot/pickle-writer';
import type { BenchRow } from './types';

/** A deterministic 100k-event training-like trace: mixed sizes, frees, occasional empty_cache. */
function makeTraceText(events: number): string {
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const lines = ['capacity 24GiB', 'conf max_split_size_mb:256'];
  const live: string[] = [];
  let n = 0;
  for (let i = 0; lines.length - 2 < events; i++) {
    const r = rand();
    if (live.length > 0 && (r < 0.45 || live.length > 1200)) {
      const k = Math.floor(rand() * live.length);
      lines.push(`free ${live[k]}`);
      live[k] = live[live.length - 1];
      live.pop();
    } else if (r > 0.999) {
      lines.push('empty_cache');
    } else {
      const kind = rand();
      const size = kind < 0.5 ? 1 + Math.floor(rand() * 1048576) : kind < 0.85 ? 1048577 + Math.floor(rand() * 9 * 1048576) : 10485760 + Math.floor(rand() * 400 * 1048576);
      const name = `t${n++}`;
      lines.push(`alloc ${name} ${size}`);
      live.push(name);
    }
  }
  return lines.join('\n');
}

/**
 * A _dump_snapshot()-shaped pickle with `entries` trace entries: the allocs and frees of the
 * text trace above (each free as free_requested + free_completed), shared frames lists, CPython's
 * protocol-4 opcodes (tests/core/snapshot/pickle-writer.ts).
 */
function makeSnapshotPickle(entries: number): Uint8Array {
  const frames: Plain = [
    { filename: 'train.py', line: 41, name: 'forward' },
    { filename: 'train.py', line: 88, name: 'train_step' },
  ];
  const trace: Plain[] = [];
  const addr = new Map<string, number>();
  let next = 0x7f0000000000;
  let t = 1_732_600_000_000_000;
  const entry = (action: string, a: number, size: number) => trace.push({ action, addr: a, size, stream: 0, time_us: t++, frames });
  for (const line of makeTraceText(entries).split('\n')) {
    if (trace.length >= entries) break;
    const [op, name, size] = line.split(' ');
    if (op === 'alloc') {
      const a = next;
      next += 2 ** 20 * Math.ceil(Number(size) / 2 ** 20);
      addr.set(name, a);
      entry('alloc', a, Number(size));
    } else if (op === 'free') {
      const a = addr.get(name) ?? 0;
      entry('free_requested', a, 0);
      entry('free_completed', a, 0);
    }
  }
  return pickle4({ segments: [], device_traces: [trace], allocator_settings: { PYTORCH_CUDA_ALLOC_CONF: '' } });
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Median wall time and median process CPU time (all threads, GC included) of `runs` runs, in ms. */
function measure(fn: () => void, runs: number): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const c0 = cpuMs();
    fn();
    cpu.push(cpuMs() - c0);
    wall.push(performance.now() - t0);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

export default function bench(): BenchRow[] {
  const text = makeTraceText(100_000);
  let trace: Trace | null = null;
  const parse = measure(() => {
    const p = parseTrace(text);
    if (!p.ok) throw new Error(p.errors[0].message);
    trace = p.trace;
  }, 5);
  const t = trace as unknown as Trace;
  let run = simulateTrace(t);
  const sim = measure(() => {
    run = simulateTrace(t);
  }, 5);
  if (!run.ok) throw new Error('simulation failed');
  const r = run.value;
  const step = measure(() => void viewAt(r, 77_777), 20);
  const snapshot = makeSnapshotPickle(1_000_000);
  const replay = measure(() => {
    const h = importSnapshotPickle(snapshot);
    if (!h.ok) throw new Error(h.error.text);
    if (!simulateTrace(h.value.trace).ok) throw new Error('replay failed');
  }, 3);
  return [
    { name: 'allocator: simulate 100,000 trace events', value: sim.wall, unit: 'ms', target: 1000 },
    { name: 'allocator: simulate 100,000 trace events (process CPU)', value: sim.cpu, unit: 'ms', target: 1000 },
    { name: 'allocator: parse a 100,000-line trace', value: parse.wall, unit: 'ms' },
    { name: 'allocator: rebuild the state at step 77,777 (step back)', value: step.wall, unit: 'ms', target: 50 },
    { name: `allocator: unpickle and replay a 1,000,000-entry snapshot (${(snapshot.length / 2 ** 20).toFixed(0)} MiB)`, value: replay.wall, unit: 'ms', target: 3000 },
    // process CPU beside the wall time: on a shared machine the wall time also counts other processes' turns
    { name: 'allocator: unpickle and replay a 1,000,000-entry snapshot (process CPU)', value: replay.cpu, unit: 'ms' },
  ];
}
