import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { parseScenario, serializeScenario } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Scenario } from '../../../src/core/types';

const LLAMA32_3B = 'meta-llama/Llama-3.2-3B';
const P = 3_212_749_824; // Llama-3.2-3B published parameter count (tied embeddings)
const V = 128256,
  H = 3072;

function run(over: Partial<Scenario>): Estimate {
  const r = estimate({ ...defaultScenario(), model: LLAMA32_3B, mode: 'training', precision: 'bf16', ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const bytesOf = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;

describe('optimizer step in backward (torchtune optimizer_in_bwd)', () => {
  // tiny batch: activations negligible, so the gradients decide the peak
  const tiny = { seq: 16, batch: 1, optimizer: 'adamw-8bit' } as const;
  it('only the largest gradient is live: the 128256 × 3072 tied embedding in bf16', () => {
    const e = run({ ...tiny, optimStep: 'in-backward' });
    expect(bytesOf(e, 'gradients')).toBe(V * H * 2);
  });
  it('after-backward holds all P·2 B of gradients (+ the tied sum at the embedding, 2·V·h·2); in-backward saves P·2 + 2·V·h·2 − V·h·2 of them', () => {
    const after = run(tiny);
    const inBwd = run({ ...tiny, optimStep: 'in-backward' });
    expect(bytesOf(after, 'gradients')).toBe(P * 2);
    // after-backward peaks at the tied embedding's backward (training/tied-grad.ts): every gradient,
    // the embedding's own and the out-of-place sum; activations and logits at s·b = 16 are under 2 %
    const saved = P * 2 + 2 * V * H * 2 - V * H * 2;
    expect(after.allocatedBytes - inBwd.allocatedBytes).toBeGreaterThan(0.98 * saved);
    expect(after.allocatedBytes - inBwd.allocatedBytes).toBeLessThanOrEqual(saved);
  });
  it('torch AdamW steps one tensor at a time: the temporary is one bf16 state of the embedding, not of all P', () => {
    const e = run({ seq: 16, batch: 1, optimizer: 'adamw', optimStep: 'in-backward' });
    const grads = e.terms.find((t) => t.id === 'gradients')!;
    expect(grads.derivation.values.step_temp).toBe(V * H * 2);
  });
  it('fused AdamW (optim-impl=fused) steps in one kernel: no temporary', () => {
    const e = run({ seq: 16, batch: 1, optimizer: 'adamw', optimImpl: 'fused', optimStep: 'in-backward' });
    expect(e.terms.find((t) => t.id === 'gradients')!.derivation.values.step_temp).toBe(0);
  });
  it('LoRA: the widest adapter matrix, r × f for an MLP target (B of down_proj: 3072 × 64, A: 64 × 8192)', () => {
    const e = run({ method: 'lora', loraRank: 64, loraTargets: ['q', 'v', 'o', 'gate', 'up', 'down'], optimStep: 'in-backward', seq: 16 });
    expect(bytesOf(e, 'gradients')).toBe(64 * 8192 * 4); // PEFT adapters are fp32 (autocast_adapter_dtype)
  });
});

describe('optim-step rules (torchtune full_finetune_single_device checks)', () => {
  const errs = (rec: Record<string, string>) => parseScenario({ mode: 'training', ...rec }).errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`);
  it('gradient accumulation > 1 is incompatible: a link keeps the typed count as the form does, and the estimate refuses it', () => {
    const r = parseScenario({ mode: 'training', 'optim-step': 'in-backward', 'grad-accum': '4' });
    expect(r.errors).toEqual([]);
    expect([r.scenario.optimStep, r.scenario.gradAccum]).toEqual(['in-backward', 4]);
    const e = estimate(r.scenario);
    expect(e.ok ? [] : e.errors.map((x) => x.code)).toEqual(['optim-in-bwd-accum']);
  });
  it('ZeRO-1/2 and pipeline parallelism are incompatible; zero 3 (FSDP2) and plain DDP are not', () => {
    expect(errs({ 'optim-step': 'in-backward', gpus: '8', zero: '2' })).toEqual(['optim-step:incompatible:zero']);
    // pp is a typed number: kept, and refused by the estimate
    const pp = parseScenario({ mode: 'training', 'optim-step': 'in-backward', gpus: '8', pp: '2' });
    expect(pp.errors).toEqual([]);
    const e = estimate(pp.scenario);
    expect(e.ok ? [] : e.errors.map((x) => x.code)).toEqual(['optim-in-bwd-pp']);
    expect(errs({ 'optim-step': 'in-backward', gpus: '8', zero: '3' })).toEqual([]);
  });
  it('the core refuses the same combination when called directly', () => {
    const r = estimate({ ...defaultScenario(), mode: 'training', optimStep: 'in-backward', gradAccum: 4 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].code).toBe('optim-in-bwd-accum');
  });
  it('the technique keys warn as unused at inference', () => {
    const r = parseScenario({ compile: 'inductor', 'loss-chunks': '8' });
    expect(r.warnings.map((w) => `${w.key}:${w.code}`)).toEqual(['compile:unused-key', 'loss-chunks:unused-key']);
  });
});

describe('schema round trip of the technique keys', () => {
  it('compile, optim-step, act-offload, loss-chunks serialize and parse back', () => {
    const s: Scenario = { ...defaultScenario(), mode: 'training', gradCkpt: 'full', compile: 'inductor', optimStep: 'in-backward', actOffload: 'cpu', lossChunks: 8 };
    const rec = serializeScenario(s);
    expect(rec).toMatchObject({ compile: 'inductor', 'optim-step': 'in-backward', 'act-offload': 'cpu', 'loss-chunks': '8' });
    const back = parseScenario(rec);
    expect(back.errors).toEqual([]);
    expect(back.scenario).toEqual(s);
  });
  it('defaults are the eager, unchunked, after-backward, on-GPU recipe and are not written', () => {
    const rec = serializeScenario({ ...defaultScenario(), mode: 'training' });
    for (const k of ['compile', 'optim-step', 'act-offload', 'loss-chunks']) expect(rec[k]).toBeUndefined();
  });
  it('loss-chunks outside 1…1024 is out of range', () => {
    expect(parseScenario({ mode: 'training', 'loss-chunks': '0' }).errors[0].code).toBe('out-of-range');
  });
});

describe('bitsandbytes paged optimizer state (cudaMallocManaged, outside the caching allocator)', () => {
  it("is on the device but not in torch's allocated total", () => {
    const paged = run({ optimizer: 'paged-adamw-8bit', seq: 16 });
    const plain = run({ optimizer: 'adamw-8bit', seq: 16 });
    const state = bytesOf(plain, 'optimizer');
    expect(state).toBeCloseTo(P * 2 * (1 + 4 / 256), -4); // two uint8 states + fp32 absmax per 256
    expect(plain.allocatedBytes - paged.allocatedBytes).toBeCloseTo(state, 0);
    expect(paged.terms.find((t) => t.id === 'optimizer')!.level).toBe('device');
    expect(paged.deviceBytes - paged.reservedBytes).toBeCloseTo(plain.deviceBytes - plain.reservedBytes + state, 0);
  });
});
