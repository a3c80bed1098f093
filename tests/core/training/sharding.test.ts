import { describe, expect, it } from 'vitest';
import { paramsPerGpu, shardStates } from '../../../src/core/training/sharding';
import type { ParamBreakdown } from '../../../src/core/types';

/** ZeRO paper's accounting: 2 B fp16 weights, 2 B fp16 grads, K = 12 (master + m + v). */
const zeroPaper = { weights: 2, gradients: 2, master: 4, optimizer: 8 };
const sum = (s: ReturnType<typeof shardStates>) => s.weights + s.gradients + s.master + s.optimizer;

describe('ZeRO partitioning (Rajbhandari et al. 2020, Fig. 1)', () => {
  it('Ψ = 7.5B, N_d = 64: 120 / 31.4 / 16.6 / 1.9 GB per GPU', () => {
    const psi = 7.5e9;
    expect(sum(shardStates(psi, zeroPaper, 0, 64, 'none')) / 1e9).toBeCloseTo(120, 6);
    expect(sum(shardStates(psi, zeroPaper, 1, 64, 'none')) / 1e9).toBeCloseTo(31.4, 1);
    expect(sum(shardStates(psi, zeroPaper, 2, 64, 'none')) / 1e9).toBeCloseTo(16.6, 1);
    expect(sum(shardStates(psi, zeroPaper, 3, 64, 'none')) / 1e9).toBeCloseTo(1.9, 1);
  });
  it('Llama-2-7b on 8 GPUs: ZeRO-1 37.1, ZeRO-2 25.3, ZeRO-3 13.5 GB (docs/reference/formulas.md §4.2 check)', () => {
    const p = 6_738_415_616;
    expect(sum(shardStates(p, zeroPaper, 1, 8, 'none')) / 1e9).toBeCloseTo(37.1, 1);
    expect(sum(shardStates(p, zeroPaper, 2, 8, 'none')) / 1e9).toBeCloseTo(25.3, 1);
    expect(sum(shardStates(p, zeroPaper, 3, 8, 'none')) / 1e9).toBeCloseTo(13.5, 1);
  });
  it('ZeRO-Offload of the optimizer leaves 2·P of 16-bit weights (DeepSpeed zero2 estimator)', () => {
    const p = 2851e6;
    expect(sum(shardStates(p, zeroPaper, 2, 8, 'optimizer'))).toBe(2 * p);
    expect(sum(shardStates(p, zeroPaper, 3, 8, 'params'))).toBe(0);
  });
});

describe('Megatron most-loaded shard (theoretical_memory_usage.py)', () => {
  const llama2: ParamBreakdown = {
    total: 6_738_415_616,
    active: 6_738_415_616,
    embedding: 131_072_000,
    lmHead: 131_072_000,
    blockLinear: 32 * 4096 * (4 * 4096 + 3 * 11008),
    other: 32 * 2 * 4096 + 4096,
    largestLinear: 4096 * 11008,
    perLayer: 202_383_360,
  };
  it('t = 1, p = 1 holds everything', () => {
    expect(paramsPerGpu(llama2, 1, 1)).toBe(llama2.total);
  });
  it('(P_transformer/p + V·h)/t for p > 1', () => {
    const transformer = llama2.total - 2 * 131_072_000;
    expect(paramsPerGpu(llama2, 2, 4)).toBe((transformer / 4 + 131_072_000) / 2);
  });
});
