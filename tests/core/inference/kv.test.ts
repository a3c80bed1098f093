import { describe, expect, it } from 'vitest';
import { kvBytesPerToken, kvCacheBytes } from '../../../src/core/inference/kv';
import { DEEPSEEK_V3, LLAMA2_7B, LLAMA3_8B, MISTRAL_7B, QWEN25_7B } from './archs';

const full = { mlaLatent: false, windowed: false, tp: 1 };

describe('KV cache per token (docs/reference/formulas.md §3.1)', () => {
  it('Llama-2-7b fp16: 2·32·32·128·2 = 0.5 MiB per token; 4096 tokens = 2 GiB', () => {
    expect(kvBytesPerToken(LLAMA2_7B, 2, full)).toBe(0.5 * 2 ** 20);
    expect(kvCacheBytes(LLAMA2_7B, 4096, 1, 2, full)).toBe(2 * 2 ** 30);
  });
  it('Llama-3-8B (GQA g = 8): 128 KiB per token; 8192 tokens = 1 GiB', () => {
    expect(kvBytesPerToken(LLAMA3_8B, 2, full)).toBe(128 * 1024);
    expect(kvCacheBytes(LLAMA3_8B, 8192, 1, 2, full)).toBe(2 ** 30);
  });
  it('Qwen2.5-7B (g = 4, L = 28): 56 KiB per token', () => {
    expect(kvBytesPerToken(QWEN25_7B, 2, full)).toBe(57_344);
  });
  it('DeepSeek-V3 MLA latent (vLLM): 61·576·2 = 70,272 B per token', () => {
    expect(kvBytesPerToken(DEEPSEEK_V3, 2, { ...full, mlaLatent: true })).toBe(70_272);
  });
  it('DeepSeek-V3 decompressed K/V (HF): 61·128·320·2 ≈ 4.77 MiB per token, 71× the latent', () => {
    const expanded = kvBytesPerToken(DEEPSEEK_V3, 2, full);
    expect(expanded).toBe(61 * 128 * (128 + 64 + 128) * 2);
    expect(expanded / 2 ** 20).toBeCloseTo(4.77, 2);
    expect(Math.round(expanded / 70_272)).toBe(71);
  });
  it('tensor parallel keeps max(1, g/t) heads per GPU (replicated when t > g)', () => {
    expect(kvBytesPerToken(LLAMA3_8B, 2, { ...full, tp: 4 })).toBe(32 * 2 * 2 * 128 * 2);
    expect(kvBytesPerToken(LLAMA3_8B, 2, { ...full, tp: 16 })).toBe(32 * 2 * 1 * 128 * 2);
  });
  it('llama.cpp q8_0 KV is 34/32 B per element (ggml block_q8_0)', () => {
    expect(kvBytesPerToken(LLAMA2_7B, 34 / 32, full)).toBe(2 * 32 * 32 * 128 * (34 / 32));
  });
  it('sliding window keeps min(s, W) tokens only when the runtime drops them (Mistral W = 4096)', () => {
    const perTok = kvBytesPerToken(MISTRAL_7B, 2, full);
    expect(kvCacheBytes(MISTRAL_7B, 16384, 1, 2, full)).toBe(16384 * perTok);
    expect(kvCacheBytes(MISTRAL_7B, 16384, 1, 2, { ...full, windowed: true })).toBe(4096 * perTok);
    expect(kvCacheBytes(MISTRAL_7B, 1000, 2, 2, { ...full, windowed: true })).toBe(2000 * perTok);
  });
});
