/**
 * Sample texts for the lab's example buttons. The OOM samples follow PyTorch's message templates
 * word for word (docs/reference/allocator.md §7.2–§7.3); the fragmentation one is the exact message of
 * docs/reference/allocator.md §9 (ii), the others carry illustrative figures chosen to show each diagnosis.
 */

const TAIL_22 =
  ' If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)';
const TAIL_28 =
  ' If reserved but unallocated memory is large try setting PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://docs.pytorch.org/docs/stable/notes/cuda.html#optimizing-memory-usage-with-pytorch-cuda-alloc-conf)';

export type OomSampleId = 'fragmentation' | 'shortage' | 'other' | 'old' | 'hip';

export const OOM_SAMPLES: Record<OomSampleId, string> = {
  fragmentation:
    'Traceback (most recent call last):\n  File "train.py", line 42, in <module>\n    c = torch.empty(200 * 2**20, dtype=torch.uint8, device="cuda")\n' +
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 200.00 MiB. GPU 0 has a total capacity of 1024.00 MiB of which 124.00 MiB is free. Including non-PyTorch memory, this process has 900.00 MiB memory in use. Of the allocated memory 500.00 MiB is allocated by PyTorch, and 400.00 MiB is reserved by PyTorch but unallocated.' +
    TAIL_22,
  shortage:
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 23.64 GiB of which 1.19 GiB is free. Including non-PyTorch memory, this process has 22.44 GiB memory in use. Of the allocated memory 21.87 GiB is allocated by PyTorch, and 124.53 MiB is reserved by PyTorch but unallocated.' +
    TAIL_28,
  other:
    'torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 1.00 GiB. GPU 0 has a total capacity of 79.14 GiB of which 6.75 MiB is free. Process 3412 has 40.12 GiB memory in use. Including non-PyTorch memory, this process has 39.01 GiB memory in use. Of the allocated memory 38.41 GiB is allocated by PyTorch, and 12.54 MiB is reserved by PyTorch but unallocated.' +
    TAIL_22,
  old: 'torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 64.00 MiB (GPU 0; 10.76 GiB total capacity; 9.32 GiB already allocated; 41.69 MiB free; 9.70 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try setting max_split_size_mb to avoid fragmentation.  See documentation for Memory Management and PYTORCH_CUDA_ALLOC_CONF',
  hip: 'torch.OutOfMemoryError: HIP out of memory. Tried to allocate 1.95 GiB. GPU 0 has a total capacity of 63.98 GiB of which 1.10 GiB is free. Of the allocated memory 60.20 GiB is allocated by PyTorch, and 2.10 GiB is reserved by PyTorch but unallocated. If reserved but unallocated memory is large try setting PYTORCH_HIP_ALLOC_CONF=expandable_segments:True to avoid fragmentation.  See documentation for Memory Management  (https://pytorch.org/docs/stable/notes/cuda.html#environment-variables)',
};

export const OOM_SAMPLE_IDS = Object.keys(OOM_SAMPLES) as OomSampleId[];
