/**
 * Constants, size rounding and size formatting of PyTorch's CUDA caching allocator.
 * Source: pytorch/pytorch c10/cuda/CUDACachingAllocator.cpp (2.x): kMinBlockSize, kSmallSize,
 * kSmallBuffer, kLargeBuffer, kMinLargeAlloc, kRoundLarge, round_size and format_size.
 */

import { GiB, KiB, MiB } from '../units';

/** kMinBlockSize: every request is rounded to a multiple of 512 B (docs/reference/allocator.md §1). */
export const kMinBlockSize = 512;
/** kSmallSize: largest request served by the small pool, inclusive (docs/reference/allocator.md §1). */
export const kSmallSize = MiB;
/** kSmallBuffer: segment size for small requests (docs/reference/allocator.md §1). */
export const kSmallBuffer = 2 * MiB;
/** kMinLargeAlloc: large requests below this get a kLargeBuffer segment (docs/reference/allocator.md §1). */
export const kMinLargeAlloc = 10 * MiB;
/** kLargeBuffer: 20 MiB segment for 1–10 MiB requests; default oversize-reuse slack (docs/reference/allocator.md §1). */
export const kLargeBuffer = 20 * MiB;
/** kRoundLarge: requests ≥ 10 MiB get segments rounded up to 2 MiB (docs/reference/allocator.md §1). */
export const kRoundLarge = 2 * MiB;
/** `allocate()` refuses requests of 1 EiB or more (docs/reference/allocator.md §1). */
export const kOneEiB = 2 ** 60;
/** Expandable-segment page sizes: 2 MiB small pool, 20 MiB large pool (docs/reference/allocator.md §5). */
export const kSmallPage = kSmallBuffer;
export const kLargePage = kLargeBuffer;

export type PoolKind = 'small' | 'large';

const ceilTo = (n: number, step: number): number => Math.ceil(n / step) * step;

/** Largest power of two ≤ n (n ≥ 1). */
export function powerOf2Floor(n: number): number {
  return 2 ** Math.floor(Math.log2(n));
}

/** True when n is a positive integer power of two. */
export function isPowerOf2(n: number): boolean {
  return Number.isInteger(n) && n > 0 && powerOf2Floor(n) === n;
}

/**
 * Index into the 16-entry roundup_power2_divisions table: floor(log2 n) − 20, clamped to 0..15
 * (CUDAAllocatorConfig::roundup_power2_divisions; docs/reference/allocator.md §1 step 2).
 */
export function roundupIntervalIndex(n: number): number {
  return Math.min(15, Math.max(0, Math.floor(Math.log2(n)) - 20));
}

/**
 * DeviceCachingAllocator::round_size: 512 B rounding, or power-of-two division rounding when
 * the interval's division count d > 1 and n > 512·d (docs/reference/allocator.md §1).
 */
export function roundSize(n: number, divisions: readonly number[]): number {
  if (n < kMinBlockSize) return kMinBlockSize;
  const d = divisions[roundupIntervalIndex(n)] ?? 0;
  if (d > 1 && n > kMinBlockSize * d) {
    if (isPowerOf2(n)) return n;
    const floor = powerOf2Floor(n);
    const step = floor / d;
    if (step < 1) return floor * 2;
    return ceilTo(n, step);
  }
  return ceilTo(n, kMinBlockSize);
}

/** get_pool: rounded sizes ≤ 1 MiB use the small pool (docs/reference/allocator.md §1). */
export function poolFor(size: number): PoolKind {
  return size <= kSmallSize ? 'small' : 'large';
}

/** get_allocation_size: the segment size asked of cudaMalloc, also the OOM "Tried to allocate" figure (docs/reference/allocator.md §1). */
export function allocationSize(size: number): number {
  if (size <= kSmallSize) return kSmallBuffer;
  if (size < kMinLargeAlloc) return kLargeBuffer;
  return ceilTo(size, kRoundLarge);
}

/**
 * C++ format_size used in OOM messages: inclusive thresholds, 2 decimals, no TiB
 * (docs/reference/allocator.md §7.1). 0 → "0 bytes", 1 MiB → "1024.00 KiB".
 */
export function formatSize(bytes: number): string {
  if (bytes <= KiB) return `${bytes} bytes`;
  if (bytes <= MiB) return `${fixed2(bytes / KiB)} KiB`;
  if (bytes <= GiB) return `${fixed2(bytes / MiB)} MiB`;
  return `${fixed2(bytes / GiB)} GiB`;
}

/** std::fixed with precision 2: exact binary ties round half to even, as glibc printf does. */
function fixed2(v: number): string {
  const scaled = v * 100;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5) return ((floor % 2 === 0 ? floor : floor + 1) / 100).toFixed(2);
  return v.toFixed(2);
}
