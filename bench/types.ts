/** One measured benchmark figure, printed by bench/run.ts beside its target. */
export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** target: value must be at most this */
  target?: number;
}

/** Each bench/*.bench.ts default-exports one of these. */
export type BenchModule = () => Promise<BenchRow[]> | BenchRow[];

/** Median wall time of fn in microseconds over `runs` runs after `warmup` runs. */
export function medianMicros(fn: () => unknown, runs = 200, warmup = 50): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push((performance.now() - t0) * 1000);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}
