import { describe, expect, it } from 'vitest';
import { activationBytes, ampCastCopies, layerActivation, logitsBytes, uniform } from '../../../src/core/training/activations';
import { korthikantiTable2 } from './korthikanti';
import { GEMMA2_2B, GPT_LIKE, LLAMA2_7B, LLAMA3_8B } from '../inference/archs';
import type { ModelArch } from '../../../src/core/types';

/** A GPT layer exactly as Korthikanti et al. assume it: h = a·d, MHA, f = 4h. */
const gpt = (h: number, a: number): ModelArch => ({ ...GPT_LIKE, hidden: h, heads: a, kvHeads: a, headDim: h / a, ffn: 4 * h });

describe('Korthikanti et al. 2022 (arXiv 2205.05198) Table 2', () => {
  const s = 2048,
    b = 4,
    h = 12288,
    a = 96,
    t = 8; // GPT-3 175B shapes from the paper
  it('no parallelism, eager attention: sbh(34 + 5as/h)', () => {
    const l = layerActivation(gpt(h, a), s, b, uniform(2), 'eager', 1);
    expect(l.linear + l.scores).toBeCloseTo(s * b * h * (34 + (5 * a * s) / h), 0);
    expect(korthikantiTable2(s, b, h, a, 1, 'none')).toBe(s * b * h * (34 + (5 * a * s) / h));
  });
  it('tensor parallel t: sbh(10 + 24/t + 5as/(ht))', () => {
    const l = layerActivation(gpt(h, a), s, b, uniform(2), 'eager', t);
    expect(l.linear + l.scores).toBeCloseTo(s * b * h * (10 + 24 / t + (5 * a * s) / (h * t)), 0);
  });
  it('tensor parallel + selective recompute (no s² term): sbh(10 + 24/t)', () => {
    const l = layerActivation(gpt(h, a), s, b, uniform(2), 'flash', t);
    expect(l.linear).toBeCloseTo(korthikantiTable2(s, b, h, a, t, 'tp-selective'), 0);
    expect(korthikantiTable2(s, b, h, a, t, 'tp-sp-selective')).toBe((34 * s * b * h) / t);
  });
  it('full recompute stores only the layer input, 2sbh per layer', () => {
    expect(korthikantiTable2(s, b, h, a, 1, 'full')).toBe(2 * s * b * h);
  });
  it('Llama-2-7b shapes in the GPT formula at s = 4096: 5as/h = 160 and 104 GB for 32 layers (docs/reference/formulas.md §5.1)', () => {
    const perLayer = korthikantiTable2(4096, 1, 4096, 32, 1, 'none');
    expect((5 * 32 * 4096) / 4096).toBe(160);
    expect((32 * perLayer) / 1e9).toBeCloseTo(104, 0);
  });
});

