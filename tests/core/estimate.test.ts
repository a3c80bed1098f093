import { describe, expect, it } from 'vitest';
import { estimate } from '../../src/core/estimate';
import { CUBLAS_WORKSPACE_BYTES, TRAINING_CUBLAS_HANDLES } from '../../src/core/runtime';
import { defaultScenario } from '../../src/core/scenario/schema';
import type { Estimate, Scenario } from '../../src/core/types';

const MiB = 2 ** 20;
const LLAMA2 = 'meta-llama/Llama-2-7b-hf';
const P_LLAMA2 = 6_738_415_616; // docs/reference/formulas.md §1.1, published count

function run(over: Partial<Scenario>): Estimate {
  const r = estimate({ ...defaultScenario(), ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const termBytes = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;

describe('estimate: inference (transformers)', () => {
  const e = run({ model: LLAMA2, weights: 'bf16', kv: 'fp16', prompt: 3000, gen: 1096, batch: 2, attn: 'flash' });
  it('resolves the preset to the published parameter count', () => {
    expect(e.params.total).toBe(P_LLAMA2);
  });
  it('weights are 2 B per parameter in bf16', () => {
    expect(termBytes(e, 'weights')).toBe(2 * P_LLAMA2);
  });
  it('KV cache is 0.5 MiB per token: 2 sequences × 4096 tokens = 4 GiB', () => {
    expect(termBytes(e, 'kv-cache')).toBe(2 * 4096 * 0.5 * MiB);
  });
  it('allocated ≤ reserved ≤ device; device = reserved + 500 MiB CUDA context', () => {
    expect(e.allocatedBytes).toBeLessThanOrEqual(e.reservedBytes);
    expect(e.deviceBytes - e.reservedBytes).toBe(500 * MiB);
  });
  it('the peak is weights + workspace + max(prompt KV + prefill, full KV + decode), below the sum of terms', () => {
    const sum = e.terms.filter((t) => t.level === 'allocated').reduce((s, t) => s + t.bytes, 0);
    expect(e.allocatedBytes).toBeLessThan(sum);
    const promptKv = 2 * 3000 * 0.5 * MiB;
    expect(e.allocatedBytes).toBeGreaterThanOrEqual(termBytes(e, 'weights') + promptKv + termBytes(e, 'activations'));
  });
  it('every term carries a formula, values, a source and a confidence', () => {
    for (const t of e.terms) {
      expect(t.derivation.formula.length).toBeGreaterThan(0);
      expect(t.derivation.source.length).toBeGreaterThan(0);
      expect(['exact', 'derived', 'heuristic', 'guess']).toContain(t.derivation.confidence);
    }
  });
  it('eager attention at s = 4096 materialises b·a·s² scores: 32·4096²·(2+4+4) B = 5 GiB + the 4-D mask', () => {
    const eager = run({ model: LLAMA2, prompt: 4096, gen: 0, attn: 'eager' });
    // bf16 scores, their fp32 copy (SoftMax.cpp converts every input but Half first) and the fp32 softmax;
    // + 4 hidden rows, and the rotary cos and sin (b·s·d each) LlamaModel.forward holds through the layers
    const scores = 32 * 4096 * 4096 * 10 + 4096 * 4096 * 2 + 4 * 4096 * 4096 * 2 + 2 * 4096 * 128 * 2;
    expect(termBytes(eager, 'activations')).toBe(scores);
    // fp16: softmax reads fp16 and writes fp32 in one kernel, then the fp16 copy: 2 + 4 + 2 B
    const half = run({ model: LLAMA2, prompt: 4096, gen: 0, attn: 'eager', weights: 'fp16' });
    expect(termBytes(half, 'activations')).toBe(scores - 32 * 4096 * 4096 * 2);
  });
});

describe('estimate: quick mode (bare count)', () => {
  const e = run({ model: '', params: 7e9, weights: 'bf16' });
  it('keeps the user count exact for the weights', () => {
    expect(e.params.total).toBe(7e9);
    expect(termBytes(e, 'weights')).toBe(14e9);
  });
  it('marks shape-dependent terms as guesses and says why', () => {
    expect(e.terms.find((t) => t.id === 'kv-cache')?.derivation.confidence).toBe('guess');
    expect(e.notes.some((n) => n.code === 'model.shape-guess')).toBe(true);
  });
});

describe('estimate: training', () => {
  it('ZeRO-3 over 64 GPUs shards the 16 B/param model states (ZeRO paper): 16·Ψ/64', () => {
    const e = run({ model: LLAMA2, mode: 'training', precision: 'amp-bf16', optimizer: 'adamw', zero: 3, gpus: 64 });
    const states = ['weights', 'gradients', 'master-weights', 'optimizer'].reduce((s, id) => s + termBytes(e, id), 0);
    expect(states).toBeCloseTo((16 * P_LLAMA2) / 64, 0);
  });
  it('LoRA r = 16 on all linears of Llama-2-7b trains 39,976,960 parameters (PEFT print_trainable_parameters)', () => {
    const e = run({ model: LLAMA2, mode: 'training', method: 'lora', loraRank: 16, loraTargets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'] });
    expect(e.params.trainable).toBe(39_976_960);
  });
  it('QLoRA over a bf16 model with bf16 compute holds one dequantized bf16 copy of the largest Linear (4096 × 11008)', () => {
    const e = run({ model: LLAMA2, mode: 'training', method: 'qlora', weights: 'nf4', bnbCompute: 'bf16', precision: 'bf16', kbitPrep: 'off' });
    expect(termBytes(e, 'dequant-buffer')).toBe(2 * 4096 * 11008);
  });
  it("kbit-prep's fp32 norms hand the 4-bit Linears fp32 inputs, and set_compute_type computes in their dtype: 6 B per element whatever bnb-compute says", () => {
    const e = run({ model: LLAMA2, mode: 'training', method: 'qlora', weights: 'nf4', bnbCompute: 'bf16', precision: 'bf16', kbitPrep: 'on' });
    expect(termBytes(e, 'dequant-buffer')).toBe(6 * 4096 * 11008);
  });
  it("QLoRA with bitsandbytes' default float32 compute adds the fp32 cast of that copy: 6 B per element", () => {
    const e = run({ model: LLAMA2, mode: 'training', method: 'qlora', weights: 'nf4', bnbCompute: 'fp32' });
    expect(termBytes(e, 'dequant-buffer')).toBe(6 * 4096 * 11008);
  });
  it('DDP over 2 GPUs adds gradient buckets equal to the gradients (PyTorch PR #41954)', () => {
    const e = run({ model: LLAMA2, mode: 'training', gpus: 2 });
    expect(termBytes(e, 'comm-buffers')).toBe(termBytes(e, 'gradients'));
  });
  it('optimizer offload removes optimizer, master and gradients from the GPU', () => {
    const e = run({ model: LLAMA2, mode: 'training', zero: 2, gpus: 8, offload: 'optimizer' });
    expect(termBytes(e, 'optimizer') + termBytes(e, 'master-weights') + termBytes(e, 'gradients')).toBe(0);
  });
  it('freeze saves activations of the one trained block only: 1/32 of the full layer stack', () => {
    const full = run({ model: LLAMA2, mode: 'training', method: 'full', seq: 1024 });
    const frozen = run({ model: LLAMA2, mode: 'training', method: 'freeze', seq: 1024 });
    // the final LlamaRMSNorm under AMP: its fp32 input (4) and fp32 x̂ (4, `.to(float32)` is a no-op),
    // and the LM head's 16-bit autocast copy of its input (2)
    const head = 1024 * 4096 * (4 + 4 + 2);
    expect(termBytes(frozen, 'activations') - head).toBeCloseTo((termBytes(full, 'activations') - head) / 32, 0);
    expect(frozen.terms.some((t) => t.id === 'lora-adapters')).toBe(false);
  });
  it('short sequences peak at the optimizer step: 4 B fp32 weights + 8 B/param states + 4 B grads + 4 B foreach temporary = 20 B/param', () => {
    // torch AMP: HF model_memory_anatomy counts 18 B/param with a 2 B 16-bit copy, but autocast's
    // copies are cleared when the forward's autocast region exits (torch/amp/autocast_mode.py;
    // training/amp-cache.ts, our t029 trace): the step sees 16 B/param plus torch.optim's foreach
    // AdamW intermediate (4 B/param), beside the two 32 MiB cuBLAS workspaces (runtime.ts)
    const e = run({ model: LLAMA2, mode: 'training', precision: 'amp-bf16', optimizer: 'adamw', seq: 16 });
    expect((e.allocatedBytes - TRAINING_CUBLAS_HANDLES * CUBLAS_WORKSPACE_BYTES) / P_LLAMA2).toBeCloseTo(20, 2);
  });
  it('full checkpointing lowers activations', () => {
    const none = run({ model: LLAMA2, mode: 'training', gradCkpt: 'none' });
    const full = run({ model: LLAMA2, mode: 'training', gradCkpt: 'full' });
    expect(termBytes(full, 'activations')).toBeLessThan(termBytes(none, 'activations') / 5);
  });
});

describe('estimate: vLLM and llama.cpp', () => {
  it('vLLM fills utilization × capacity and reports KV tokens in whole 16-token blocks', () => {
    const e = run({ model: 'meta-llama/Meta-Llama-3-8B', engine: 'vllm', gpu: '80GiB', gpuUtil: 0.9, weights: 'bf16', kv: 'bf16' });
    const tokens = e.engine?.kvTokens ?? 0;
    expect(tokens % 16).toBe(0);
    expect(termBytes(e, 'kv-cache')).toBe(tokens * 131_072);
    // vLLM's total_gpu_memory is the capacity less the driver's 434 MiB (runtime.ts DRIVER_RESERVED_BYTES)
    expect(e.deviceBytes).toBe(Math.ceil((80 * 2 ** 30 - 434 * 2 ** 20) * 0.9));
  });
  it('llama.cpp keeps n_ctx cells (unpadded since llama.cpp PR #16812): Llama-2-7b f16 KV = 4000 × 0.5 MiB; -ngl 0 keeps everything on the host', () => {
    const all = run({ model: LLAMA2, engine: 'llama.cpp', weights: 'fp16', kv: 'fp16', prompt: 3000, gen: 1000, attn: 'flash' });
    expect(termBytes(all, 'kv-cache')).toBe(4000 * 2 ** 19);
    expect(all.engine?.gpuLayers).toBe(33);
    const none = run({ model: LLAMA2, engine: 'llama.cpp', weights: 'fp16', kv: 'fp16', ngl: 0 });
    expect(termBytes(none, 'weights') + termBytes(none, 'kv-cache')).toBe(0);
  });
});

describe('estimate: parallel layouts and caches', () => {
  it('pipeline stages: the logits live on the last stage only, activations of ≈ L layers on the first', () => {
    const one = run({ model: LLAMA2, mode: 'training', seq: 4096, gpus: 1 });
    const four = run({ model: LLAMA2, mode: 'training', seq: 4096, gpus: 4, pp: 4 });
    expect(termBytes(four, 'activations')).toBe(termBytes(one, 'activations'));
    expect(four.allocatedBytes).toBeLessThan(one.allocatedBytes);
  });
  // gemma-2-9b: 42 layers, 8 KV heads, head_dim 256; half the layers local (window 4096).
  // transformers DynamicSlidingWindowLayer.update keeps `full[:, :, -window + 1:]`, a view of the cat.
  const gemmaPerTokenLayer = 2 * 8 * 256 * 2;
  it("Gemma-2 in HF generate: after the prefill every layer still holds the prompt's K/V (the window is a view)", () => {
    const kv = termBytes(run({ model: 'google/gemma-2-9b', prompt: 16384, gen: 64 }), 'kv-cache');
    expect(kv).toBe(gemmaPerTokenLayer * 42 * 16384);
  });
  it('Gemma-2 in HF generate: decoding keeps only the 4096-token window in the local layers', () => {
    // prompt 1024 + 8192 new tokens: the end of decoding holds more than the end of the prefill
    const kv = termBytes(run({ model: 'google/gemma-2-9b', prompt: 1024, gen: 8192 }), 'kv-cache');
    expect(kv).toBe(gemmaPerTokenLayer * (21 * 9216 + 21 * 4096));
  });
  it('encoder-only BERT keeps no KV cache', () => {
    expect(termBytes(run({ model: 'google-bert/bert-large-uncased', prompt: 512, gen: 0 }), 'kv-cache')).toBe(0);
  });
});
