import { describe, expect, test } from 'vitest';
import { recommend } from '../../../src/core/deploy/recommend';
import { expertsTouched, rooflineSpeed } from '../../../src/core/deploy/speed';
import { estimate, resolveModel } from '../../../src/core/estimate';
import { findGpu } from '../../../src/core/gpus';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { maxContextDetail, solveOn } from '../../../src/core/solve';
import type { Scenario } from '../../../src/core/types';

const GIB = 2 ** 30;
const sc = (over: Partial<Scenario>): Scenario => ({ ...defaultScenario(), ...over });
const run = (s: Scenario) => {
  const e = estimate(s);
  const r = resolveModel(s);
  if (!e.ok || !r.ok) throw new Error('scenario failed');
  return { e: e.value, arch: r.value.arch };
};

// Llama-3.1-8B: 8,030,261,248 parameters (Meta model card); 32 layers, 8 KV heads × 128, 128k context.
const LLAMA31 = 'meta-llama/Llama-3.1-8B';

describe('recommend ranks the catalogue', () => {
  test('Llama-3.1-8B bf16, 8,192 + 256 tokens: an RTX 4090 fits, no card under 17 GiB does', () => {
    // weights alone are 8,030,261,248 · 2 B = 14.96 GiB, the KV cache 8,448 · 128 KiB = 1.03 GiB
    expect((8_030_261_248 * 2) / GIB).toBeCloseTo(14.96, 2);
    const r = recommend(sc({ model: LLAMA31, prompt: 8192, gen: 256 }));
    if (!r.ok) throw new Error('recommend failed');
    expect(r.value.find((g) => g.id === 'rtx-4090')?.fits).toBe(true);
    const small = r.value.filter((g) => g.capacityBytes < 17 * GIB);
    expect(small.length).toBeGreaterThan(5);
    for (const g of small) expect(g.fits).toBe(false);
    // cheapest kind first: the first fitting card is a consumer card, and every fitting card precedes every other
    expect(r.value[0].category).toBe('consumer');
    const firstMiss = r.value.findIndex((g) => !g.fits);
    expect(r.value.slice(firstMiss).every((g) => !g.fits)).toBe(true);
    // a 16 GiB card needs two (layers split over 2 GPUs: ~7.5 GiB of weights each)
    expect(r.value.find((g) => g.id === 'rtx-4080')?.count).toBe(2);
  });
});

describe('solve caps the context at the model', () => {
  test('Llama-2-7b fp16 on an A100 80GB: longest prompt is 4,096 − 256 generated, memory allows more', () => {
    const a100 = findGpu('a100-80gb')!;
    const r = maxContextDetail(sc({ model: 'meta-llama/Llama-2-7b-hf', weights: 'fp16' }), a100.capacityBytes);
    if (!r.ok) throw new Error('solve failed');
    // config.json max_position_embeddings = 4096; generate needs prompt + gen ≤ 4096
    expect(r.value.modelLimit).toBe(4096 - 256);
    expect(r.value.tokens).toBe(4096 - 256);
    expect(r.value.memoryAllowsMore).toBe(true);
    const all = solveOn(sc({ model: 'meta-llama/Llama-2-7b-hf', weights: 'fp16' }), a100.capacityBytes);
    expect(all.ok && all.value.maxContext).toBe(3840);
    expect(all.ok && all.value.minGpus).toEqual({ gpus: 1, tp: 1, pp: 1 });
  });
});

