/**
 * Runtime overheads outside the model's own tensors: CUDA context, cuBLAS workspace, and the
 * PyTorch caching allocator's segment rounding (reserved − allocated).
 *
 * Sources: docs/reference/formulas.md §3.3 (PyTorch PR #86509 context sizes), CublasHandlePool.cpp (cuBLAS workspace),
 * docs/reference/allocator.md §1 (`round_size`, `get_allocation_size`: 512 B blocks, 2 MiB small segments,
 * 20 MiB segments for 1–10 MiB requests, 2 MiB rounding above 10 MiB).
 */

import { evaluate, mul, sym, type Expr } from './formula/expr';
import { MiB } from './units';

/**
 * CUDA context + loaded kernels, invisible to torch's counters. PyTorch PR #86509 measured
 * 666,632,192 B eager vs 287,047,680 B with CUDA_MODULE_LOADING=LAZY (default since CUDA 12.2);
 * libraries (cuBLAS, cuDNN, NCCL) add more. docs/reference/formulas.md §3.3 suggests 500 MiB (range 300–1000).
 */
export const CUDA_CONTEXT_BYTES = 500 * MiB;

/**
 * Device memory the driver keeps for itself: `cudaMemGetInfo` (torch.cuda.mem_get_info, which
 * vLLM multiplies by gpu_memory_utilization) reports a total this far below nvidia-smi's.
 * RTX 3090: nvidia-smi 24576 MiB vs vLLM's printed total_gpu_memory 23.58 GiB (430 ± 5 MiB,
 * vllm-project/vllm#10517); H100 SXM: 81559 MiB vs 79.22 GiB (438 ± 5 MiB, vllm PR #10511);
 * both agree on 433–435 MiB. GPU totals: data/gpus.json (nvidia-smi).
 */
export const DRIVER_RESERVED_BYTES = 434 * MiB;

/**
 * cuBLAS workspace PyTorch allocates through the caching allocator, one per (cuBLAS handle, stream)
 * the first time a handle runs on a stream (aten/src/ATen/cuda/CublasHandlePool.cpp
 * `setWorkspaceForHandle`; cuBLASLt shares it unless TORCH_CUBLASLT_UNIFIED_WORKSPACE=0). Its size,
 * `parseChosenWorkspaceSize` without CUBLAS_WORKSPACE_CONFIG: `:4096:2:16:8` (2·4096 KiB + 8·16 KiB =
 * 8,519,680 B) before Hopper; 4096·8 KiB = 32 MiB on compute capability 9.x (Hopper; the same
 * function gives 32 MiB on majors 10 and 12, Blackwell, in later releases). Our H200 runs (torch
 * 2.11) each hold two blocks of 33,554,432 B that are never freed.
 */
export function cublasWorkspaceBytes(computeMajor: number): number {
  return computeMajor >= 9 ? 4096 * 8 * 1024 : 2 * 4096 * 1024 + 8 * 16 * 1024;
}

/**
 * The workspace one handle counts in the card-independent estimate: the larger, Hopper and later
 * (cublasWorkspaceBytes(9)), so one estimate serves every card (methodology "One verdict"); on an
 * older card that is 25,034,752 B more than it allocates, per handle.
 */
export const CUBLAS_WORKSPACE: Expr = mul(4096, 8, sym('KiB', 1024));
export const CUBLAS_WORKSPACE_BYTES = evaluate(CUBLAS_WORKSPACE);

/**
 * cuBLAS handles, so workspaces, a training step holds: the forward's on the Python thread and the
 * backward's on autograd's device thread (torch/csrc/autograd/engine.cpp runs a CUDA device's
 * backward on a thread of its own), whose handle is its own (handles are per thread:
 * aten/src/ATen/cuda/detail/DeviceThreadHandles.h `PoolWindow`). Inference holds one.
 */
export const TRAINING_CUBLAS_HANDLES = 2;

/** docs/reference/allocator.md §1 constants */
const MIN_BLOCK = 512;
const SMALL_SIZE = MiB;
const SMALL_BUFFER = 2 * MiB;
const MIN_LARGE_ALLOC = 10 * MiB;
const LARGE_BUFFER = 20 * MiB;
const ROUND_LARGE = 2 * MiB;

/** `round_size` with default settings: multiples of 512 B, at least 512 B. */
export function roundSize(bytes: number): number {
  return Math.max(MIN_BLOCK, Math.ceil(Math.max(0, bytes) / MIN_BLOCK) * MIN_BLOCK);
}

/** `get_allocation_size`: the cudaMalloc segment for a rounded request. */
export function segmentSize(rounded: number): number {
  if (rounded <= SMALL_SIZE) return SMALL_BUFFER;
  if (rounded < MIN_LARGE_ALLOC) return LARGE_BUFFER;
  return Math.ceil(rounded / ROUND_LARGE) * ROUND_LARGE;
}

/** `count` live tensors of `bytes` each. */
export interface TensorGroup {
  bytes: number;
  count: number;
}

/**
 * Reserved-but-unallocated bytes when the given tensors are live together and each group fills
 * its own segments: tensors ≥ 10 MiB get a private segment rounded to 2 MiB; smaller ones are
 * split out of shared 2 MiB / 20 MiB segments (best fit, docs/reference/allocator.md §3–4), so a segment holds
 * floor(segment / size) of them. Fragmentation from differently-sized transients freed earlier
 * is not modelled, so this is a lower bound on max_memory_reserved − max_memory_allocated.
 */
export function segmentWaste(groups: readonly TensorGroup[]): number {
  let waste = 0;
  for (const g of groups) {
    const count = Math.max(0, Math.floor(g.count));
    if (count === 0 || !(g.bytes > 0)) continue;
    const size = roundSize(g.bytes);
    const seg = segmentSize(size);
    if (size >= MIN_LARGE_ALLOC) {
      waste += count * (seg - size);
    } else {
      const perSeg = Math.max(1, Math.floor(seg / size));
      waste += Math.ceil(count / perSeg) * seg - count * size;
    }
  }
  return waste;
}
