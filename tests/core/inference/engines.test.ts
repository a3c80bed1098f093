import { describe, expect, it } from 'vitest';
import { computeBuffer, paddedCells } from '../../../src/core/inference/llamacpp';
import { VLLM_BLOCK_SIZE, vllmPool } from '../../../src/core/inference/vllm';

describe('vLLM pool (formulas.md §3.4)', () => {
  it('fills utilization × capacity and counts whole 16-token blocks', () => {
    const cap = 80 * 2 ** 30;
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
});

describe('llama.cpp buffers (formulas.md §3.5)', () => {
  it('KV cells pad to 256', () => {
    expect(paddedCells(4000)).toBe(4096);
    expect(paddedCells(4097)).toBe(4352);
  });
  it('without flash attention, KQ = n_kv·n_ubatch·a·4: 256 MiB at n_ctx 4096, 32 heads, ub 512', () => {
    const b = computeBuffer({ ubatch: 512, cells: 4096, hidden: 4096, heads: 32, ffn: 11008, vocab: 32000, flash: false, outputOnGpu: true });
    expect(b.kind).toBe('kq');
    expect(b.bytes - 4 * 512 * 4096 * 4).toBe(256 * 2 ** 20);
  });
  it('with flash attention a 128k-vocab model is dominated by f32 logits V·512·4', () => {
    const b = computeBuffer({ ubatch: 512, cells: 8192, hidden: 4096, heads: 32, ffn: 14336, vocab: 128256, flash: true, outputOnGpu: true });
    expect(b.kind).toBe('logits');
    expect(b.bytes - 4 * 512 * 4096 * 4).toBe(128256 * 512 * 4);
  });
});
