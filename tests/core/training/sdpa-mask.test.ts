import { describe, expect, it } from 'vitest';
import { layerActivation, sdpaMaskedShare, uniform } from '../../../src/core/training/activations';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Scenario } from '../../../src/core/types';
import { findPreset } from '../../../src/core/model/presets';
import { GEMMA2_2B, LLAMA3_8B } from '../inference/archs';

/**
 * What attention saves for backward when K/V heads are grouped (g < a), from transformers'
 * modeling_llama.py `eager_attention_forward` (repeat_kv before the two matmuls, which save their
 * operands) and integrations/sdpa_attention.py (`enable_gqa` only when `use_gqa_in_sdpa`: no mask),
 * and from PyTorch's attention.cpp `convert_boolean_attn_mask` (a bool mask becomes an additive one
 * in the query's dtype, which the efficient kernel saves as attn_bias). Llama-3-8B: a 32, g 8, d 128.
 */
describe('grouped K/V and masks in training attention', () => {
  it('eager repeats K and V to all heads: 2·(a − g)·d·e more per token than flash (1,024 tokens: 12,582,912 B)', () => {
    const eager = layerActivation(LLAMA3_8B, 1024, 1, uniform(2), 'eager', 1);
    const flash = layerActivation(LLAMA3_8B, 1024, 1, uniform(2), 'flash', 1);
    expect(eager.linear - flash.linear).toBe(1024 * 2 * 2 * (32 - 8) * 128);
    expect(eager.linear - flash.linear).toBe(12_582_912);
  });
  it('unmasked SDPA (enable_gqa) saves the g heads as flash does', () => {
    expect(layerActivation(LLAMA3_8B, 1024, 1, uniform(2), 'sdpa', 1).linear).toBe(layerActivation(LLAMA3_8B, 1024, 1, uniform(2), 'flash', 1).linear);
  });
  it('head_dim above 256 repeats K/V in SDPA even without a mask (use_gqa_in_sdpa needs head_dim ≤ 256)', () => {
    const wide = { ...LLAMA3_8B, headDim: 512 };
    const sdpa = layerActivation(wide, 1024, 1, uniform(2), 'sdpa', 1);
    const flash = layerActivation(wide, 1024, 1, uniform(2), 'flash', 1);
    expect(sdpa.linear - flash.linear).toBe(1024 * 2 * 2 * (32 - 8) * 512);
  });
  it('a masked SDPA layer saves K/V at a heads and the b·s·s·e additive mask (4 × 2,048 tokens)', () => {
    const masked = layerActivation(LLAMA3_8B, 2048, 4, uniform(2), 'sdpa', 1, false, false, 1);
    const plain = layerActivation(LLAMA3_8B, 2048, 4, uniform(2), 'sdpa', 1);
    expect(masked.linear - plain.linear).toBe(2048 * 4 * 2 * 2 * 24 * 128);
    expect(masked.scores - plain.scores).toBe(4 * 2048 * 2048 * 2);
    expect(masked.scores - plain.scores).toBe(33_554_432);
  });
  it('which layers are masked: padding masks all; a window ≤ s masks the sliding layers (Gemma-2-2B: 13 of 26)', () => {
    expect(sdpaMaskedShare(GEMMA2_2B, 4096, 'sdpa', false)).toBe(0.5);
    expect(sdpaMaskedShare(GEMMA2_2B, 4095, 'sdpa', false)).toBe(0);
    expect(sdpaMaskedShare(GEMMA2_2B, 1024, 'sdpa', true)).toBe(1);
    expect(sdpaMaskedShare(LLAMA3_8B, 32768, 'sdpa', false)).toBe(0);
    expect(sdpaMaskedShare(GEMMA2_2B, 8192, 'flash', true)).toBe(0);
  });
  it('padded batches (lengths=varied, len-spread > 0, b 4): Llama-3.2-1B full fine-tune at 2,048 tokens saves 16 × (mask + repeated K/V) more', () => {
    // Llama-3.2-1B: 16 layers, a 32, g 8, d 64; bf16, no checkpointing
    const run = (lenSpread: number) => {
      const s: Scenario = {
        ...defaultScenario(),
        mode: 'training',
        model: 'meta-llama/Llama-3.2-1B',
        method: 'full',
        precision: 'bf16',
        weights: 'bf16',
        attn: 'sdpa',
        gradCkpt: 'none',
        seq: 2048,
        batch: 4,
        lengths: 'varied',
        lenSpread,
      };
      const r = estimate(s);
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.value.terms.find((t) => t.id === 'activations')!.bytes;
    };
    const perLayer = 4 * 2048 * 2048 * 2 + 2048 * 4 * 2 * 2 * (32 - 8) * 64;
    expect(run(0.6) - run(0)).toBe(16 * perLayer);
    expect(16 * perLayer).toBe(1_342_177_280);
  });
});

