/**
 * What the files with their own eager attention save for backward (training/activations.ts
 * `gptEagerSaves`), worked out by hand from transformers 5.x: modeling_falcon.py
 * `FalconAttention.forward` (softmax with dtype=hidden_states.dtype, which autocast keeps:
 * autocast_mode.cpp `fp32_set_opt_dtype`), modeling_gptj.py `GPTJAttention._attn` (q and k cast to
 * fp32 before the matmul), modeling_gpt2.py `eager_attention_forward` (softmax with no dtype, which
 * autocast runs in fp32), modeling_bloom.py `BloomAttention.forward`; attention dropout from the config
 * classes' defaults. AMP dtypes: 16-bit matmuls, fp32 residual stream and softmax.
 */
import { describe, expect, it } from 'vitest';
import { layerActivation, type ActDtypes } from '../../../src/core/training/activations';
import { findPreset } from '../../../src/core/model/presets';
import { archOf } from '../model/remote-configs';

const AMP: ActDtypes = { e: 2, eRes: 4, eF32: 4 };

describe('own eager attention in training', () => {
  it('Falcon-7B: its 16-bit probabilities, saved once (71 × 1,024² × 2 B a layer), not the fp32 softmax, mask and cast', () => {
    const falcon = findPreset('tiiuae/falcon-7b')!.arch;
    const eager = layerActivation(falcon, 1024, 1, AMP, 'eager', 1);
    const flash = layerActivation(falcon, 1024, 1, AMP, 'flash', 1);
    expect(eager.scores - flash.scores).toBe(148_897_792);
  });
  it("GPT-2: no dtype, so autocast's fp32 softmax output, the dropout mask and the 16-bit dropout output (12 heads: 12 × 1,024² × 7 B)", () => {
    const gpt2 = findPreset('openai-community/gpt2')!.arch;
    expect(layerActivation(gpt2, 1024, 1, AMP, 'eager', 1).scores).toBe(12 * 1024 * 1024 * 7);
  });
  it('GPT-J-6B: without autocast its QKᵀ matmul saves the fp32 q and k copies, (4 − 2)·(16 + 16)·256 = 16,384 B more per token; under autocast the 16-bit casts of them, nothing more', () => {
    // EleutherAI/gpt-j-6b config.json: n_embd 4096, n_head 16, n_layer 28, rotary_dim 64
    const gptj = archOf({ model_type: 'gptj', n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64, vocab_size: 50400 });
    const bf16: ActDtypes = { e: 2, eRes: 2, eF32: 2 };
    const own = layerActivation(gptj, 1024, 1, bf16, 'eager', 1);
    const common = layerActivation({ ...gptj, family: 'gptj-as-common', residDropout: true }, 1024, 1, bf16, 'eager', 1);
    // the common GPT-style count also keeps two 1-byte residual-dropout masks per token, which
    // GPT-J's resid_pdrop 0.0 does not make (families.ts residDropout): 2·4,096 B per token fewer
    const masks = 1024 * 2 * 4096;
    expect(own.linear - common.linear).toBe(1024 * 16_384 - masks);
    // autocast's matmul casts the fp32 copies back to 16-bit (our H200 trace of t044: two 16 MiB
    // bf16 blocks per layer from that line at 2,048 tokens: 2,048 × 4,096 × 2 B each)
    expect(layerActivation(gptj, 1024, 1, AMP, 'eager', 1).linear - layerActivation({ ...gptj, family: 'gptj-as-common', residDropout: true }, 1024, 1, AMP, 'eager', 1).linear).toBe(-masks);
    // GPT-J's attn_pdrop is 0.0: the fp32 softmax output and its 16-bit cast, no dropout mask
    expect(layerActivation(gptj, 1024, 1, AMP, 'eager', 1).scores).toBe(16 * 1024 * 1024 * (4 + 2));
  });
  it("Bloom-7b1 (attention_dropout 0.0): softmax(dtype=float32)'s output and the 16-bit cast bmm reads, 32 × 1,024² × 6 B; no dropout mask", () => {
    // bigscience/bloom-7b1 config.json: hidden_size 4096, n_head 32, n_layer 30
    const bloom = archOf({ model_type: 'bloom', hidden_size: 4096, n_head: 32, n_layer: 30, vocab_size: 250880 });
    expect(layerActivation(bloom, 1024, 1, AMP, 'eager', 1).scores).toBe(32 * 1024 * 1024 * 6);
    // in pure bf16 the softmax output is the tensor bmm reads: 2 B
    expect(layerActivation(bloom, 1024, 1, { e: 2, eRes: 2, eF32: 2 }, 'eager', 1).scores).toBe(32 * 1024 * 1024 * 2);
  });
});
