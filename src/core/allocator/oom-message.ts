/**
 * The OutOfMemoryError text PyTorch prints, by release.
 * Source: c10/cuda/CUDACachingAllocator.cpp (malloc's TORCH_CHECK_WITH(OutOfMemoryError …)),
 * PRs #99699 (2.1), #113481 (2.2), #124673 (2.4), #83146 / #121702 (exception class);
 * templates restated in docs/reference/allocator.md §7.2–§7.3.
 */
import { formatSize } from './constants';
import type { OomFacts } from './allocator';

/**
 * Message families: '1.9' (≤1.9, no advice tail), '2.0' (1.10–2.0 old form), '2.1' (new form,
 * "capacty"), '2.2' (expandable_segments advice), '2.4' (CUDA Graphs private-pool clause),
 * '2.8' (docs.pytorch.org link; first release approximate per docs/reference/allocator.md §7.2).
 */
export type OomVersion = '1.9' | '2.0' | '2.1' | '2.2' | '2.4' | '2.8';
export const OOM_VERSIONS: readonly OomVersion[] = ['1.9', '2.0', '2.1', '2.2', '2.4', '2.8'];

/** Extra context for the message beyond the allocator's own figures. */
export interface OomContext {
  device: number;
  /** NVML available (false on ROCm and in some containers: no "this process has" sentence) */
  nvml: boolean;
  /** bytes held by CUDA-graph private pools (2.4+ clause; 0 = none) */
  privatePools: number;
}

const OLD_TAIL = ' If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF';
const TAIL_21 = ' If reserved but unallocated memory is large try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF';
const TAIL_22 =
  ' If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)';
const TAIL_28 =
  ' If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)';

/** The Python exception class printed before the message (docs/reference/allocator.md §7.3). */
export function oomExceptionName(v: OomVersion): string {
  if (v === '1.9') return 'RuntimeError';
  if (v === '2.4' || v === '2.8') return 'torch.OutOfMemoryError';
  return 'torch.cuda.OutOfMemoryError';
}

/** The message text PyTorch `v` would raise for these figures (without the exception prefix). */
export function formatOomMessage(v: OomVersion, f: OomFacts, ctx: OomContext): string {
  if (f.overOneEiB) return 'CUDA out of memory. Tried to allocate more than 1EB memory.';
  const allowed = f.allowed === null ? '' : `${formatSize(f.allowed)} allowed; `;
  if (v === '1.9' || v === '2.0') {
    return (
      `CUDA out of memory. Tried to allocate ${formatSize(f.allocSize)} (GPU ${ctx.device}; ` +
      `${formatSize(f.total)} total capacity; ${formatSize(f.allocated)} already allocated; ` +
      `${formatSize(f.free)} free; ${allowed}${formatSize(f.reserved)} reserved in total by PyTorch)` +
      (v === '2.0' ? OLD_TAIL : '')
    );
  }
  const pools = v === '2.4' || v === '2.8' ? ctx.privatePools : 0;
  const proc = ctx.nvml ? `Including non-PyTorch memory, this process has ${formatSize(f.processInUse)} memory in use. ` : '';
  const poolClause = pools > 0 ? `with ${formatSize(pools)} allocated in private pools (e.g., CUDA Graphs), ` : '';
  const tail = v === '2.1' ? TAIL_21 : v === '2.8' ? TAIL_28 : TAIL_22;
  return (
    `CUDA out of memory. Tried to allocate ${formatSize(f.allocSize)}. GPU ${ctx.device} has a total ` +
    `${v === '2.1' ? 'capacty' : 'capacity'} of ${formatSize(f.total)} of which ${formatSize(f.free)} is free. ` +
    `${proc}${allowed}Of the allocated memory ${formatSize(f.allocated + pools)} is allocated by PyTorch, ` +
    `${poolClause}and ${formatSize(f.reserved - f.allocated - pools)} is reserved by PyTorch but unallocated.${tail}`
  );
}
