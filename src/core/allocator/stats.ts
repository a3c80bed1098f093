/**
 * The allocator's statistics and their memory_stats() flattening.
 * Source: c10/cuda/CUDACachingAllocator.h (Stat, StatArray, DeviceStats) and
 * torch/csrc/cuda/Module.cpp `_cuda_memoryStats`; docs/reference/allocator.md §6.1.
 */
import type { PoolKind } from './constants';

/** One statistic: live value, its maximum, and running totals of increases and decreases. */
export interface Stat {
  current: number;
  peak: number;
  allocated: number;
  freed: number;
}

const newStat = (): Stat => ({ current: 0, peak: 0, allocated: 0, freed: 0 });

/** Stat::increase / Stat::decrease. */
export function increase(s: Stat, n: number): void {
  s.current += n;
  s.allocated += n;
  if (s.current > s.peak) s.peak = s.current;
}
export function decrease(s: Stat, n: number): void {
  s.current -= n;
  s.freed += n;
}

/** Per-pool stat triple, indexed like StatType: all, large_pool, small_pool. */
export interface StatArray {
  all: Stat;
  large_pool: Stat;
  small_pool: Stat;
}

/** Names of the array statistics, in memory_summary() row order (docs/reference/allocator.md §6.2). */
export const ARRAY_STATS = ['allocated_bytes', 'active_bytes', 'requested_bytes', 'reserved_bytes', 'inactive_split_bytes', 'allocation', 'active', 'segment', 'inactive_split'] as const;
export type ArrayStatName = (typeof ARRAY_STATS)[number];

/** DeviceStats of one device. */
export interface DeviceStats {
  arrays: Record<ArrayStatName, StatArray>;
  oversize_allocations: Stat;
  oversize_segments: Stat;
  num_alloc_retries: number;
  num_ooms: number;
  num_sync_all_streams: number;
  num_device_alloc: number;
  num_device_free: number;
}

/** All-zero DeviceStats, as after the allocator starts. */
export function newDeviceStats(): DeviceStats {
  const arrays = {} as Record<ArrayStatName, StatArray>;
  for (const k of ARRAY_STATS) arrays[k] = { all: newStat(), large_pool: newStat(), small_pool: newStat() };
  return {
    arrays,
    oversize_allocations: newStat(),
    oversize_segments: newStat(),
    num_alloc_retries: 0,
    num_ooms: 0,
    num_sync_all_streams: 0,
    num_device_alloc: 0,
    num_device_free: 0,
  };
}

/** Deep copy (for checkpoints). */
export function cloneDeviceStats(s: DeviceStats): DeviceStats {
  const arrays = {} as Record<ArrayStatName, StatArray>;
  for (const k of ARRAY_STATS) {
    const a = s.arrays[k];
    arrays[k] = { all: { ...a.all }, large_pool: { ...a.large_pool }, small_pool: { ...a.small_pool } };
  }
  return { ...s, arrays, oversize_allocations: { ...s.oversize_allocations }, oversize_segments: { ...s.oversize_segments } };
}

/** Applies increase(n) (n > 0) or decrease(−n) (n < 0) to `all` and the pool's entry. */
export function bump(s: DeviceStats, name: ArrayStatName, pool: PoolKind, n: number): void {
  if (n === 0) return;
  const a = s.arrays[name];
  const p = pool === 'small' ? a.small_pool : a.large_pool;
  if (n > 0) {
    increase(a.all, n);
    increase(p, n);
  } else {
    decrease(a.all, -n);
    decrease(p, -n);
  }
}

/** The fields of one Stat, the pools of a StatArray and the single stats, as memory_stats() names them. */
export const STAT_FIELDS = ['current', 'peak', 'allocated', 'freed'] as const;
export const STAT_POOLS = ['all', 'large_pool', 'small_pool'] as const;
export const OVERSIZE_STATS = ['oversize_allocations', 'oversize_segments'] as const;
/** The plain counters, in memory_stats()' (alphabetical) order. */
export const SCALAR_STATS = ['max_split_size', 'num_alloc_retries', 'num_device_alloc', 'num_device_free', 'num_ooms', 'num_sync_all_streams'] as const;

type StatField = (typeof STAT_FIELDS)[number];
/** Every key of memory_stats(). */
export type MemoryStatKey = `${ArrayStatName}.${(typeof STAT_POOLS)[number]}.${StatField}` | `${(typeof OVERSIZE_STATS)[number]}.${StatField}` | (typeof SCALAR_STATS)[number];
/** memory_stats() as PyTorch returns it: flat `.`-joined keys, sorted alphabetically. */
export type MemoryStats = Record<MemoryStatKey, number>;

/**
 * Flattens DeviceStats into torch.cuda.memory_stats() keys. `maxSplitSize` null (unlimited)
 * reads −1 because PyTorch casts SIZE_MAX to int64 (docs/reference/allocator.md §6.1).
 */
export function toMemoryStats(s: DeviceStats, maxSplitSize: number | null): MemoryStats {
  // every key is set below; the type names them all
  const out = {} as MemoryStats;
  for (const k of ARRAY_STATS) {
    for (const pool of STAT_POOLS) {
      for (const f of STAT_FIELDS) out[`${k}.${pool}.${f}`] = s.arrays[k][pool][f];
    }
  }
  for (const name of OVERSIZE_STATS) {
    for (const f of STAT_FIELDS) out[`${name}.${f}`] = s[name][f];
  }
  out.num_alloc_retries = s.num_alloc_retries;
  out.num_ooms = s.num_ooms;
  out.max_split_size = maxSplitSize ?? -1;
  out.num_sync_all_streams = s.num_sync_all_streams;
  out.num_device_alloc = s.num_device_alloc;
  out.num_device_free = s.num_device_free;
  const sorted = {} as MemoryStats;
  for (const key of (Object.keys(out) as MemoryStatKey[]).sort()) sorted[key] = out[key];
  return sorted;
}
