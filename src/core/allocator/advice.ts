/**
 * Diagnosis and advice from an OOM's figures or a memory_summary() table. The rules follow the
 * allocator's behaviour in docs/reference/allocator.md §3–§5 and §7.2 ("fragmentation hint = unallocated ≥ size";
 * oversize blocks are never split and are released before the retry; expandable segments remap
 * whole free pages, on CUDA only: ROCm builds of PyTorch 2.x warn and keep them off, §5 "Limits").
 * Thresholds marked heuristic are ours, not PyTorch's.
 */
import type { Message } from '../types';
import { GiB, MiB } from '../units';
import { humanBytes } from '../units';

export type DiagnosisCode = 'fraction-limit' | 'fragmentation' | 'other-process' | 'real-shortage';

/**
 * One suggested action; `text`/`why` are English defaults, `code` + `params` (+ `variant`) are
 * stable for translation. A `variant` marks an action whose text or reason differs with the case:
 * translations look up `<code>.<variant>` (and `<code>.<variant>.why`) before the plain code.
 */
export interface Advice {
  code:
    | 'expandable-segments'
    | 'expandable-unsupported'
    | 'max-split-size'
    | 'empty-cache-elsewhere'
    | 'empty-cache-before-foreign'
    | 'smaller-batch'
    | 'free-other-process'
    | 'raise-memory-fraction'
    | 'upgrade-pytorch'
    | 'already-set'
    | 'lower-peak';
  /**
   * 'rocm': max_split_size_mb offered instead of expandable segments; 'fragmentation': a smaller batch for headroom,
   * not for a shortage; 'only': max_split_size_mb with no expandable segments beside it; 'lower': the user's max_split_size_mb lowered (advice-fit.ts)
   */
  variant?: 'rocm' | 'fragmentation' | 'only' | 'lower';
  params: Record<string, number | string>;
  text: string;
  why: string;
}

/** The figures an OOM message gives (bytes); null where the message lacks them. */
export interface OomFigures {
  /** "Tried to allocate" (segment size) */
  requested: number;
  free: number;
  allocated: number;
  /** reserved by PyTorch but unallocated */
  unallocated: number;
  /** memory of other processes on the card, when known */
  others: number | null;
  /** memory of this process outside PyTorch's allocator, when known */
  nonPyTorch: number | null;
  allowed: number | null;
  reserved: number;
  /** 'hip' → PYTORCH_HIP_ALLOC_CONF */
  backend: 'cuda' | 'hip';
}

export interface Diagnosis {
  code: DiagnosisCode;
  message: Message;
  /** bytes the request lacks even if every cached hole were usable (≤ 0: fragmentation alone explains it) */
  shortBytes: number;
  advice: Advice[];
}

/** Heuristic: a CUDA context plus cuBLAS/cuDNN workspaces rarely exceed this (typ. 0.3–0.8 GiB). */
const CONTEXT_ALLOWANCE = GiB;

/** max_split_size_mb to suggest: the largest power of two ≤ the request in MiB, and > 20 as the parser demands. */
export function suggestMaxSplitMb(requestBytes: number): number | null {
  const mib = requestBytes / MiB;
  if (mib < 32) return null;
  return 2 ** Math.floor(Math.log2(mib));
}

const envName = (b: 'cuda' | 'hip') => (b === 'hip' ? 'PYTORCH_HIP_ALLOC_CONF' : 'PYTORCH_CUDA_ALLOC_CONF');

/**
 * PYTORCH_*_ALLOC_CONF=expandable_segments:True (docs/reference/allocator.md §5): worth setting on CUDA builds.
 * `value`: the whole setting to export (the user's other options kept, advice-fit.ts).
 */
export function expandableAdvice(backend: 'cuda' | 'hip', value = 'expandable_segments:True'): Advice {
  const env = envName(backend);
  return {
    code: 'expandable-segments',
    params: { env, value },
    text: `Set ${env}=${value} before the process starts.`,
    why: 'Segments then grow in place and free whole pages can be unmapped and remapped where the large tensor fits, so cached holes stop wasting memory.',
  };
}

/**
 * Why the message's own hint does not help on ROCm: docs/reference/allocator.md §5 "Limits" (expandable segments
 * are CUDA-only in PyTorch 2.x; elsewhere PyTorch warns and acts as if they were off). No `value`
 * param, so no one is shown a line to export.
 */
function expandableUnsupportedAdvice(): Advice {
  const env = envName('hip');
  return {
    code: 'expandable-unsupported',
    params: { env, setting: 'expandable_segments:True' },
    text: `Do not count on ${env}=expandable_segments:True, the usual cure for fragmentation: ROCm builds of PyTorch 2.x ignore it.`,
    why: 'PyTorch 2.x implements expandable segments for CUDA only; on ROCm it warns "expandable_segments not supported on this platform" and keeps allocating ordinary segments, so the cached holes stay.',
  };
}

/**
 * max_split_size_mb (docs/reference/allocator.md §4, §8): the alternative to expandable segments on CUDA, the remedy on ROCm.
 * `fit` (advice-fit.ts): the whole setting to export, and 'only' (no expandable segments beside it) or
 * 'lower' (the user's larger max_split_size_mb, `from` MiB, lowered).
 */
