/**
 * Property: with fixed lengths, the replayed step timeline and the closed form agree, because
 * both are built from training/terms.ts's phase quantities.
 *
 * Modelled (asserted here): decoder-only presets, one GPU, no pipeline, LoRA, no full
 * checkpointing, no activation offloading. There the replay's peak of requested bytes equals
 * the closed form's allocated peak within 0.1 % (fractional weight shares rounded up to whole
 * bytes). The allocator's own peak is above it by the blocks' slack: 512-byte rounding and a
 * large-pool remainder of up to 1 MiB left unsplit (docs/reference/allocator.md §4, `should_split`), which
 * torch.cuda.max_memory_allocated counts and the closed form does not — up to ~10 % when the
 * saved tensors are just under 10 MiB (two per 20 MiB segment, the 1 MiB rest absorbed).
 *
 * Not yet in agreement (the replay shows moments the closed form does not add up):
 * - full fine-tuning: the last layers of backward hold nearly every gradient next to one layer's
 *   saved (or recomputed) tensors, above the closed form's end-of-backward sum;
 * - full checkpointing: the closed form counts the LM-head input next to the recomputed layer,
 *   the replay frees it first (the replay is lower by s·b·h·(e_res + e));
 * - QLoRA: the closed form counts one dequantized weight at the loss (the replay: none);
 * - activation offloading, ZeRO / DDP buffers on several GPUs, pipeline parallelism, and
 *   encoder / encoder-decoder models (BERT, T5).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { stepTimeline } from '../../../src/core/timeline';
import type { Scenario } from '../../../src/core/types';

const MODELS = ['openai-community/gpt2', 'meta-llama/Llama-3.2-1B', 'Qwen/Qwen2.5-0.5B', 'google/gemma-2-2b', 'microsoft/Phi-3-mini-4k-instruct', 'meta-llama/Llama-2-7b-hf', 'tiiuae/falcon-7b', 'Qwen/Qwen3-30B-A3B'];

const modelled = fc.record({
  model: fc.constantFrom(...MODELS),
  precision: fc.constantFrom('fp32', 'amp-bf16', 'bf16'),
  optimizer: fc.constantFrom('adamw', 'adamw-8bit', 'paged-adamw', 'sgd', 'sgd-momentum', 'adafactor', 'lion'),
  optimImpl: fc.constantFrom('foreach', 'fused', 'for-loop'),
  gradCkpt: fc.constantFrom('none', 'selective'),
  attn: fc.constantFrom('sdpa', 'eager', 'flash'),
  batch: fc.integer({ min: 1, max: 8 }),
  seq: fc.integer({ min: 16, max: 4096 }),
  gradAccum: fc.constantFrom(1, 4),
  gradZero: fc.constantFrom('none', 'zeros'),
  lossChunks: fc.constantFrom(1, 8),
  compile: fc.constantFrom('none', 'inductor'),
  optimStep: fc.constantFrom('after-backward', 'in-backward'),
  loraRank: fc.constantFrom(8, 64),
  loraTargets: fc.constantFrom(['q', 'v'], ['q', 'k', 'v', 'o', 'gate', 'up', 'down']),
  loraDropout: fc.constantFrom(0, 0.05),
}) as fc.Arbitrary<Partial<Scenario>>;

describe('timeline ⇔ closed form (fixed lengths)', () => {
  it('LoRA on one GPU: requested peak = allocated within 0.1 %; allocator peak above it by block slack only', () => {
    let checked = 0;
    const reservedRatio: number[] = [];
    fc.assert(fc.property(modelled, (o) => {
      const s: Scenario = { ...defaultScenario(), mode: 'training', method: 'lora', weights: 'bf16', ...o };
      const e = estimate(s);
      if (!e.ok) return;
      const t = stepTimeline(s);
      if (!t.ok) throw new Error('timeline refused a scenario estimate() accepted');
      checked++;
      const closed = e.value.allocatedBytes;
      expect(Math.abs(t.value.peakRequested / closed - 1)).toBeLessThan(1e-3);
      expect(t.value.peakAllocated).toBeGreaterThanOrEqual(t.value.peakRequested);
      // each block exceeds its request by < 512 B of rounding plus at most 1 MiB left unsplit
      expect(t.value.peakAllocated - t.value.peakRequested).toBeLessThanOrEqual(t.value.peakTensors * (2 ** 20 + 512));
      expect(t.value.peakReserved).toBeGreaterThanOrEqual(t.value.peakAllocated);
      reservedRatio.push(t.value.peakReserved / e.value.reservedBytes);
    }), { numRuns: 120, seed: 20261125 });
    expect(checked).toBeGreaterThan(60);
    // one fixed-length step leaves little to fragment: the replay's reserved peak sits near the
    // closed form's segment-rounding estimate (runtime.ts segmentWaste) in the median
    reservedRatio.sort((a, b) => a - b);
    const median = reservedRatio[Math.floor(reservedRatio.length / 2)];
    expect(median).toBeGreaterThan(0.95);
    expect(median).toBeLessThan(1.05);
  });
});