/**
 * Multi-query Falcon hands SDPA one K/V head without enable_gqa, so the math kernel runs in training
 * too (core/sdpa.ts sdpaRunsMath) and autograd saves what its composite ops save
 * (attention.cpp `_scaled_dot_product_attention_math`): fp32 q·scale, kᵀ·scale and v, and the fp32
 * `_safe_softmax` output. Falcon-7B: a 71, g 1, d 64, 32 layers.
 */
describe("SDPA's math kernel in training (multi-query Falcon)", () => {
  const falcon = findPreset('tiiuae/falcon-7b')!.arch;
  it('one layer at 1,024 tokens: 71 × 1,024² × 4 B of fp32 probabilities, and fp32 q, K, V in place of the 16-bit q, K, V', () => {
    const sdpa = layerActivation(falcon, 1024, 1, uniform(2), 'sdpa', 1);
    const flash = layerActivation(falcon, 1024, 1, uniform(2), 'flash', 1);
    expect(sdpa.scores - flash.scores).toBe(297_795_584);
    // 4·(71 + 2)·64 = 18,688 B per token, where the fused kernel's q and K, V took 2·(4,544 + 128) = 9,344
    expect(sdpa.linear - flash.linear).toBe(1024 * (18_688 - 9_344));
  });
  it('LoRA, 1,024 tokens, no checkpointing: 32 layers of it (the frozen o_proj saves no kernel output)', () => {
    const act = (attn: Scenario['attn']) => {
      const r = estimate({ ...defaultScenario(), mode: 'training', method: 'lora', model: 'tiiuae/falcon-7b', gpu: '', attn, seq: 1024, batch: 1, gradCkpt: 'none' });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.value.terms.find((t) => t.id === 'activations')!.bytes;
    };
    // per layer 297,795,584 + 1,024 · (18,688 − 2·(4,544 + 128 + 4,544)) = 298,057,728
    expect(act('sdpa') - act('flash')).toBe(32 * 298_057_728);
  });
  it('the estimate says so, in training and in generate, and not under flash attention', () => {
    const notes = (p: Partial<Scenario>) => {
      const r = estimate({ ...defaultScenario(), model: 'tiiuae/falcon-7b', gpu: '', seq: 1024, prompt: 1024, batch: 1, ...p });
      if (!r.ok) throw new Error(JSON.stringify(r.errors));
      return r.value.notes.map((n) => n.code);
    };
    expect(notes({ mode: 'training', method: 'lora', attn: 'sdpa' })).toContain('model.sdpa-math');
    expect(notes({ mode: 'inference', engine: 'transformers', weights: 'bf16', attn: 'sdpa' })).toContain('model.sdpa-math');
    expect(notes({ mode: 'training', method: 'lora', attn: 'flash' })).not.toContain('model.sdpa-math');
  });
  it('models with the heads SDPA fuses (Falcon-40B expands K/V itself; Llama) keep the fused kernel', () => {
    const f40 = findPreset('tiiuae/falcon-40b')!.arch;
    expect(layerActivation(f40, 1024, 1, uniform(2), 'sdpa', 1).scores).toBe(layerActivation(f40, 1024, 1, uniform(2), 'flash', 1).scores);
    expect(layerActivation(LLAMA3_8B, 1024, 1, uniform(2), 'sdpa', 1).scores).toBe(0);
  });
});