describe('Llama-style layer (docs/reference/formulas.md §5.3)', () => {
  /** eager HF/torchtune RMSNorm: +4 B·sbh per norm over the fused-kernel count (docs/reference/formulas.md §5.3) */
  const eagerNorms = (s: number, b: number, h: number) => 2 * 4 * s * b * h;
  it('Llama-2-7b: 8h + 4ad + 4gd + 8f = 37.5·sbh = 629 MB per layer at s = 4096 (fused norms), plus the norm upcasts', () => {
    const l = layerActivation(LLAMA2_7B, 4096, 1, uniform(2), 'flash', 1);
    const sbh = 4096 * 4096;
    const fused = l.linear - eagerNorms(4096, 1, 4096);
    expect(fused).toBe(sbh * (8 + 4 + 4) + 4096 * 8 * 11008);
    expect(fused / sbh).toBeCloseTo(37.5, 1);
    expect(fused / 1e6).toBeCloseTo(629, 0);
    expect(l.scores).toBe(0);
  });
  it('Llama-3-8B: 8h + 4h + h + 8f = 41·sbh (fused norms)', () => {
    const l = layerActivation(LLAMA3_8B, 1024, 1, uniform(2), 'flash', 1);
    expect((l.linear - eagerNorms(1024, 1, 4096)) / (1024 * 4096)).toBeCloseTo(8 + 4 + 1 + (8 * 14336) / 4096, 9);
  });
  it('AMP keeps the residual stream in fp32 (each norm saves 4 + 4 + 2 B instead of 4 + 2 + 2) and each separate q, k, v, gate, up Linear saves its own bf16 cast of the fp32 norm output', () => {
    const amp = { e: 2, eRes: 4, eF32: 4 };
    const pure = layerActivation(LLAMA2_7B, 512, 1, uniform(2), 'flash', 1).linear;
    const mixed = layerActivation(LLAMA2_7B, 512, 1, amp, 'flash', 1).linear;
    // 2 norms × 2 B wider residual + (3 − 1) + (2 − 1) extra 2-byte casts, per token of width h
    expect(mixed - pure).toBe((2 * 2 + 3 * 2) * 512 * 4096);
    expect(ampCastCopies(LLAMA2_7B, amp)).toBe(3 * 4096);
    expect(ampCastCopies(LLAMA2_7B, uniform(2))).toBe(0);
  });
  it('the fp32 token × hidden tensors among them (LlamaRMSNorm.forward upcasts its input with `hidden_states.to(torch.float32)`; AMP keeps the normalised tensor in fp32 too)', () => {
    const amp = { e: 2, eRes: 4, eF32: 4 };
    // pure bf16: each of the 2 norms saves one fp32 copy of its bf16 input (pow and mul read it)
    expect(layerActivation(LLAMA2_7B, 512, 1, uniform(2), 'flash', 1).fp32Hidden).toBe(2);
    // AMP: the input is already the fp32 residual stream, and `hidden_states * rsqrt(...)` is fp32:
    // 2 per norm (t021, Qwen2.5-0.5B AMP at s = 4096, held 4 × 24 such 14,680,064 B tensors at its loss)
    expect(layerActivation(LLAMA2_7B, 512, 1, amp, 'flash', 1).fp32Hidden).toBe(4);
    // fp32 training: every tensor is 4 B, none is set apart
    expect(layerActivation(LLAMA2_7B, 512, 1, uniform(4), 'flash', 1).fp32Hidden).toBe(0);
    // native LayerNorm (GPT style) saves its input: fp32 only where the residual stream is
    expect(layerActivation(GPT_LIKE, 512, 1, uniform(2), 'flash', 1).fp32Hidden).toBe(0);
    expect(layerActivation(GPT_LIKE, 512, 1, amp, 'flash', 1).fp32Hidden).toBe(2);
    // compiled: the norms keep only their inputs (compiledLayer)
    expect(layerActivation(LLAMA2_7B, 512, 1, amp, 'flash', 1, false, true).fp32Hidden).toBe(2);
    // Gemma-2's post-attention and post-feedforward RMSNorms upcast too: 4 norms per layer (its config, gemma2.test.ts)
    expect(layerActivation({ ...GEMMA2_2B, normsPerLayer: 4 }, 512, 1, amp, 'flash', 1).fp32Hidden).toBe(8);
  });
  it('fused projections read the norm output once: GPT-2 c_attn (no AMP copies), Phi-3 qkv_proj + gate_up_proj', () => {
    const amp = { e: 2, eRes: 4, eF32: 4 };
    expect(ampCastCopies({ ...GPT_LIKE, family: 'gpt2' }, amp)).toBe(0);
    expect(ampCastCopies({ ...LLAMA2_7B, family: 'phi3' }, amp)).toBe(0);
    // BERT: separate query/key/value, plain MLP → two extra copies
    expect(ampCastCopies({ ...GPT_LIKE, family: 'bert' }, amp)).toBe(2 * GPT_LIKE.hidden);
  });
  it('eager attention adds the fp32 softmax output and its bf16 copy: b·a·s²·6', () => {
    const l = layerActivation(LLAMA2_7B, 1000, 2, uniform(2), 'eager', 1);
    expect(l.scores).toBe(2 * 32 * 1000 * 1000 * 6);
  });
  it('full checkpointing keeps L·s·b·h·e plus one recomputed layer', () => {
    const s = 4096;
    const one = layerActivation(LLAMA2_7B, s, 1, uniform(2), 'flash', 1).linear;
    const ck = activationBytes(LLAMA2_7B, s, 1, uniform(2), 'flash', 'full', 1);
    // head: the final LlamaRMSNorm's fp32 copy (4), its bf16 x̂ saved by the weight mul (2), the LM-head input (2)
    expect(ck.bytes).toBe(32 * s * 4096 * 2 + one + (4 + 2 + 2) * s * 4096);
  });
  it('selective checkpointing drops only the s² term', () => {
    const none = activationBytes(LLAMA2_7B, 2048, 1, uniform(2), 'eager', 'none', 1).bytes;
    const sel = activationBytes(LLAMA2_7B, 2048, 1, uniform(2), 'eager', 'selective', 1).bytes;
    expect(none - sel).toBe(32 * 32 * 2048 * 2048 * 6);
  });
});

describe('logits and loss (docs/reference/formulas.md §5.3)', () => {
  it('Llama-3-8B at s = 8192: s·b·V ≈ 1.05e9, ≈ 10.5 GB peak with bf16 logits, fp32 upcast and log-softmax', () => {
    const { peak, held } = logitsBytes(8192, 1, 128256, 2);
    expect(8192 * 128256).toBeCloseTo(1.05e9, -7);
    expect(peak).toBe(10 * 8192 * 128256);
    expect(held).toBe(6 * 8192 * 128256);
  });
});
