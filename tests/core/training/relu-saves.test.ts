/**
 * What a ReLU MLP saves, counted by hand from the code that runs:
 * - transformers models/opt/modeling_opt.py OPTDecoderLayer.forward: `fc1` → `activation_fn`
 *   (ACT2FN["relu"] = nn.ReLU, not in place) → `fc2` → dropout;
 * - tools/autograd/derivatives.yaml `relu: threshold_backward(grad, result, 0)`: ReLU saves its
 *   result, the same tensor fc2 saves as its input; the fc1 output is saved by nothing. GELU / SiLU
 *   (`gelu_backward(grad, self)`, `silu_backward(grad, self)`) save their input.
 * facebook/opt-1.3b's config.json: hidden 2048, ffn_dim 8192, 24 layers, 32 heads.
 */
import { describe, expect, it } from 'vitest';
import { composedActBackward, mlpActSaves, actSavesBytes } from '../../../src/core/training/act-saves';
import { layerActivation, type ActDtypes } from '../../../src/core/training/activations';
import { loraLayerActivation, type LoraSaves } from '../../../src/core/training/lora-activations';
import { parseHfConfig } from '../../../src/core/model/config';
import type { ModelArch } from '../../../src/core/types';

const OPT_1_3B = {
  model_type: 'opt',
  hidden_size: 2048,
  ffn_dim: 8192,
  num_hidden_layers: 24,
  num_attention_heads: 32,
  vocab_size: 50272,
  max_position_embeddings: 2048,
  do_layer_norm_before: true,
  word_embed_proj_dim: 2048,
  dropout: 0.1,
  activation_function: 'relu',
  enable_bias: true,
  tie_word_embeddings: true,
};
const bf16: ActDtypes = { e: 2, eRes: 2, eF32: 2 };
const MiB = 2 ** 20;

function parsed(cfg: Record<string, unknown>): ModelArch {
  const r = parseHfConfig(cfg);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}

describe('config.json → ReLU', () => {
  it('OPT’s activation_function "relu"; T5’s default feed_forward_proj "relu" (T5Config), MT5’s default "gated-gelu" (MT5Config)', () => {
    expect(parsed(OPT_1_3B).mlpAct).toBe('relu');
    const t5 = { model_type: 't5', d_model: 64, d_ff: 128, d_kv: 16, num_heads: 4, num_layers: 2, vocab_size: 100 };
    expect(parsed(t5).mlpAct).toBe('relu');
    expect(parsed({ ...t5, feed_forward_proj: 'gated-silu' }).mlpAct).toBeUndefined();
    expect(parsed({ ...t5, model_type: 'mt5' }).mlpAct).toBe('tanh-gelu');
  });
});

describe('bytes ReLU saves against a fused GELU / SiLU', () => {
  const opt = parsed(OPT_1_3B);
  it('one e-sized f-wide tensor fewer (the fc1 output), plain or gated; its backward is one kernel', () => {
    expect(actSavesBytes(mlpActSaves(opt, bf16), 2)).toBe(-2);
    expect(actSavesBytes(mlpActSaves({ ...opt, gatedMlp: true }, bf16), 2)).toBe(-2);
    expect(composedActBackward(opt, bf16)).toBe(0);
  });
  it('OPT-1.3B full fine-tuning, 4 × 2,048 tokens, bf16: 8,192 × 8,192 × 2 B = 128 MiB less in each layer', () => {
    const relu = layerActivation(opt, 2048, 4, bf16, 'sdpa', 1);
    const gelu = layerActivation({ ...opt, mlpAct: undefined }, 2048, 4, bf16, 'sdpa', 1);
    expect(gelu.linear - relu.linear).toBe(128 * MiB);
  });
  it('LoRA on every Linear: with adapter dropout the same count (ReLU’s output in place of the fc1 output); without, the down adapter reads the output ReLU keeps: 128 MiB less', () => {
    const lora = (dropout: number): LoraSaves => ({ targets: ['q', 'k', 'v', 'o', 'up', 'down'], rank: 16, dropout, adapterBytes: 2, autocast: false });
    const at = (arch: ModelArch, dropout: number) => loraLayerActivation(arch, 2048, 4, bf16, 'sdpa', 1, false, false, lora(dropout)).linear;
    const fused = { ...opt, mlpAct: undefined };
    expect(at(opt, 0.05)).toBe(at(fused, 0.05));
    expect(at(fused, 0) - at(opt, 0)).toBe(128 * MiB);
  });
});
