import { describe, expect, test } from 'vitest';
import { candidates, rankFixes } from '../../../src/ui/calculator/fixes';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { findGpu } from '../../../src/core/gpus';
import type { Scenario } from '../../../src/core/types';

const rtx4090 = findGpu('rtx-4090')!.capacityBytes; // 24564 MiB as nvidia-smi reports it
const total = (s: Scenario) => {
  const r = estimate(s);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.deviceBytes;
};

describe('how to make it fit', () => {
  test('full fine-tuning an 8B model on a 24 GiB card: every listed change lowers memory and is re-estimated', () => {
    const s: Scenario = { ...defaultScenario(), mode: 'training', seq: 2048, batch: 4, gpu: 'rtx-4090' };
    const now = total(s);
    // 8.03B params x (2 weights + 2 grads + 12 AdamW/master) bytes alone exceed 24 GiB (docs/reference/formulas.md §4.1)
    expect(8_030_261_248 * 16).toBeGreaterThan(rtx4090);
    expect(now).toBeGreaterThan(rtx4090);
    const fixes = rankFixes(s, rtx4090, 50);
    expect(fixes.length).toBeGreaterThan(3);
    for (const f of fixes) {
      expect(f.deviceBytes).toBe(total(f.scenario));
      expect(f.deviceBytes).toBeLessThan(now);
      expect(f.fits).toBe(f.deviceBytes <= rtx4090);
    }
    // fitting changes come first
    const firstMiss = fixes.findIndex((f) => !f.fits);
    if (firstMiss >= 0) expect(fixes.slice(firstMiss).every((f) => !f.fits)).toBe(true);
    // the QLoRA + checkpointing + 8-bit paged optimizer + batch 1 stack is offered and fits
    const all = fixes.find((f) => f.key === 'fix.allTraining');
    expect(all?.fits).toBe(true);
  });

  test('inference candidates respect the engine: llama.cpp gets GGUF and ggml KV types only', () => {
    const s: Scenario = { ...defaultScenario(), engine: 'llama.cpp', weights: 'gguf-q8_0', kv: 'fp16' };
    const c = candidates(s);
    const weights = c.filter((x) => x.key === 'fix.weights').map((x) => x.params.value);
    const kv = c.filter((x) => x.key === 'fix.kv').map((x) => x.params.value);
    expect(weights).toEqual(['gguf-q4_k_m']);
    expect(kv.sort()).toEqual(['q4_0', 'q8_0']);
  });

  test('a Q6_K GGUF (6.5625 bits per weight, block_q6_K 210 B / 256) is offered Q4_K_M, the smaller GGUF mix', () => {
    const s: Scenario = { ...defaultScenario(), engine: 'llama.cpp', weights: 'gguf-q6_k', kv: 'fp16' };
    const weights = candidates(s)
      .filter((x) => x.key === 'fix.weights')
      .map((x) => x.params.value);
    expect(weights).toEqual(['gguf-q4_k_m']);
    const q4 = rankFixes(s, null, 50).find((f) => f.key === 'fix.weights');
    expect(q4?.deviceBytes).toBeLessThan(total(s));
  });

  test('vLLM, Llama-3.1-8B on a 24 GiB card, 8 requests × 8,192 tokens: the pool is too small, fp8 KV makes it fit', () => {
    // vLLM sizes its pool to gpu_memory_utilization, so an fp8 cache leaves the device total alone and
    // holds twice the tokens (1 B instead of 2 B per element, docs/reference/formulas.md §3.1)
    const s: Scenario = { ...defaultScenario(), engine: 'vllm', gpu: 'rtx-4090', batch: 8, prompt: 8192, kv: 'fp16' };
    const need = s.batch * (s.prompt + s.gen);
    const base = estimate(s);
    expect(base.ok && (base.value.engine?.kvTokens ?? 0) < need).toBe(true);
    const fp8 = rankFixes(s, rtx4090, 50).find((f) => f.key === 'fix.kv' && f.params.value === 'fp8');
    expect(fp8?.fits).toBe(true);
    const after = estimate(fp8!.scenario);
    expect(after.ok && (after.value.engine?.kvTokens ?? 0) >= need).toBe(true);
  });

  test('full fine-tuning with foreach AdamW, tiny batch: fused=True is offered and saves one fp32 state (4 B × 8.03B params)', () => {
    // batch 1 × 16 tokens: the optimizer step is the peak, so the foreach temporary shows in full
    const s: Scenario = { ...defaultScenario(), mode: 'training', seq: 16, batch: 1, optimImpl: 'foreach' };
    const fused = rankFixes(s, rtx4090, 50).find((f) => f.key === 'fix.fusedAdam');
    expect(fused).toBeDefined();
    expect(total(s) - fused!.deviceBytes).toBeGreaterThanOrEqual(4 * 8_030_261_248 * 0.99);
  });
});