describe('roofline speed bounds', () => {
  test('Llama-3.1-8B bf16, batch 1 on an H100 SXM: about 200 decode tokens/s', () => {
    const h100 = findGpu('h100-sxm')!;
    const s = sc({ model: LLAMA31, gpu: 'h100-sxm' });
    const { e, arch } = run(s);
    const sp = rooflineSpeed(s, e, arch, h100, 0.4);
    // per step: weights 8,030,261,248 · 2 B + KV at the mean context (2048 + 256/2) · 131,072 B; 3,350 GB/s
    const bytes = 8_030_261_248 * 2 + (2048 + 128) * 2 * 32 * 8 * 128 * 2;
    expect(sp.decodeTokensPerSecond!.value).toBeCloseTo(3350e9 / bytes, 6);
    expect(Math.round(sp.decodeTokensPerSecond!.value)).toBe(205);
    // prefill: 989 dense bf16 TFLOPS / (2·P + 2·L·a·d·s/2) at s = 2048
    const flops = 2 * 8_030_261_248 + 2 * 32 * 32 * 128 * 1024;
    expect(sp.prefillTokensPerSecond!.value).toBeCloseTo((h100.tflops.bf16! * 1e12) / flops, 3);
    expect(sp.stepSeconds).toBeNull();
  });

  test('training step: 6·P per token for full fine-tuning, 4·P with a frozen base (Kaplan et al. 2020 §2.1)', () => {
    const a100 = findGpu('a100-80gb')!;
    const s = sc({ model: 'meta-llama/Llama-2-7b-hf', mode: 'training', batch: 8, seq: 2048, gpus: 8, zero: 3, precision: 'amp-bf16' });
    const { e, arch } = run(s);
    const step = rooflineSpeed(s, e, arch, a100, 0.4).stepSeconds!;
    // tokens per step 8 · 2048 · 8 GPUs; attention 2·L·a·d·(s/2) forward, ×3 with backward
    const tokens = 8 * 2048 * 8;
    const attn = 2 * 32 * 32 * 128 * 1024 * 3;
    expect(step.value).toBeCloseTo(((6 * 6_738_415_616 + attn) * tokens) / (8 * 312e12 * 0.4), 6);
    const lora = { ...s, method: 'lora' as const, zero: 0 as const, gpus: 1 };
    const l = run(lora);
    const loraStep = rooflineSpeed(lora, l.e, l.arch, a100, 0.5).stepSeconds!;
    expect(loraStep.value).toBeCloseTo(((4 * 6_738_415_616 + attn) * 8 * 2048) / (312e12 * 0.5), 6);
  });

  test('split=layers: the GPUs of one device_map="auto" process take turns, so the step is one GPU\'s', () => {
    const a100 = findGpu('a100-80gb')!;
    const s = sc({ model: 'meta-llama/Llama-2-7b-hf', mode: 'training', method: 'full', batch: 1, seq: 2048, gpus: 2, split: 'layers', precision: 'amp-bf16' });
    const { e, arch } = run(s);
    const step = rooflineSpeed(s, e, arch, a100, 0.4).stepSeconds!;
    // one sequence of 2048 tokens, 6·P + attention per token, on ONE A100 (312 TFLOPS bf16) at 40 %
    const attn = 2 * 32 * 32 * 128 * 1024 * 3;
    expect(step.value).toBeCloseTo(((6 * 6_738_415_616 + attn) * 2048) / (312e12 * 0.4), 6);
  });

  test('MoE decode reads only the experts routed to: E·(1 − (1 − k/E)^b)', () => {
    expect(expertsTouched(8, 2, 1)).toBeCloseTo(2, 12);
    expect(expertsTouched(8, 2, 2)).toBeCloseTo(8 * (1 - 0.75 ** 2), 12);
    expect(expertsTouched(64, 8, 10_000)).toBeCloseTo(64, 6);
  });

  test('fp32 weights have no tensor-core peak: no compute bound, with a note', () => {
    const h100 = findGpu('h100-sxm')!;
    const s = sc({ model: 'meta-llama/Llama-2-7b-hf', weights: 'fp32' });
    const { e, arch } = run(s);
    const sp = rooflineSpeed(s, e, arch, h100, 0.4);
    expect(sp.prefillTokensPerSecond).toBeNull();
    expect(sp.notes.length).toBe(1);
    expect(sp.decodeTokensPerSecond!.value).toBeGreaterThan(0);
  });
});
