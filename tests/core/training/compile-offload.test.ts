import { describe, expect, it } from 'vitest';
import { activationBytes, ampCastCopies, layerActivation, OFFLOAD_RESIDENT_LAYERS, uniform, type ActDtypes } from '../../../src/core/training/activations';
import { GPT_LIKE, LLAMA3_8B } from '../inference/archs';
import type { ModelArch } from '../../../src/core/types';

/** Llama-3.2-3B config.json: h 3072, 28 layers, 24 heads, 8 KV heads, head_dim 128, f 8192, V 128256, tied. */
const LLAMA32_3B: ModelArch = { ...LLAMA3_8B, hidden: 3072, layers: 28, heads: 24, kvHeads: 8, headDim: 128, ffn: 8192, tiedEmbeddings: true };
const bf16 = uniform(2);
const amp: ActDtypes = { e: 2, eRes: 4, eF32: 4 };
const s = 4096,
  b = 2,
  sb = s * b;
const [h, a, g, d, f] = [3072, 24, 8, 128, 8192];

describe('torch.compile (Inductor min-cut partitioner): saved bytes per Llama layer', () => {
  it('pure bf16 Llama-3.2-3B: norm input + Linear input per norm, q/k/v/out, gate/up/product (SiLU recomputed)', () => {
    // per token: 2 norms × (2 B input + 2 B Linear input) + 2 B × (q a·d + k g·d + v g·d + out a·d + 3 f-wide)
    const perToken = 2 * (2 + 2) * h + 2 * (2 * a * d + 2 * g * d + 3 * f);
    expect(perToken).toBe(90112);
    expect(layerActivation(LLAMA32_3B, s, b, bf16, 'sdpa', 1, false, true).linear).toBe(sb * perToken);
  });
  it('eager minus compiled = the fp32 norm copies (2 × 4 B·h) + the SiLU output (2 B·f) per token', () => {
    const eager = layerActivation(LLAMA32_3B, s, b, bf16, 'sdpa', 1).linear;
    const compiled = layerActivation(LLAMA32_3B, s, b, bf16, 'sdpa', 1, false, true).linear;
    expect(eager - compiled).toBe(sb * (2 * 4 * h + 2 * f));
  });
  it('AMP: the per-Linear 16-bit casts of a norm output merge into one (CSE), so the cast copies vanish', () => {
    const casts = ampCastCopies(LLAMA32_3B, amp); // q,k,v read one norm output, gate/up the other: (3−1)+(2−1) copies of h
    expect(casts).toBe(3 * h);
    const eager = layerActivation(LLAMA32_3B, s, b, amp, 'sdpa', 1).linear;
    const compiled = layerActivation(LLAMA32_3B, s, b, amp, 'sdpa', 1, false, true).linear;
    expect(eager - compiled).toBe(sb * (2 * 4 * h + casts * 2 + 2 * f));
  });
  it('eager attention keeps its s² softmax output under compile (it feeds the PV matmul)', () => {
    const eager = layerActivation(LLAMA32_3B, 512, 1, bf16, 'eager', 1);
    const compiled = layerActivation(LLAMA32_3B, 512, 1, bf16, 'eager', 1, false, true);
    expect(compiled.scores).toBe(eager.scores);
    expect(compiled.scores).toBe(a * 512 * 512 * (4 + 2));
  });
  it('GPT-style layers without AMP save the same tensors compiled or not (LayerNorm input, GeLU output, dropout masks)', () => {
    const eager = layerActivation(GPT_LIKE, 1024, 1, uniform(4), 'sdpa', 1);
    const compiled = layerActivation(GPT_LIKE, 1024, 1, uniform(4), 'sdpa', 1, false, true);
    expect(compiled.linear).toBe(eager.linear);
  });
  it('full checkpointing recomputes one compiled layer', () => {
    const total = activationBytes(LLAMA32_3B, s, b, bf16, 'sdpa', 'full', 1, { compiled: true });
    const layer = layerActivation(LLAMA32_3B, s, b, bf16, 'sdpa', 1, false, true).linear;
    // the compiled layer saves its input (the norm input) as it is: in a recompute that is the
    // checkpoint's saved input, already among the 28, so the rerun adds the layer less s·b·h·2
    expect(total.recompute).toBe(layer - sb * h * 2);
    expect(total.bytes).toBe(28 * sb * h * 2 + layer - sb * h * 2 + sb * h * (2 + 2));
  });
});

describe('activation offloading (torchtune OffloadActivations)', () => {
  it('with full checkpointing only 2 checkpoint inputs stay: saves (L − 2)·s·b·h·2 B on Llama-3.2-3B', () => {
    const on = activationBytes(LLAMA32_3B, s, b, bf16, 'sdpa', 'full', 1, { compiled: true, offload: true });
    const off = activationBytes(LLAMA32_3B, s, b, bf16, 'sdpa', 'full', 1, { compiled: true });
    expect(OFFLOAD_RESIDENT_LAYERS).toBe(2);
    expect(off.bytes - on.bytes).toBe(26 * 4096 * 2 * 3072 * 2);
  });
  it('without checkpointing two layers of saved tensors stay, plus the final norm / LM-head inputs', () => {
    const on = activationBytes(LLAMA32_3B, s, b, bf16, 'sdpa', 'none', 1, { offload: true });
    const layer = layerActivation(LLAMA32_3B, s, b, bf16, 'sdpa', 1).linear;
    // the final RMSNorm's fp32 copy and bf16 x̂, and the LM-head input: (4 + 2 + 2)·h per token
    expect(on.bytes).toBe(2 * layer + sb * h * (4 + 2 + 2));
  });
  it('a one-layer model keeps everything (nothing beyond the in-flight set)', () => {
    const one = { ...LLAMA32_3B, layers: 1 };
    const on = activationBytes(one, s, b, bf16, 'sdpa', 'none', 1, { offload: true });
    expect(on.bytes).toBe(activationBytes(one, s, b, bf16, 'sdpa', 'none', 1).bytes);
  });
});