describe('more GPUs only when nothing on one GPU reaches it (issue 12)', () => {
  test('Llama-3.1-8B full fine-tuning on a 4090: single-GPU changes fit, so no "split over n GPUs"', () => {
    const s: Scenario = { ...defaultScenario(), mode: 'training', gpu: 'rtx-4090' };
    const fixes = rankFixes(s, rtx4090, 50);
    expect(fixes.some((f) => f.fits && f.scenario.gpus === 1)).toBe(true);
    expect(fixes.filter((f) => f.scenario.gpus > 1)).toEqual([]);
    // no GPU chosen: nothing to judge a split against
    expect(rankFixes({ ...s, gpu: '' }, null, 50).filter((f) => f.scenario.gpus > 1)).toEqual([]);
  });

  test('a model no single-GPU change fits: splitting over GPUs is offered', () => {
    // Llama-3.1-70B (70.55B params) QLoRA: nf4 weights alone are 70.55e9 x 0.5 B = 32.9 GiB > 24 GiB
    const s: Scenario = { ...defaultScenario(), model: 'meta-llama/Llama-3.1-70B', mode: 'training', method: 'qlora', weights: 'nf4', gpu: 'rtx-4090' };
    expect(70.55e9 * 0.5).toBeGreaterThan(rtx4090);
    const fixes = rankFixes(s, rtx4090, 50);
    expect(fixes.some((f) => f.fits && f.scenario.gpus === 1)).toBe(false);
    expect(fixes.some((f) => f.scenario.gpus > 1)).toBe(true);
  });

  test('FLUX.1-dev in bf16 on a 24 GiB card: the four components alone are 33.7 GB, model CPU offload leaves the 23.8 GB transformer and fits', () => {
    const s: Scenario = { ...defaultScenario(), model: 'black-forest-labs/FLUX.1-dev', gpu: 'rtx-4090' };
    // (11,901,408,320 + 4,762,310,656 + 123,060,480 + 83,819,683) parameters × 2 B
    expect(16_870_599_139 * 2).toBeGreaterThan(rtx4090);
    const fixes = rankFixes(s, rtx4090, 50);
    const off = fixes.find((f) => f.key === 'fix.offloadModel');
    expect(off?.scenario.offloadModel).toBe('on');
    expect(off?.deviceBytes).toBe(total(off!.scenario));
    // the transformer alone: 11,901,408,320 × 2 B = 22.17 GiB, under the card's 23.99 GiB with its activations and context
    expect(off?.fits).toBe(true);
    // no LLM-only change is offered: quantized weights break the pipeline's dtype rule, KV types change nothing
    expect(fixes.some((f) => f.key === 'fix.kv' || f.scenario.weights === 'nf4')).toBe(false);
  });
});

describe('how to make an embedding model fit', () => {
  test('no KV-cache change is offered: an encoder keeps no cache', () => {
    const s: Scenario = { ...defaultScenario(), model: 'BAAI/bge-m3', prompt: 8192, batch: 64 };
    const keys = candidates(s).map((c) => c.key);
    expect(keys).not.toContain('fix.kv');
    expect(keys).not.toContain('fix.allInference');
    expect(keys).toContain('fix.batch');
    // a decoder still gets them
    expect(candidates({ ...defaultScenario() }).map((c) => c.key)).toContain('fix.kv');
  });
});