export function maxSplitAdvice(backend: 'cuda' | 'hip', mb: number, fit: { value?: string | undefined; variant?: 'only' | 'lower' | undefined; from?: number } = {}): Advice {
  const env = envName(backend);
  const value = fit.value ?? `max_split_size_mb:${mb}`;
  const variant = backend === 'hip' ? 'rocm' : fit.variant;
  const text =
    variant === 'lower'
      ? `Lower max_split_size_mb from ${fit.from ?? '?'} to ${mb}: ${env}=${value}.`
      : variant === 'rocm'
        ? `Set ${env}=${value} instead.`
        : variant === 'only'
          ? `Set ${env}=${value}.`
          : `Or set ${env}=${value}.`;
  return {
    code: 'max-split-size',
    ...(variant ? { variant } : {}),
    params: { env, mb, value, ...(variant === 'lower' ? { from: fit.from ?? 0 } : {}) },
    text,
    why: `Cached blocks of ${mb} MiB or more are then never split by smaller tensors, and whole free oversize blocks are returned to the driver before the retry; the failing request is at least ${mb} MiB, so it counts as oversize.`,
  };
}

/** A smaller peak: for a real shortage (no variant), or for headroom when the cache is fragmented and the card nearly full. */
function smallerBatch(shortBytes: number, variant?: 'fragmentation'): Advice {
  return {
    code: 'smaller-batch',
    ...(variant ? { variant } : {}),
    params: { shortBytes },
    text: `Lower the batch size (or sequence length) so the peak drops by at least ${humanBytes(shortBytes)}; activation checkpointing or lower precision also help.`,
    why: variant ? 'Even packed perfectly, the card would be nearly full after this request.' : 'Allocated tensors, not the cache, fill the card: even a perfectly packed cache would lack this much.',
  };
}

/** Diagnoses an OOM from its figures (docs/reference/allocator.md §7.2 derived values). */
export function diagnoseOom(f: OomFigures): Diagnosis {
  const short = f.requested - f.free - f.unallocated;
  const advice: Advice[] = [];
  const others = f.others ?? 0;
  if (f.allowed !== null && f.reserved + f.requested > f.allowed && f.free >= f.requested) {
    advice.push({
      code: 'raise-memory-fraction',
      params: { allowed: f.allowed },
      text: `Raise torch.cuda.set_per_process_memory_fraction: only ${humanBytes(f.allowed)} are allowed.`,
      why: 'The card still has enough free memory; the per-process limit refused the new segment.',
    });
    return {
      code: 'fraction-limit',
      shortBytes: short,
      advice,
      message: { code: 'diagnosis.fraction-limit', params: { allowed: f.allowed }, text: 'The per-process memory fraction, not the card, is the limit.' },
    };
  }
  if (short <= 0 && f.unallocated > 0) {
    advice.push(f.backend === 'hip' ? expandableUnsupportedAdvice() : expandableAdvice(f.backend));
    const mb = suggestMaxSplitMb(f.requested);
    if (mb !== null) advice.push(maxSplitAdvice(f.backend, mb));
    if (f.unallocated + f.free < 2 * f.requested) advice.push(smallerBatch(f.requested, 'fragmentation'));
    const text =
      f.unallocated >= f.requested
        ? `Fragmentation: ${humanBytes(f.unallocated)} sit free in PyTorch's cache, more than the ${humanBytes(f.requested)} asked, but no single free block is large enough.`
        : `Fragmentation: free cached holes (${humanBytes(f.unallocated)}) plus free card memory (${humanBytes(f.free)}) would hold the ${humanBytes(f.requested)} asked, but not in one piece.`;
    return { code: 'fragmentation', shortBytes: short, advice, message: { code: 'diagnosis.fragmentation', params: { unallocated: f.unallocated, free: f.free, requested: f.requested }, text } };
  }
  const foreign = f.nonPyTorch ?? 0;
  if (others > 0 && short <= others) {
    advice.push({
      code: 'free-other-process',
      params: { bytes: others },
      text: `Stop or move the other processes using ${humanBytes(others)} of this GPU (see nvidia-smi).`,
      why: 'Without them the request would fit.',
    });
    advice.push({
      code: 'empty-cache-elsewhere',
      params: { bytes: others },
      text: 'If another process is your own PyTorch job, call torch.cuda.empty_cache() there when it is idle.',
      why: "empty_cache() returns a process's unused cached segments to the driver, where this process can use them; calling it in the failing process does not help, because PyTorch already released every whole free segment before raising.",
    });
    return {
      code: 'other-process',
      shortBytes: short,
      advice,
      message: { code: 'diagnosis.other-process', params: { others }, text: `Another process holds ${humanBytes(others)} on this GPU; without it the request would fit.` },
    };
  }
  if (foreign > CONTEXT_ALLOWANCE && short - (foreign - CONTEXT_ALLOWANCE) <= 0) {
    advice.push({
      code: 'empty-cache-before-foreign',
      params: { bytes: foreign },
      text: `Call torch.cuda.empty_cache() before code that allocates outside PyTorch (this process uses ${humanBytes(foreign)} outside the caching allocator).`,
      why: 'Libraries that call cudaMalloc themselves (NCCL, TensorRT, other frameworks) cannot use memory that PyTorch keeps cached.',
    });
  }
  advice.push(smallerBatch(Math.max(0, short)));
  return {
    code: 'real-shortage',
    shortBytes: short,
    advice,
    message: {
      code: 'diagnosis.real-shortage',
      params: { shortBytes: Math.max(0, short) },
      text: `A real shortage: live tensors fill the card; ${humanBytes(Math.max(0, short))} more are needed than free and cached memory together.`,
    },
  };
}
