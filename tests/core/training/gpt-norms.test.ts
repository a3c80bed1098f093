/**
 * GPT-style layers as their modeling files build them, and SDPA's math kernel in backward, counted by
 * hand from transformers 5.x and PyTorch:
 * - modeling_gptj.py `GPTJBlock.forward`: `hidden_states = self.ln_1(hidden_states)` feeds both
 *   `self.attn` and `self.mlp` (one LayerNorm per layer, as Falcon-7B's and Phi's parallel blocks);
 *   GPT-2's `GPT2Block` has ln_1 before attention and ln_2 before the MLP;
 * - the config classes' residual dropout: GPT-J `resid_pdrop` 0.0, Falcon `hidden_dropout` 0.0,
 *   GPT-2 `resid_pdrop` 0.1, OPT `dropout` 0.1 (configuration_*.py), unless config.json says; at 0
 *   `F.dropout` returns its input and keeps no mask;
 * - the math kernel's backward: our H200 trace of t031 (Falcon-7B LoRA, 2,048 tokens, 71 heads of 64)
 *   held three 1,136 MiB fp32 blocks at the first layer's attention backward, 71 × 2,048² × 4 B each.
 */
import { describe, expect, it } from 'vitest';
import { activationBytes, gptNorms, layerActivation, mathBackwardBytes, type ActDtypes } from '../../../src/core/training/activations';
import { findPreset } from '../../../src/core/model/presets';
import { archOf } from '../model/remote-configs';

const bf16Autocast: ActDtypes = { e: 2, eRes: 2, eF32: 4 };
const falcon = () => findPreset('tiiuae/falcon-7b')!.arch;
const gptj = () => archOf({ model_type: 'gptj', n_embd: 4096, n_head: 16, n_layer: 28, n_positions: 2048, rotary_dim: 64, vocab_size: 50400 });

describe('GPT-style norms and residual masks', () => {
  it('one norm in the parallel blocks, two in GPT-2’s; masks only where the config class drops out', () => {
    expect(gptNorms(gptj())).toEqual({ norms: 1, masks: 0 });
    expect(gptNorms(falcon())).toEqual({ norms: 1, masks: 0 });
    expect(gptNorms(findPreset('openai-community/gpt2')!.arch)).toEqual({ norms: 2, masks: 2 });
  });
  it('config.json’s own dropout wins over the class default: a Phi-2-shaped config with resid_pdrop 0.1 keeps the masks, OPT’s `dropout` is its residual one', () => {
    const phi = archOf({ model_type: 'phi', hidden_size: 2560, intermediate_size: 10240, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 51200, resid_pdrop: 0.1 });
    expect(gptNorms(phi)).toEqual({ norms: 1, masks: 2 });
    expect(gptNorms(archOf({ model_type: 'phi', hidden_size: 2560, intermediate_size: 10240, num_hidden_layers: 32, num_attention_heads: 32, vocab_size: 51200 }))).toEqual({ norms: 1, masks: 0 });
    const opt = (dropout: number) =>
      archOf({ model_type: 'opt', hidden_size: 768, ffn_dim: 3072, num_hidden_layers: 12, num_attention_heads: 12, vocab_size: 50272, max_position_embeddings: 2048, dropout });
    expect(gptNorms(opt(0.1)).masks).toBe(2);
    expect(gptNorms(opt(0)).masks).toBe(0);
  });
  it('GPT-J, bf16 under autocast, 2,048 tokens: one 32 MiB fp32 norm input and no masks — 48 MiB a layer less than two norms and two masks', () => {
    const arch = gptj();
    const own = layerActivation(arch, 1024, 2, bf16Autocast, 'sdpa', 1);
    const twoNorms = layerActivation({ ...arch, normsPerLayer: 2, family: 'gptj-as-common', residDropout: true }, 1024, 2, bf16Autocast, 'sdpa', 1);
    // a second norm's fp32 input (4 B) and two 1-byte masks per token; the Linear inputs (2e) stay
    expect(twoNorms.linear - own.linear).toBe(2048 * 4096 * (4 + 2));
    expect(twoNorms.linear - own.linear).toBe(48 * 2 ** 20);
  });
});

describe('SDPA’s math kernel in backward', () => {
  it('Falcon-7B at 2,048 tokens: three fp32 b·a·s² gradients, 3 × 1,136 MiB (t031’s trace)', () => {
    expect(mathBackwardBytes(falcon(), 'sdpa', 2048, 1, 1)).toBe(3 * 71 * 2048 * 2048 * 4);
    expect(mathBackwardBytes(falcon(), 'sdpa', 2048, 1, 1)).toBe(3 * 1136 * 2 ** 20);
    expect(activationBytes(falcon(), 2048, 1, bf16Autocast, 'sdpa', 'none', 1).backwardTemp).toBe(3 * 1136 * 2 ** 20);
  });
  it('none where SDPA runs a fused kernel (grouped heads, Llama) or attention is eager', () => {
    const llama = findPreset('meta-llama/Llama-3.1-8B')!.arch;
    expect(mathBackwardBytes(llama, 'sdpa', 2048, 1, 1)).toBe(0);
    expect(mathBackwardBytes(falcon(), 'eager', 2048, 1, 1)).toBe(0);
  });
});
