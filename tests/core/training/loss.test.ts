import { describe, expect, it } from 'vitest';
import { lossBytes } from '../../../src/core/training/loss';

// Llama-3.2-3B vocabulary, torchtune README "Optimization flags" shapes: batch 2, packed 4096
const V = 128256,
  s = 4096,
  b = 2;
const sbv = s * b * V; // 1,050,673,152 logits

describe('chunked cross-entropy (torchtune CEWithChunkedOutputLoss, 8 chunks)', () => {
  it("eager: all bf16 logits + every chunk's fp32 log-softmax + one chunk's fp32 upcast (the fp32 logit buffer / 8)", () => {
    const fp32Logits = sbv * 4;
    const l = lossBytes(s, b, V, 2, 8, false);
    expect(l.peak).toBe(sbv * 2 + sbv * 4 + fp32Logits / 8);
    expect(l.held).toBe(sbv * 4);
  });
  it('compiled (compute_cross_entropy under torch.compile): only the 16-bit chunks, saved for backward', () => {
    const l = lossBytes(s, b, V, 2, 8, true);
    expect(l.peak).toBe(sbv * 2);
    expect(l.held).toBe(sbv * 2);
    expect(l.peak).toBe(2_101_346_304); // 1.96 GiB
  });
  it('1 chunk = the unchunked HF loss (bf16 logits, fp32 upcast, fp32 log-softmax), compiled or not', () => {
    for (const compiled of [false, true]) {
      const l = lossBytes(s, b, V, 2, 1, compiled);
      expect(l.peak).toBe(sbv * (2 + 4 + 4));
      // held: the fp32 log-softmax only (Trainer drops the model output before backward)
      expect(l.held).toBe(sbv * 4);
    }
  });
  it('fp32 logits need no upcast copy', () => {
    expect(lossBytes(s, b, V, 4, 8, false).peak).toBe(sbv * (4 + 4));
  });
  it('torch.chunk along a 4-token sequence gives at most 4 chunks', () => {
    const l = lossBytes(4, 1, V, 2, 8, false);
    expect(l.peak).toBe(4 * V * (2 + 4) + (4 * V * 4) / 4);
  });
});
