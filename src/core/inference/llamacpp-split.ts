/**
 * Where llama.cpp puts each layer over several GPUs with `--split-mode layer` (its default) and
 * `--tensor-split`: ggml-org/llama.cpp `src/llama-model.cpp` `llama_model::load_tensors`.
 *
 * - split points: the weights (tensor_split, or each device's free memory when every weight is 0)
 *   summed cumulatively and divided by their total, in float;
 * - `i_gpu_start = max(n_layer − n_gpu_layers, 0)`, `act_gpu_layers = min(n_gpu_layers, n_layer + 1)`;
 * - layer `il` of 0 … n_layer (n_layer itself is the output layer) stays on the CPU when
 *   `il < i_gpu_start` or `il − i_gpu_start ≥ act_gpu_layers`, else it goes to device
 *   `upper_bound(splits, float(il − i_gpu_start) / act_gpu_layers)`: the first split point
 *   strictly above the layer's fraction;
 * - the input layer (token_embd) always stays on the CPU.
 *
 * Pipeline parallelism (`src/llama-context.cpp`): with more than one device, n_gpu_layers > n_layer
 * and split mode layer, the scheduler keeps GGML_SCHED_MAX_COPIES (4) copies of every input a
 * device's graph split reads from another device (`ggml/src/ggml-backend.cpp`
 * ggml_backend_sched_split_graph: copies flagged input + output, so ggml-alloc never frees them).
 */

/** GGML_SCHED_MAX_COPIES (ggml/include/ggml-backend.h): graph-input copies under pipeline parallelism. */
export const SCHED_MAX_COPIES = 4;

export interface LlamaCppPlacement {
  /** repeating layers [from, to) on each GPU, first GPU to last (empty when from = to) */
  ranges: { from: number; to: number }[];
  /** GPU of the output layer; -1 = the CPU */
  outputGpu: number;
  /** layers 0 … cpuLayers − 1 stay on the CPU */
  cpuLayers: number;
  /** the scheduler runs with pipeline parallelism (several GPUs, every layer and the output offloaded) */
  pipeline: boolean;
}

/** The split points: cumulative weights over their total, in float32 as llama.cpp computes them. */
export function splitPoints(weights: readonly number[]): number[] {
  const f = Math.fround;
  let sum = 0;
  const points = weights.map((w) => (sum = f(sum + f(w))));
  return points.map((p) => f(p / sum));
}

/**
 * Layers -ngl offloads of `layers` repeating layers: at most every one and the output layer
 * (llama.cpp llama-model.cpp `load_tensors`: `act_gpu_layers = min(n_gpu_layers, n_layer + 1)`, the
 * output layer counted last);
 * null ('all') = all of them.
 */
export function gpuLayerCount(layers: number, ngl: number | null): number {
  const L = Math.max(0, layers);
  return Math.min(ngl ?? L + 1, L + 1);
}

/**
 * Layer placement of `layers` repeating layers and the output layer over `gpus` GPUs.
 * `ngl` null = every layer and the output; `weights` null = llama.cpp's default split by free
 * memory, equal for the identical cards a scenario describes.
 */
export function llamaCppPlacement(layers: number, ngl: number | null, weights: readonly number[] | null, gpus: number): LlamaCppPlacement {
  const n = Math.max(1, gpus);
  const L = Math.max(0, layers);
  const nGpuLayers = gpuLayerCount(L, ngl);
  const start = Math.max(L - nGpuLayers, 0);
  const act = Math.min(nGpuLayers, L + 1);
  const points = splitPoints(weights && weights.length === n ? weights : new Array<number>(n).fill(1));
  const deviceOf = (il: number): number => {
    if (il < start || il - start >= act) return -1;
    const x = Math.fround((il - start) / act);
    const i = points.findIndex((p) => p > x);
    return i < 0 ? n - 1 : i;
  };
  const ranges = Array.from({ length: n }, () => ({ from: 0, to: 0 }));
  // devices rise with il, so each GPU's layers are one run: find each run's ends
  for (let g = 0, il = start; g < n; g++) {
    ranges[g] = { from: il, to: il };
    while (il < L && deviceOf(il) === g) il++;
    ranges[g]!.to = il;
  }
  return { ranges, outputGpu: deviceOf(L), cpuLayers: start, pipeline: n > 1 && nGpuLayers > L };
}

/** Bytes of layers [from, to): the per-layer sizes when known, else an equal share of `blocks`. */
export function layerRangeBytes(w: { blocks: number; perLayer?: readonly number[] }, layers: number, from: number, to: number): number {
  if (to <= from) return 0;
  if (w.perLayer && w.perLayer.length === layers) {
    let sum = 0;
    for (let i = from; i < to; i++) sum += w.perLayer[i]!;
    return sum;
  }
  return (w.blocks * (to - from)) / Math.max(1, layers);
}
