/**
 * Training a device_map="auto" model on 2 GPUs (training/layer-split.ts): accelerate's placement
 * (inference/device-map.ts), then the single-GPU closed form over each GPU's modules.
 * Llama-2-7b: h = 4096, L = 32, a = g = 32, d = 128, f = 11008, V = 32000, P = 6,738,415,616.
 *
 * Placement (accelerate get_balanced_memory + infer_auto_device_map), bf16 weights, no GPU chosen:
 * W = 2P = 13,476,831,232 B; embedding = head = 2Vh = 262,144,000 B; one block (final norm folded
 * in) = (W − 2·2Vh)/32 = 404,766,976 B; 291 leaf modules (224 Linears + 64 norms + embedding,
 * final norm, head), mean 46,311,447 B < block. Budget of GPU 0 = ⌊W/2⌋ + ⌊1.25·block⌋ =
 * 6,738,415,616 + 505,958,720, less the largest remaining layer (the block) while placing:
 * ⌊(7,244,374,336 − 404,766,976 − 262,144,000) / 404,766,976⌋ = 16 blocks; GPU 1: 16 blocks + head.
 * Each GPU: 2Vh + 16·block = 6,738,415,616 B of weights, P/2 = 3,369,207,808 parameters.
 */
import { describe, expect, it } from 'vitest';
import { CUBLAS_WORKSPACE_BYTES, TRAINING_CUBLAS_HANDLES } from '../../../src/core/runtime';
import type { Estimate } from '../../../src/core/types';
import { P, run } from './llama2';

const h = 4096,
  a = 32,
  g = 32,
  d = 128,
  f = 11008,
  V = 32000;
const s = 512;
const weightsPerGpu = 2 * V * h + 16 * ((2 * P - 2 * 2 * V * h) / 32);
const weightsTerm = (e: Estimate) => e.terms.find((t) => t.id === 'weights')?.bytes;

describe('split=layers training, Llama-2-7b on 2 GPUs', () => {
  it('accelerate places 16 blocks on each GPU: 6,738,415,616 B of bf16 weights each', () => {
    expect(weightsPerGpu).toBe(6_738_415_616);
  });

  it("full fine-tune, pure bf16, fused AdamW, s = 512: GPU 1 (head) is the larger by one layer's saved tensors", () => {
    const r = run({ method: 'full', precision: 'bf16', optimizer: 'adamw', optimImpl: 'fused', attn: 'sdpa', seq: s, batch: 1, gpus: 2, split: 'layers' });
    // per GPU: P/2 parameters × (2 B weights + 4 B AdamW states in bf16 + 2 B gradients) = 4P bytes
    const states = (P / 2) * (2 + 4 + 2) + TRAINING_CUBLAS_HANDLES * CUBLAS_WORKSPACE_BYTES;
    // one Llama layer's saved tensors (activations.ts, e = e_res = 2): s·(16h + 2·(2ad + 2gd + 4f))
    const layer = s * (16 * h + 2 * (2 * a * d + 2 * g * d + 4 * f));
    // GPU 0: the optimizer step (every gradient); its layer-0 backward moment holds all gradients
    // but the embedding's (2Vh = 262 MB) next to one layer (95 MB): lower
    // GPU 1: backward of its last layer differentiated (layer 16): the head gradient (made first)
    // and all 16 layers' gradients — every gradient of the GPU — next to layer 16's saved tensors
    expect(r.perGpu).toEqual([states, states + layer]);
    expect(r.allocatedBytes).toBe(states + layer);
    expect(weightsTerm(r)).toBe(weightsPerGpu);
  });

  it("LoRA (q, v, r = 16, fp32 adapters), pure bf16: GPU 1 adds the head's saved input and the loss backward", () => {
    const r = run({
      method: 'lora',
      weights: 'bf16',
      precision: 'bf16',
      optimizer: 'adamw',
      optimImpl: 'fused',
      attn: 'sdpa',
      seq: s,
      batch: 1,
      gpus: 2,
      split: 'layers',
      loraRank: 16,
      loraTargets: ['q', 'v'],
      loraDropout: 0,
    });
    // adapters per GPU: 16 layers × (q: r·(h + a·d) + v: r·(h + g·d)), fp32 (PEFT autocast_adapter_dtype)
    const adapterParams = 16 * (16 * (h + a * d) + 16 * (h + g * d));
    expect(adapterParams).toBe(4_194_304);
    expect(r.terms.find((t) => t.id === 'lora-adapters')?.bytes).toBe(4 * adapterParams);
    expect(weightsTerm(r)).toBe(weightsPerGpu);
    // both GPUs hold the same persistent bytes (equal weights, equal adapters) and 16 layers' saved tensors.
    // GPU 0 peaks in its last layer's forward: saved + the MLP product s·f·2 (down_proj's input, a
    // temporary no q / v adapter saves; lora-forward.ts), above its layers' backward (saved + one
    // layer's adapter gradients, 2 × 131,072 × 4 B).
    // GPU 1 at the loss backward: saved + the final norm's fp32 input s·h·4 + ForCausalLMLoss's
    // backward buffers s·V·12 (loss.ts: the log-softmax output and two fp32 gradients; Trainer has
    // dropped the bf16 logits with the model output)
    const layerGrads = 2 * 16 * (h + h) * 4;
    const headInput = s * h * 4;
    const lossBackward = s * V * 12;
    expect(r.perGpu?.length).toBe(2);
    const [g0, g1] = r.perGpu as number[];
    const product = s * 11008 * 2;
    expect(product).toBeGreaterThan(layerGrads);
    expect(g1 - g0).toBe(headInput + lossBackward - product);
    expect(r.allocatedBytes).toBe(g1);
  });
});
