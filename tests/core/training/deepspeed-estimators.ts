/**
 * DeepSpeed's own model-state estimators (microsoft/DeepSpeed docs/code-docs/source/memory.rst;
 * `deepspeed/runtime/zero/stage_1_and_2.py::estimate_zero2_model_states_mem_needs`,
 * `deepspeed/runtime/zero/stage3.py::estimate_zero3_model_states_mem_needs`), reproduced so the
 * tests can check the ZeRO formulas against DeepSpeed's documented figures (docs/reference/formulas.md
 * §4.2). Test-only: the calculator models DeepSpeed's buffers in src/core/training/zero-deepspeed.ts.
 * Model states only: no activations.
 * N = total GPUs; additional_buffer_factor = 1.5 on the CPU side.
 */

/** DeepSpeed's `additional_buffer_factor`. */
const BUFFER_FACTOR = 1.5;

export interface DeepSpeedInput {
  /** total parameters */
  params: number;
  /** parameters of the largest single module (stage 3 gathers it with its gradients) */
  largestLayer: number;
  gpusPerNode: number;
  nodes: number;
}

export interface DeepSpeedEstimate {
  gpuBytes: number;
  cpuBytes: number;
}

const pos = (x: number) => (Number.isFinite(x) && x > 0 ? x : 0);
const atLeast1 = (x: number) => Math.max(1, Number.isFinite(x) ? Math.floor(x) : 1);

/** ZeRO-2: offload_optimizer=cpu → 2P on the GPU; otherwise 4P + 16P/N. */
export function deepspeedZero2(x: DeepSpeedInput, offloadOptimizer: boolean): DeepSpeedEstimate {
  const P = pos(x.params);
  const gpn = atLeast1(x.gpusPerNode);
  const N = gpn * atLeast1(x.nodes);
  if (offloadOptimizer) return { gpuBytes: 2 * P, cpuBytes: P * Math.max(4 * N, 16) * BUFFER_FACTOR };
  return { gpuBytes: 4 * P + (16 * P) / N, cpuBytes: P * 4 * gpn * BUFFER_FACTOR };
}

/**
 * ZeRO-3 with LL = 4 × largest layer (16-bit params + grads of the gathered module):
 * offload params+optimizer → LL; optimizer only → LL + 2P/N; none → LL + 18P/N.
 * CPU side shown for zero_init = true.
 */
export function deepspeedZero3(x: DeepSpeedInput, offload: 'none' | 'optimizer' | 'params'): DeepSpeedEstimate {
  const P = pos(x.params);
  const gpn = atLeast1(x.gpusPerNode);
  const nodes = atLeast1(x.nodes);
  const N = gpn * nodes;
  const LL = 4 * pos(x.largestLayer);
  if (offload === 'params') return { gpuBytes: LL, cpuBytes: (P * 18 * BUFFER_FACTOR) / nodes };
  if (offload === 'optimizer') return { gpuBytes: LL + (2 * P) / N, cpuBytes: (P * 16 * BUFFER_FACTOR) / nodes };
  return { gpuBytes: LL + (18 * P) / N, cpuBytes: pos(x.largestLayer) * 4 * gpn * BUFFER_FACTOR };
}
