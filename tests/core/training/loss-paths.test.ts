/**
 * Loss bytes per logits path (src/core/training/loss.ts), hand-computed from each source's
 * tensors. n = s·b·V logits, n1 = (s − 1)·b·V after a `[..., :-1, :]` shift.
 */
import { describe, expect, it } from 'vitest';
import { chatglmLossBytes, lossBytes, sequenceMoments } from '../../../src/core/training/loss';

// meta-llama/Llama-2-7b-hf: V = 32000; s = 4096, b = 1
const LLAMA = { s: 4096, b: 1, V: 32000 };
const nL = 4096 * 32000; // 131,072,000
const n1L = 4095 * 32000; // 131,040,000
// Qwen/Qwen-7B-Chat (modeling_qwen.py): V = 151936; s = 2048, b = 1
const QWEN = { s: 2048, b: 1, V: 151936 };
const nQ = 2048 * 151936; // 311,164,928
const n1Q = 2047 * 151936; // 311,012,992

describe('current: transformers ≥ 4.46 ForCausalLMLoss (logits.float(), labels shifted, F.cross_entropy)', () => {
  const l = lossBytes(LLAMA.s, LLAMA.b, LLAMA.V, 2, 1, false, 'current');
  it('forward: bf16 logits + fp32 upcast + fp32 log-softmax = 10 B per logit; only the log-softmax is held (Trainer.compute_loss drops the model output)', () => {
    expect(nL).toBe(131_072_000);
    expect(l.peak).toBe(nL * (2 + 4 + 4));
  });
  it('held at backward: the fp32 log-softmax output alone (Trainer.compute_loss returns the loss, the bf16 logits leave with the model output)', () => {
    expect(l.held).toBe(nL * 4);
  });
  it("log-softmax backward: held + NllLossBackward's fp32 gradient + _log_softmax_backward_data's fp32 output = 12 B per logit", () => {
    expect(l.backward).toBe(nL * (4 + 4 + 4));
    expect(l.backward).toBe(1_572_864_000);
  });
  it('LM-head backward: the bf16 gradient ToCopyBackward made (the fp32 one is freed)', () => {
    expect(l.headBackward).toBe(nL * 2);
  });
  it('fp32 training: .float() returns the tensor itself, no upcast copy', () => {
    const f = lossBytes(LLAMA.s, LLAMA.b, LLAMA.V, 4, 1, false, 'current');
    expect(f.peak).toBe(nL * (4 + 4));
    expect(f.backward).toBe(nL * (4 + 4 + 4));
  });
  it('the tensor sequence the replay runs has exactly these moments (bf16 and fp32 logits)', () => {
    for (const e of [2, 4]) {
      const x = lossBytes(LLAMA.s, LLAMA.b, LLAMA.V, e, 1, false, 'current');
      expect(x.sequence).toBeDefined();
      expect(sequenceMoments(x.sequence!)).toEqual({ peak: x.peak, held: x.held, backward: x.backward, headBackward: x.headBackward });
    }
  });
  it('the sequence follows the real snapshot: at s·b = 4096, V = 32000 its tensors are 250 / 500 / 500 MiB (train-varied.pickle.gz, step 2)', () => {
    // record_snapshot.py step 2 (b = 2, 2048 tokens): lm_head 262,144,000 B; logits.float() and
    // cross_entropy's log-softmax 524,288,000 B; in backward two 524,288,000 B, then 262,144,000 B
    const x = lossBytes(2048, 2, 32000, 2, 1, false, 'current');
    const allocs = [...x.sequence!.forward, ...x.sequence!.backward].flatMap((ev) => ('alloc' in ev ? [ev.alloc] : []));
    expect(allocs).toEqual([262_144_000, 524_288_000, 524_288_000, 524_288_000, 524_288_000, 262_144_000]);
  });
});

describe('upcast-in-model: transformers 4.36–4.45 LlamaForCausalLM.forward (logits.float(), shift_logits.contiguous())', () => {
  const l = lossBytes(LLAMA.s, LLAMA.b, LLAMA.V, 2, 1, false, 'upcast-in-model');
  it('forward: fp32 logits (4n) + fp32 shift copy (4n1) + fp32 log-softmax (4n1)', () => {
    expect(n1L).toBe(131_040_000);
    expect(l.peak).toBe(4 * nL + 4 * n1L + 4 * n1L);
    expect(l.peak).toBe(1_572_608_000);
  });
  it('held: the log-softmax output (the fp32 logits leave with the model output); backward adds two fp32 gradients of the shifted shape', () => {
    expect(l.held).toBe(4 * n1L);
    expect(l.backward).toBe(12 * n1L);
  });
  it('LM-head backward: the bf16 gradient ToCopyBackward makes', () => {
    expect(l.headBackward).toBe(nL * 2);
  });
});

