/**
 * transformers `from_pretrained(device_map="auto")` over N GPUs: accelerate's balanced layer
 * split (huggingface/accelerate src/accelerate/utils/modeling.py; transformers
 * integrations/accelerate.py `_get_device_map` calls `get_balanced_memory` then
 * `infer_auto_device_map`).
 *
 * - `get_balanced_memory`: per_gpu = ⌊total / N⌋ + ⌊1.25·max(no-split block, mean final module)⌋;
 *   every GPU but the last gets min(per_gpu, its free memory); the last keeps its free memory.
 * - `infer_auto_device_map`: walks embedding, blocks 0…L−1, final norm, head in order and puts
 *   each on the current GPU while used + size ≤ budget; on the first GPU only (`main_devices`
 *   = [gpu 0, cpu]) the budget is lowered by the largest remaining layer (`get_max_layer_size`,
 *   recomputed once every block is placed). A module that does not fit moves to the next GPU.
 *   A tied head has no bytes of its own and goes with the embedding.
 * Modules left when every GPU is full go to the CPU (`offloaded`).
 */

export interface LayerSplitInput {
  /** bytes of the input embedding */
  embedding: number;
  /** bytes of one decoder block (no-split module) */
  block: number;
  layers: number;
  /** bytes after the blocks (final norm) */
  norm: number;
  /** bytes of an untied LM head (0 when tied) */
  head: number;
  /** number of leaf modules holding parameters (for accelerate's mean of final modules) */
  leafModules: number;
}

export interface LayerSplit {
  /** weight bytes on each GPU */
  perGpu: number[];
  /** decoder blocks on each GPU, in order */
  layersPerGpu: number[];
  /** index of the GPU holding the LM head (or the final norm when tied) */
  lastGpu: number;
  /** bytes that fit on no GPU (accelerate would offload them to the CPU) */
  offloaded: number;
}

/** accelerate get_balanced_memory: the budget of every GPU but the last. */
export function balancedBudget(m: LayerSplitInput, gpus: number): number {
  const total = m.embedding + m.block * m.layers + m.norm + m.head;
  const meanLeaf = Math.trunc(total / Math.max(1, m.leafModules));
  return Math.floor(total / gpus) + Math.trunc(1.25 * Math.max(m.block, meanLeaf));
}

/** Balanced device_map="auto" placement over `gpus` GPUs of `capacity` free bytes each. */
export function layerSplit(m: LayerSplitInput, gpus: number, capacity: number): LayerSplit {
  const n = Math.max(1, Math.floor(gpus));
  const perGpu = new Array<number>(n).fill(0);
  const layersPerGpu = new Array<number>(n).fill(0);
  const perBudget = n === 1 ? capacity : Math.min(balancedBudget(m, n), capacity);
  const budget = (g: number) => (g === n - 1 ? capacity : perBudget);
  // get_max_layer_size, recomputed when the largest remaining layers are all taken: the
  // reserve while placing a module is the largest module still after it.
  const tailMax = Math.max(m.norm, m.head);
  const blockMax = Math.max(m.block, tailMax);
  let g = 0;
  let offloaded = 0;
  const place = (size: number, reserve: number): number => {
    while (g < n) {
      const limit = budget(g) - (g === 0 ? reserve : 0);
      // g < n = perGpu.length
      if (perGpu[g]! + size <= limit) {
        perGpu[g]! += size;
        return g;
      }
      g += 1;
    }
    offloaded += size;
    return -1;
  };
  place(m.embedding, m.layers > 0 ? blockMax : tailMax);
  for (let i = 0; i < m.layers; i++) {
    const at = place(m.block, i < m.layers - 1 ? blockMax : tailMax);
    if (at >= 0) layersPerGpu[at]! += 1; // place() gives a GPU index below n
  }
  const atNorm = place(m.norm, m.head);
  const atHead = m.head > 0 ? place(m.head, 0) : atNorm;
  return { perGpu, layersPerGpu, lastGpu: atHead < 0 ? n - 1 : atHead, offloaded };
}
