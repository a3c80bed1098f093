/**
 * Tied embeddings in full fine-tuning (src/core/training/tied-grad.ts): the head's and the
 * embedding's gradients summed by the autograd engine's InputBuffer, out of place when the head's
 * arrives as a view (torch/csrc/autograd/input_buffer.cpp `accumulate`, `can_accumulate_inplace`).
 * Hand values from the configs (Llama-3.2-3B: vocab 128256, hidden 3072, tied) and our H200 run
 * t024 (tools/measure/measure_trainer.py: 27,347,398,144 B allocated peak).
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { findPreset } from '../../../src/core/model/presets';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { tiedGradient, tiedSumMoment, tiedWaiting } from '../../../src/core/training/tied-grad';
import type { Scenario } from '../../../src/core/types';

const arch = (id: string) => {
  const p = findPreset(id);
  if (!p) throw new Error(id);
  return p.arch;
};
const L3 = arch('meta-llama/Llama-3.2-3B');
const VH = 128256 * 3072;
const full = (over: Partial<Scenario> = {}): Scenario => ({ ...defaultScenario(), model: 'meta-llama/Llama-3.2-3B', mode: 'training', method: 'full', precision: 'bf16', weights: 'bf16', ...over });

describe('tied embeddings: the two gradients meet at the embedding', () => {
  it('Llama-3.2-3B ties its head to the embedding: one V·h = 394,002,432-element weight', () => {
    expect(L3.tiedEmbeddings).toBe(true);
    expect(L3.vocab * L3.hidden).toBe(VH);
    expect(VH).toBe(394_002_432);
  });

  it('bf16 (no cast): the head gradient is a view, so the sum is a third tensor: 2·V·h·2 = 1,576,009,728 B beyond the gradients', () => {
    const t = tiedGradient(full(), L3, 2, 2);
    expect(t).toEqual({ bytes: 788_004_864, view: true });
    expect(tiedSumMoment(t, 1e9, false)).toBe(1e9 + 1_576_009_728);
    expect(tiedWaiting(t, false)).toBe(0);
  });

  it('AMP (fp32 gradients, bf16 matmul): ToCopyBackward makes a fresh tensor, added into in place: V·h·4 beyond', () => {
    const t = tiedGradient(full({ precision: 'amp-bf16', weights: 'fp32' }), L3, 4, 2);
    expect(t).toEqual({ bytes: 4 * VH, view: false });
    expect(tiedSumMoment(t, 1e9, false)).toBe(1e9 + 4 * VH);
  });

  it('accumulated gradients: the head gradient waits through the layers, then 3 (view) or 2 (cast) V·h tensors at the embedding', () => {
    const view = tiedGradient(full({ gradAccum: 2 }), L3, 2, 2);
    expect(tiedWaiting(view, true)).toBe(2 * VH);
    expect(tiedSumMoment(view, 0, true)).toBe(3 * 2 * VH);
    const cast = tiedGradient(full({ gradAccum: 2, precision: 'amp-bf16', weights: 'fp32' }), L3, 4, 2);
    expect(tiedSumMoment(cast, 0, true)).toBe(2 * 4 * VH);
  });

  it('not where autograd does not make both gradients in one buffer: LoRA, untied heads, ZeRO, tensor or pipeline splits', () => {
    expect(tiedGradient(full({ method: 'lora' }), L3, 2, 2).bytes).toBe(0);
    expect(tiedGradient(full(), arch('meta-llama/Llama-3.1-8B'), 2, 2).bytes).toBe(0);
    expect(tiedGradient(full({ zero: 2, gpus: 4 }), L3, 2, 2).bytes).toBe(0);
    expect(tiedGradient(full({ tp: 2, gpus: 2 }), L3, 2, 2).bytes).toBe(0);
    expect(tiedGradient(full({ pp: 2, gpus: 2 }), L3, 2, 2).bytes).toBe(0);
  });

  it('t024 (Llama-3.2-3B, bf16, full, checkpointing, AdamW): the peak is 8 B/param + the two extra V·h gradients, within 1 % of the 27,347,398,144 B measured', () => {
    const P = 3_212_749_824; // trainable parameters the run printed
    const e = estimate(full({ seq: 2048, batch: 1, gradCkpt: 'full', optimizer: 'adamw', optimImpl: 'fused', autocast: 'on' }));
    if (!e.ok) throw new Error('rejected');
    expect(e.value.allocatedBytes).toBeGreaterThanOrEqual(8 * P + 2 * 2 * VH);
    expect(Math.abs(e.value.allocatedBytes - 27_347_398_144) / 27_347_398_144).toBeLessThan(0.01);
  });
});