describe('remote-code: Qwen-1 modeling_qwen.py QWenLMHeadModel.forward (16-bit lm_logits, shift copy, CrossEntropyLoss)', () => {
  it('pure bf16: logits, shift copy and log-softmax all 2 B', () => {
    const l = lossBytes(QWEN.s, QWEN.b, QWEN.V, 2, 1, false, 'remote-code', false);
    expect(nQ).toBe(311_164_928);
    expect(l.peak).toBe(2 * nQ + 2 * n1Q + 2 * n1Q);
    expect(l.held).toBe(2 * n1Q);
    expect(l.backward).toBe(3 * 2 * n1Q);
    expect(l.backward).toBe(1_866_077_952); // 1.74 GiB
    expect(l.headBackward).toBe(2 * nQ);
  });
  it('AMP: autocast runs log_softmax in fp32, converting the shift copy first', () => {
    const l = lossBytes(QWEN.s, QWEN.b, QWEN.V, 2, 1, false, 'remote-code', true);
    expect(l.peak).toBe(2 * nQ + (2 + 4 + 4) * n1Q);
    expect(l.held).toBe(4 * n1Q);
    expect(l.backward).toBe(12 * n1Q);
  });
  it('its tensors one by one replay to the same four moments, with autocast and without', () => {
    for (const autocast of [true, false]) {
      const l = lossBytes(QWEN.s, QWEN.b, QWEN.V, 2, 1, false, 'remote-code', autocast);
      expect(sequenceMoments(l.sequence!)).toEqual({ peak: l.peak, held: l.held, backward: l.backward, headBackward: l.headBackward });
    }
  });
  it('pure bf16 needs less than the current path at the same shape (no fp32 buffers)', () => {
    const cur = lossBytes(QWEN.s, QWEN.b, QWEN.V, 2, 1, false, 'current');
    expect(cur.backward).toBe(nQ * 12);
    expect(lossBytes(QWEN.s, QWEN.b, QWEN.V, 2, 1, false, 'remote-code').backward).toBeLessThan(cur.backward);
  });
});

describe("ChatGLM's own files: ChatGLMForConditionalGeneration.forward (transpose copy, .to(float32), fp32 shift copy, CE, .to(dtype))", () => {
  // THUDM/chatglm3-6b: padded_vocab_size 65024; s = 1024, b = 1
  const n = 1024 * 65024; // 66,584,576
  const n1 = 1023 * 65024; // 66,519,552
  const l = chatglmLossBytes(1024, 1, 65024, 2);
  it('forward: fp32 logits + fp32 shift copy + fp32 log-softmax + the bf16 logits it returns = 4n + 8n′ + 2n', () => {
    expect(l.peak).toBe(4 * n + 8 * n1 + 2 * n);
    expect(l.peak).toBe(931_663_872);
    expect(l.held).toBe(4 * n1);
  });
  it('backward: the log-softmax backward (12n′) above SliceBackward’s fp32 zeros and ToCopyBackward’s bf16 gradient; the head gets 2n', () => {
    expect(l.backward).toBe(12 * n1);
    expect(l.headBackward).toBe(2 * n);
  });
  it('its tensors one by one replay to the same moments; batch 2 adds the head’s contiguous copy of the transposed gradient', () => {
    for (const b of [1, 2]) {
      const x = chatglmLossBytes(1024, b, 65024, 2);
      expect(sequenceMoments(x.sequence!)).toEqual({ peak: x.peak, held: x.held, backward: x.backward, headBackward: x.headBackward });
    }
  });
});

describe('torchtune: TransformerDecoder self.output(h).float(); the recipe deletes the logits after the loss', () => {
  it('Llama-3.2-3B, batch 2, packed 4096 (torchtune README): 8 B per logit forward, 4 held, 12 in backward', () => {
    const n = 2 * 4096 * 128256; // 1,050,673,152
    const l = lossBytes(4096, 2, 128256, 2, 1, false, 'torchtune');
    expect(l.peak).toBe(n * (4 + 4));
    expect(l.held).toBe(n * 4);
    expect(l.backward).toBe(n * 12);
    expect(l.headBackward).toBe(n * 2);
  });
});

describe('chunked loss backward (torchtune CEWithChunkedOutputLoss, 8 chunks)', () => {
  const n = 2 * 4096 * 128256;
  it("eager: every chunk's fp32 log-softmax + the last chunk's two fp32 gradients", () => {
    expect(lossBytes(4096, 2, 128256, 2, 8, false).backward).toBe(n * 4 + (2 * n * 4) / 8);
  });
  it("compiled: the saved bf16 chunks + one chunk's bf16 gradient", () => {
    expect(lossBytes(4096, 2, 128256, 2, 8, true).backward).toBe(n * 2 + (n * 2) / 8);
  });
  it('the logits path does not change a chunked loss', () => {
    expect(lossBytes(4096, 2, 128256, 2, 8, true, 'remote-code')).toEqual(lossBytes(4096, 2, 128256, 2, 8, true, 'current'));
  });
});
