import { describe, expect, it } from 'vitest';
import { kvBytesPerToken, kvCacheBytes } from '../../../src/core/inference/kv';
import { DEEPSEEK_V3, LLAMA2_7B, LLAMA3_8B, MISTRAL_7B, QWEN25_7B } from './archs';
import { findPreset } from '../../../src/core/model/presets';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario';

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

describe('Falcon-40B (new_decoder_architecture: 128 query heads, 8 KV heads, head_dim 64, 60 layers; config.json)', () => {
  const FALCON_40B = findPreset('tiiuae/falcon-40b')!.arch;
  it('transformers caches K and V broadcast to all 128 heads (FalconAttention._split_heads, num_kv_heads = num_heads): 2·128·64·2 B per token and layer', () => {
    expect(FALCON_40B.kvHeads).toBe(8);
    expect(kvBytesPerToken(FALCON_40B, 2, { ...full, expandsKv: true })).toBe(60 * 2 * 128 * 64 * 2);
  });
  it('vLLM and llama.cpp keep the 8 grouped heads: 2·8·64·2 B, a sixteenth', () => {
    expect(kvBytesPerToken(FALCON_40B, 2, full)).toBe(60 * 2 * 8 * 64 * 2);
  });
  it('the end-to-end estimate: transformers at 2,048 + 256 tokens holds 4.53 GB of cache', () => {
    const r = estimate({ ...defaultScenario(), model: 'tiiuae/falcon-40b', mode: 'inference', prompt: 2048, gen: 256, batch: 1 });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.terms.find((t) => t.id === 'kv-cache')!.bytes).toBe(2304 * 60 * 2 * 128 * 64 * 2);
  });
});

describe('Falcon-7B stays multi-query (no new_decoder_architecture): one cached head', () => {
  it('2·1·64·2 B per token and layer in transformers too', () => {
    const FALCON_7B = findPreset('tiiuae/falcon-7b')!.arch;
    expect(FALCON_7B.kvHeads).toBe(1);
    expect(kvBytesPerToken(FALCON_7B, 2, { ...full, expandsKv: true })).toBe(32 * 2 * 1 * 64 * 2);
  });
});
