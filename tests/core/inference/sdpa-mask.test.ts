import { describe, expect, it } from 'vitest';
import { forwardTransient } from '../../../src/core/inference/transient';
import { GEMMA2_2B, LLAMA3_8B, MISTRAL_7B } from './archs';

/**
 * A prefill through SDPA when a sliding window is no longer than the keys (transformers
 * masking_utils.py `_ignore_causal_mask_sdpa` returns False once kv_length ≥ the window):
 * the (b, 1, s, s) bool mask lives through the layers, and each masked call adds PyTorch's
 * additive copy (attention.cpp `convert_boolean_attn_mask`, the query's dtype) and, with grouped
 * KV heads, transformers' `repeat_kv` of K and V to all heads (sdpa_attention.py `use_gqa_in_sdpa`
 * is false with a mask). bf16 (e = 2), batch 1, one GPU.
 */
describe('SDPA with a materialised sliding-window mask', () => {
  it('Gemma-2-2B at 32,768 tokens: the masked attention call is the peak set, 3.92 GiB', () => {
    const s = 32768;
    // 3 hidden rows (inputs_embeds, layer input, normed input): 3·s·2304·2
    const hidden = 3 * s * 2304 * 2;
    const boolMask = s * s;
    const additive = s * s * 2;
    // query and output: 2·s·(8 heads · 256)·2; K and V repeated from 4 to 8 heads: 2·s·(8·256)·2
    const qOut = 2 * s * 8 * 256 * 2;
    const repeated = 2 * s * 8 * 256 * 2;
    const t = forwardTransient(GEMMA2_2B, s, s, 1, 2, 'sdpa', 1, 1);
    expect(t.kind).toBe('attention-mask');
    expect(t.bytes).toBe(hidden + boolMask + additive + qOut + repeated);
    expect(t.bytes).toBe(4_211_081_216);
  });
  it('Gemma-2-2B at 8,192 tokens: the gated MLP stays the larger set (4 rows + 3·s·f + the bool mask)', () => {
    const s = 8192;
    const t = forwardTransient(GEMMA2_2B, s, s, 1, 2, 'sdpa', 1, 1);
    expect(t.kind).toBe('mlp');
    expect(t.bytes).toBe(4 * s * 2304 * 2 + 3 * s * 9216 * 2 + s * s);
  });
  it('the mask appears at kv_length = window exactly, not one token earlier (Mistral-7B, window 4096)', () => {
    const at = forwardTransient(MISTRAL_7B, 4096, 4096, 1, 2, 'sdpa', 1, 0);
    const before = forwardTransient(MISTRAL_7B, 4095, 4095, 1, 2, 'sdpa', 1, 0);
    expect(at.bytes - (4 * 4096 * 4096 * 2 + 3 * 4096 * 14336 * 2)).toBe(4096 * 4096);
    expect(before.bytes).toBe(4 * 4095 * 4096 * 2 + 3 * 4095 * 14336 * 2);
  });
  it('no window, no mask: Llama-3-8B at 32,768 tokens keeps the MLP set', () => {
    const s = 32768;
    const t = forwardTransient(LLAMA3_8B, s, s, 1, 2, 'sdpa', 1, 0);
    expect(t.kind).toBe('mlp');
    expect(t.bytes).toBe(4 * s * 4096 * 2 + 3 * s * 14336 * 2);
  });
});
