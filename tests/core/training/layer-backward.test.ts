/**
 * The layers' backward moment (training/layer-backward.ts): autograd frees a node's saved tensors
 * after it runs (torch/csrc/autograd/engine.cpp call_function) and keeps each weight gradient as
 * .grad when it is made (AccumulateGrad::accumulateGrad), so the last layer differentiated holds
 * nearly every gradient next to its own saved (here: recomputed) tensors.
 * Llama-2-7b: h = 4096, L = 32, a = g = 32, d = 128, f = 11008, V = 32000, P = 6,738,415,616.
 */
import { describe, expect, it } from 'vitest';
import { CUBLAS_WORKSPACE_BYTES, TRAINING_CUBLAS_HANDLES } from '../../../src/core/runtime';
import { P, run } from './llama2';

const h = 4096,
  a = 32,
  g = 32,
  d = 128,
  f = 11008,
  V = 32000;

describe('full fine-tuning: end of backward (layer 0 differentiated)', () => {
  it('Llama-2-7b pure bf16, fused AdamW, full checkpointing, s = 2048, b = 1', () => {
    const s = 2048;
    // bf16 weights, bf16 gradients, AdamW exp_avg + exp_avg_sq in bf16 (torch zeros_like(param))
    const persistent = 2 * P + 4 * P + TRAINING_CUBLAS_HANDLES * CUBLAS_WORKSPACE_BYTES;
    // layer 0's checkpoint input s·b·h·e and its recomputed inventory (activations.ts, Llama style,
    // e = e_res = 2): s·b·(2·(4 + 2 + 2)·h + 2·(2ad + 2gd + 4f))
    const input = s * h * 2;
    const layer = s * (16 * h + 2 * (2 * a * d + 2 * g * d + 4 * f));
    // every gradient but the embedding's (V·h·2, made after layer 0): 2P − 2Vh
    const gradsBeforeEmbedding = 2 * P - 2 * V * h;
    const r = run({ method: 'full', precision: 'bf16', optimizer: 'adamw', optimImpl: 'fused', gradCkpt: 'full', attn: 'sdpa', seq: s, batch: 1 });
    expect(r.allocatedBytes).toBe(persistent + gradsBeforeEmbedding + input + layer);
    // above the optimizer-step moment (persistent + 2P) by layer 0's tensors less the embedding gradient
    expect(r.allocatedBytes - (persistent + 2 * P)).toBe(input + layer - 2 * V * h);
  });
});
