import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { computeBuffer, graphKvCells, hostComputeBuffer, outputBuffer } from '../../../src/core/inference/llamacpp-buffers';
import { LLAMACPP_SWA_FAMILIES, swaCells } from '../../../src/core/inference/llamacpp';
import { VLLM_BLOCK_SIZE, vllmPool, vllmSamplerBytes, vllmVisibleTotal } from '../../../src/core/inference/vllm';
import { DRIVER_RESERVED_BYTES } from '../../../src/core/runtime';
import { defaultScenario } from '../../../src/core/scenario';
import type { Scenario } from '../../../src/core/types';

const MiB = 2 ** 20;
const GiB = 2 ** 30;

function kvOf(p: Partial<Scenario>): number {
  const r = estimate({ ...defaultScenario(), mode: 'inference', ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value.terms.find((t) => t.id === 'kv-cache')?.bytes ?? 0;
}

describe('vLLM pool (docs/reference/formulas.md §3.4)', () => {
  it('fills utilization × capacity and counts whole 16-token blocks', () => {
    const cap = 80 * GiB;
    const perTok = 131_072; // Llama-3-8B bf16
    const nonKv = 16e9;
    const p = vllmPool(cap, 0.9, nonKv, perTok);
    expect(p.requestedBytes).toBe(Math.ceil(cap * 0.9));
    const blocks = Math.floor((Math.ceil(cap * 0.9) - nonKv) / (VLLM_BLOCK_SIZE * perTok));
    expect(p.kvTokens).toBe(blocks * 16);
  });
  it('never negative when weights exceed the budget', () => {
    expect(vllmPool(8e9, 0.9, 20e9, 131_072).kvTokens).toBe(0);
  });
  it("total_gpu_memory is nvidia-smi's total less the driver's share: RTX 3090 24576 MiB → 23.58 GiB (vllm #10517)", () => {
    expect(Number((vllmVisibleTotal(24576 * MiB) / GiB).toFixed(2))).toBe(23.58);
    // H100 SXM 81559 MiB → 79.22 GiB (vllm PR #10511)
    expect(Number((vllmVisibleTotal(81559 * MiB) / GiB).toFixed(2))).toBe(79.22);
    expect(vllmVisibleTotal(DRIVER_RESERVED_BYTES / 2)).toBe(0);
  });
  it('sampler warm-up: 256 sequences × 128256 logits × (2 + 4 + 32) B + the 8192-token hidden states ≈ 1.22 GiB (printed: 1.26 GiB, vllm PR #10511)', () => {
    // bf16 logits 2, fp32 copy 4, during the sort: values 4 + indices 8 + index input 8 + cub alternates 4 + 8
    const bytes = vllmSamplerBytes(256, 128_256, 2, 8192, 4096);
    expect(bytes).toBe(256 * 128_256 * (2 + 4 + 4 + 8 + 8 + 12) + 8192 * 4096 * 2);
    expect(Math.abs(bytes / GiB - 1.26) / 1.26).toBeLessThan(0.05);
  });
});

describe('llama.cpp buffers (docs/reference/formulas.md §3.5, printed logs)', () => {
  const mistral = { hidden: 4096, heads: 32, ffn: 14336, vocab: 32000, ubatch: 512, flash: false, outputOnGpu: true };
  it('graphs pad n_kv to 256 cells', () => {
    expect(graphKvCells(4000)).toBe(4096);
    expect(graphKvCells(4097)).toBe(4352);
  });
  it('Mistral-7B without -fa: 164.00 MiB at n_ctx 2048 and 2144.00 MiB at 32768 (fedora-copr/logdetective#106)', () => {
    // KQ f32 [n_kv, 512, 32] + mask f32 [n_kv, 512] + 4 f32 rows [4096, 512]
    const at = (cells: number) => cells * 512 * 32 * 4 + cells * 512 * 4 + 4 * 512 * 4096 * 4;
    expect(at(2048)).toBe(164 * MiB);
    expect(computeBuffer({ ...mistral, cells: 2048 })).toEqual({ bytes: 164 * MiB, kind: 'kq' });
    expect(computeBuffer({ ...mistral, cells: 32768 })).toEqual({ bytes: 2144 * MiB, kind: 'kq' });
  });
  it('host compute buffer = embedding rows + f32 mask: 12.01 / 72.01 MiB printed, 12 / 72 MiB modelled', () => {
    expect(hostComputeBuffer({ ...mistral, cells: 2048 })).toBe(12 * MiB);
    expect(hostComputeBuffer({ ...mistral, cells: 32768 })).toBe(72 * MiB);
  });
  it('Qwen2.5-3B: f32 logits 151936 × 512 × 4 + one row = 300.75 MiB (SciSharp/LLamaSharp#1099)', () => {
    const b = computeBuffer({ ubatch: 512, cells: 4096, hidden: 2048, heads: 16, ffn: 11008, vocab: 151_936, flash: true, outputOnGpu: true });
    expect(b).toEqual({ bytes: 300.75 * MiB, kind: 'logits' });
    expect((outputBuffer(151_936, 1) / MiB).toFixed(2)).toBe('0.58');
  });
  it('with the output layer on the host a 4096-token context without -fa is KQ-bound', () => {
    const b = computeBuffer({ ...mistral, cells: 4096, outputOnGpu: false });
    expect(b.kind).toBe('kq');
  });
  it('sliding windows only for architectures llama.cpp runs with iSWA (Gemma-2/3), not Mistral (arch llama) or Phi-3', () => {
    expect(LLAMACPP_SWA_FAMILIES.has('gemma2')).toBe(true);
    expect(LLAMACPP_SWA_FAMILIES.has('mistral')).toBe(false);
    expect(LLAMACPP_SWA_FAMILIES.has('phi3')).toBe(false);
    // Mistral-7B at 32768 cells: all 32 layers keep every cell, 4096 MiB (logdetective#106)
    expect(kvOf({ model: 'mistralai/Mistral-7B-v0.1', engine: 'llama.cpp', kv: 'fp16', prompt: 32768, gen: 0 })).toBe(4096 * MiB);
  });
  it('Gemma-2-9B iSWA: 21 global layers keep n_ctx, 21 local layers pad256(4096 + 512) cells', () => {
    expect(swaCells(32768, 4096, 1, 512)).toBe(4608);
    const perCellLayer = 2 * 8 * 256 * 2;
    expect(kvOf({ model: 'google/gemma-2-9b', engine: 'llama.cpp', kv: 'fp16', prompt: 32768, gen: 0 })).toBe(perCellLayer * (21 * 32768 + 21 * 4608));
  });
  it('KV cells are n_ctx, unpadded since PR #16812: Llama-2-7B at 4000 cells = 4000 × 0.5 MiB', () => {
    expect(kvOf({ model: 'meta-llama/Llama-2-7b-hf', engine: 'llama.cpp', kv: 'fp16', prompt: 3000, gen: 1000 })).toBe(4000 * 0.5 * MiB);
  });
});

describe('llama.cpp host RAM (inference/llamacpp.ts hostMemory; llama-model.cpp layer placement)', () => {
  const run = (ngl: number | null) => {
    const r = estimate({ ...defaultScenario(), mode: 'inference', model: 'meta-llama/Llama-2-7b-hf', engine: 'llama.cpp', weights: 'gguf-q4_k_m', kv: 'fp16', prompt: 2048, gen: 256, ngl });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.value.engine!.host!;
  };

  it('Llama-2-7b Q4_K_M, -ngl 20 of 32 layers, 2,304 cells: counted by hand', () => {
    const h = run(20);
    // token_embd q4_K (144 B per 256) and output.weight q6_K (210 B per 256), 32000 × 4096 each
    expect(h.embeddingAndOutput).toBe((32000 * 4096 * 144) / 256 + (32000 * 4096 * 210) / 256);
    // f16 K and V of 12 host layers: 12 · 2 · 4096 · 2 B · 2304 cells
    expect(h.kv).toBe(12 * 2 * 4096 * 2 * 2304);
    // CPU compute buffer: the kq node, f32 scores [2304, 512, 32] + mask [2304, 512] + 4 rows [4096, 512];
    // CUDA_Host: embeddings [4096, 512] f32 + mask; output buffer 32000 f32 logits
    const kq = 2304 * 512 * 32 * 4 + 2304 * 512 * 4 + 4 * 512 * 4096 * 4;
    const cudaHost = 512 * 4096 * 4 + 2304 * 512 * 4;
    expect(h.buffers).toBe(kq + cudaHost + 32000 * 4);
    expect(h.bytes).toBe(h.embeddingAndOutput + h.layers + h.kv + h.buffers);
  });

  it('every layer and the output offloaded: only token_embd and the host buffers stay', () => {
    const h = run(null);
    expect(h.layers).toBe(0);
    expect(h.kv).toBe(0);
    expect(h.embeddingAndOutput).toBe((32000 * 4096 * 144) / 256);
    expect(h.buffers).toBe(512 * 4096 * 4 + 2304 * 512 * 4 + 32000 * 4);
  });

  it('-ngl 0: the whole model and its KV on the host; 32 layers hold 32/12 of the 12-layer figures', () => {
    const all = run(0);
    const part = run(20);
    expect(all.layers).toBeCloseTo((part.layers * 32) / 12, 0);
    expect(all.kv).toBe(32 * 2 * 4096 * 2 * 2304);
  });
});
