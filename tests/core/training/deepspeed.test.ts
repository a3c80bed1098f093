import { describe, expect, it } from 'vitest';
import { deepspeedZero2, deepspeedZero3 } from './deepspeed-estimators';

/** DeepSpeed memory.rst example: t5-3b, 2851M params, 32M largest layer, 1 node × 8 GPUs; "GB" there is GiB. */
const t5 = { params: 2851e6, largestLayer: 32e6, gpusPerNode: 8, nodes: 1 };
const GiB = 2 ** 30;

describe('DeepSpeed model-state estimators (docs memory.rst, t5-3b)', () => {
  it('ZeRO-2: 15.93 GB per GPU, 5.31 GB with optimizer offload', () => {
    expect(deepspeedZero2(t5, false).gpuBytes / GiB).toBeCloseTo(15.93, 2);
    expect(deepspeedZero2(t5, true).gpuBytes / GiB).toBeCloseTo(5.31, 2);
  });
  it('ZeRO-3: 6.10 / 0.79 / 0.12 GB per GPU (no offload / optimizer / params + optimizer)', () => {
    expect(deepspeedZero3(t5, 'none').gpuBytes / GiB).toBeCloseTo(6.1, 1);
    expect(deepspeedZero3(t5, 'optimizer').gpuBytes / GiB).toBeCloseTo(0.79, 1);
    expect(deepspeedZero3(t5, 'params').gpuBytes / GiB).toBeCloseTo(0.12, 2);
  });
});
