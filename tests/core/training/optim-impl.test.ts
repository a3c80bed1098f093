import { describe, expect, it } from 'vitest';
import { estimate, estimateDetail } from '../../../src/core/estimate';
import { bnbDequantBytes } from '../../../src/core/formats/quantized';
import { adamStepTemp } from '../../../src/core/training/optimizer';
import { parseScenario, serializeScenario } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { LLAMA2, P, run } from './llama2';

describe('AdamW step temporaries by implementation (torch/optim/adamw.py)', () => {
  it('foreach: one fp32 state over all parameters; fused: none; for-loop: the largest tensor', () => {
    expect(adamStepTemp('foreach', 4 * P, 4 * 32000 * 4096)).toBe(4 * P);
    expect(adamStepTemp('fused', 4 * P, 4 * 32000 * 4096)).toBe(0);
    expect(adamStepTemp('for-loop', 4 * P, 4 * 32000 * 4096)).toBe(4 * 32000 * 4096);
  });

  // batch 1, seq 16: activations are tiny, so the optimizer step is the peak
  const tiny = { precision: 'amp-bf16', seq: 16, batch: 1, attn: 'sdpa' } as const;
  it('Llama-2-7b AMP, tiny batch: foreach − fused = 4·P bytes (the sqrt(exp_avg_sq) list in fp32)', () => {
    const foreach = run({ ...tiny, optimImpl: 'foreach' });
    const fused = run({ ...tiny, optimImpl: 'fused' });
    expect(foreach.allocatedBytes - fused.allocatedBytes).toBe(4 * P);
  });
  it('for-loop − fused = the largest tensor in fp32: the 32000 × 4096 embedding (or LM head)', () => {
    const loop = run({ ...tiny, optimImpl: 'for-loop' });
    const fused = run({ ...tiny, optimImpl: 'fused' });
    expect(loop.allocatedBytes - fused.allocatedBytes).toBe(4 * 32000 * 4096);
  });
  it('bitsandbytes paged AdamW steps each tensor in its own kernel: no foreach list to build', () => {
    const paged = { ...tiny, optimizer: 'paged-adamw' } as const;
    expect(run({ ...paged, optimImpl: 'foreach' }).allocatedBytes).toBe(run({ ...paged, optimImpl: 'fused' }).allocatedBytes);
  });
  it('freeze trains the LM head too: its for-loop temporary is the 32000 × 4096 head in fp32', () => {
    const frozen = { ...tiny, method: 'freeze' } as const;
    // measured at the optimizer step: with fused AdamW the trained block's backward (its saved
    // tensors next to every gradient, training/layer-backward.ts) is the higher moment
    const atStep = (optimImpl: 'for-loop' | 'fused'): number => {
      const d = estimateDetail({ ...defaultScenario(), model: LLAMA2, mode: 'training', ...frozen, optimImpl });
      if (!d.ok || !d.value.built.phases) throw new Error('refused');
      return d.value.built.phases.atStep;
    };
    expect(atStep('for-loop') - atStep('fused')).toBe(4 * 32000 * 4096);
    expect(run({ ...frozen, optimImpl: 'for-loop' }).allocatedBytes - run({ ...frozen, optimImpl: 'fused' }).allocatedBytes).toBeGreaterThan(0);
  });
  it('ZeRO steps with DeepSpeed kernels: the implementation key changes nothing there', () => {
    const z = { ...tiny, gpus: 8, zero: 1 } as const;
    expect(run({ ...z, optimImpl: 'foreach' }).allocatedBytes).toBe(run({ ...z, optimImpl: 'fused' }).allocatedBytes);
  });
  it('round-trips through the schema', () => {
    const s = { ...defaultScenario(), mode: 'training' as const, optimImpl: 'for-loop' as const, bnbCompute: 'bf16' as const };
    const rec = serializeScenario(s);
    expect(rec['optim-impl']).toBe('for-loop');
    expect(rec['bnb-compute']).toBe('bf16');
    const back = parseScenario(rec);
    expect(back.errors).toEqual([]);
    expect(back.scenario.optimImpl).toBe('for-loop');
    expect(back.scenario.bnbCompute).toBe('bf16');
  });
});

describe('bitsandbytes 4-bit dequantization buffer (matmul_4bit)', () => {
  // Llama-2-7b's largest quantized Linear is an MLP projection: 4096 × 11008
  const largest = 4096 * 11008;
  it('float32 compute (transformers default): 16-bit dequant + its fp32 copy = 6 B per element', () => {
    expect(bnbDequantBytes('fp32', largest)).toBe(6 * largest);
    expect(bnbDequantBytes('bf16', largest)).toBe(2 * largest);
  });
  it("inference over a multi-token prompt holds it in the MLP's moment: down_proj's 16-bit + fp32 weight beside its fp32 input (inference/quant-linear.ts)", () => {
    const acts = (weights: 'nf4' | 'bf16'): number => {
      const r = estimate({ ...defaultScenario(), model: LLAMA2, mode: 'inference', weights, prompt: 20, gen: 60, bnbCompute: 'fp32' });
      if (!r.ok) throw new Error('estimate failed');
      return r.value.terms.find((t) => t.id === 'activations')?.bytes ?? NaN;
    };
    // down_proj's moment: the product (2·n·f) and its fp32 copy (4·n·f) make the plain set's 6·n·f, and the weight adds 6 B per element
    expect(acts('nf4') - acts('bf16')).toBe(6 * largest);
  });
});
