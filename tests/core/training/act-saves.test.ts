/**
 * What a Python-composed MLP activation and an autocast LayerNorm save, counted by hand from the
 * code that runs:
 * - transformers activations.py NewGELUActivation.forward:
 *   `0.5 * input * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (input + 0.044715 * torch.pow(input, 3.0))))`;
 *   FastGELUActivation `0.5 * input * (1.0 + torch.tanh(input * 0.7978845608 * (1.0 + 0.044715 * input * input)))`;
 *   QuickGELUActivation `input * torch.sigmoid(1.702 * input)`;
 * - what each op saves (tools/autograd/derivatives.yaml: `pow.Tensor_Scalar` self, `tanh` and
 *   `sigmoid` result, `mul.Tensor` both operands, `mul.Scalar` / `add` nothing) and which ops
 *   autocast widens (aten/src/ATen/autocast_mode.cpp fp32 list: `pow`, `layer_norm`).
 * GPT-2 XL's shape from its config.json: h 1600, n_inner null → f 6400, 25 heads, 48 layers.
 * The measured figures are our H200 run t033 (src/validation/fixtures/measured-gpu.json, its
 * allocator trace): at the peak each layer held 350 MiB allocated in NewGELUActivation.forward,
 * b·s = 4,096 tokens × 6,400 × 14 B — the fused inventory's 2 B input plus the 12 B counted here.
 */
import { describe, expect, it } from 'vitest';
import { actSavesBytes, composedActBackward, mlpActSaves } from '../../../src/core/training/act-saves';
import { activationBytes, layerActivation, layerNormBytes, type ActDtypes } from '../../../src/core/training/activations';
import { findPreset } from '../../../src/core/model/presets';
import { parseHfConfig } from '../../../src/core/model/config';
import type { ModelArch } from '../../../src/core/types';

const amp: ActDtypes = { e: 2, eRes: 4, eF32: 4 };
const bf16Autocast: ActDtypes = { e: 2, eRes: 2, eF32: 4 };
const bf16Plain: ActDtypes = { e: 2, eRes: 2, eF32: 2 };
const fp32: ActDtypes = { e: 4, eRes: 4, eF32: 4 };

const gpt2xl = (): ModelArch => {
  const p = findPreset('openai-community/gpt2-xl');
  if (!p) throw new Error('preset missing');
  return p.arch;
};

describe('config.json → the composed activation', () => {
  const base = { model_type: 'gpt2', n_embd: 64, n_layer: 2, n_head: 4, vocab_size: 100, n_positions: 128 };
  const act = (extra: Record<string, unknown>) => {
    const r = parseHfConfig({ ...base, ...extra });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    return r.value.mlpAct;
  };
  it('gelu_new / gelu_python_tanh, gelu_fast and quick_gelu are composed; gelu, gelu_pytorch_tanh and silu are fused kernels', () => {
    expect(act({ activation_function: 'gelu_new' })).toBe('tanh-gelu');
    expect(act({ activation_function: 'gelu_python_tanh' })).toBe('tanh-gelu');
    expect(act({ activation_function: 'gelu_fast' })).toBe('fast-gelu');
    expect(act({ activation_function: 'quick_gelu' })).toBe('quick-gelu');
    for (const name of ['gelu', 'gelu_pytorch_tanh', 'silu']) expect(act({ activation_function: name }), name).toBeUndefined();
  });
  it('T5 v1.1 / Flan-T5: feed_forward_proj "gated-gelu" means dense_act_fn gelu_new (T5Config.__init__)', () => {
    const r = parseHfConfig({ model_type: 't5', d_model: 64, d_ff: 128, d_kv: 16, num_heads: 4, num_layers: 2, vocab_size: 100, feed_forward_proj: 'gated-gelu' });
    expect(r.ok && r.value.mlpAct).toBe('tanh-gelu');
    expect(r.ok && r.value.gatedMlp).toBe(true);
  });
  it('the GPT-2 presets carry it', () => {
    expect(gpt2xl().mlpAct).toBe('tanh-gelu');
    expect(findPreset('meta-llama/Llama-3.1-8B')?.arch.mlpAct).toBeUndefined();
  });
});

describe('bytes per f-wide element beyond a fused activation', () => {
  const arch = gpt2xl();
  it('gelu_new under autocast: x’s fp32 copy (pow), 0.5·x, tanh’s fp32 result, 1 + tanh, less x itself: 4 + 2 + 4 + 4 − 2 = 12', () => {
    expect(actSavesBytes(mlpActSaves(arch, amp), 2)).toBe(12);
    expect(actSavesBytes(mlpActSaves(arch, bf16Autocast), 2)).toBe(12);
  });
  it('gelu_new without autocast: 0.5·x, tanh’s result, 1 + tanh in the model dtype: 3e', () => {
    expect(actSavesBytes(mlpActSaves(arch, bf16Plain), 2)).toBe(6);
    expect(actSavesBytes(mlpActSaves(arch, fp32), 4)).toBe(12);
  });
  it('gated gelu_new under autocast: its fp32 result is what `act(gate) * up` saves, 4 − e more', () => {
    expect(actSavesBytes(mlpActSaves({ ...arch, gatedMlp: true }, amp), 2)).toBe(14);
  });
  it('gelu_fast: 0.044715·x, x·0.7978…, 1 + 0.044715·x·x, tanh’s result, 0.5·x, 1 + tanh: 6e; quick_gelu: the sigmoid’s result, e', () => {
    expect(actSavesBytes(mlpActSaves({ ...arch, mlpAct: 'fast-gelu' }, amp), 2)).toBe(12);
    expect(actSavesBytes(mlpActSaves({ ...arch, mlpAct: 'quick-gelu' }, amp), 2)).toBe(2);
    expect(actSavesBytes(mlpActSaves({ ...arch, mlpAct: undefined }, amp), 2)).toBe(0);
  });
  it('GPT-2 XL, AMP, 4 × 1,024 tokens (t033): 300 MiB more per layer than the fused count — 350 MiB measured in NewGELUActivation, less its 50 MiB input', () => {
    const without = layerActivation({ ...arch, mlpAct: undefined }, 1024, 4, amp, 'sdpa', 1);
    const withAct = layerActivation(arch, 1024, 4, amp, 'sdpa', 1);
    expect(withAct.linear - without.linear).toBe(300 * 2 ** 20);
    expect(withAct.act).toEqual({ wide: 3, narrow: 0 });
  });
  it('compiled layers recompute the pointwise chain: nothing more', () => {
    const a = layerActivation(arch, 1024, 4, amp, 'sdpa', 1, false, true);
    const b = layerActivation({ ...arch, mlpAct: undefined }, 1024, 4, amp, 'sdpa', 1, false, true);
    expect(a.linear).toBe(b.linear);
  });
});

describe('a LayerNorm under autocast saves an fp32 cast of a 16-bit stream', () => {
  it('4 B per element under autocast, the stream’s own dtype without', () => {
    expect(layerNormBytes(bf16Autocast)).toBe(4);
    expect(layerNormBytes(amp)).toBe(4);
    expect(layerNormBytes(bf16Plain)).toBe(2);
  });
  it('GPT-2 XL, bf16 weights under the Trainer’s autocast, 4 × 1,024 tokens: two 25 MiB fp32 norm inputs per layer where bf16 ones would be 12.5 MiB (t035’s trace: 25 MiB blocks from layer_norm)', () => {
    const arch = gpt2xl();
    const on = layerActivation(arch, 1024, 4, { ...bf16Autocast }, 'sdpa', 1);
    const off = layerActivation(arch, 1024, 4, { ...bf16Autocast, eF32: 2 }, 'sdpa', 1);
    // the gelu_new part differs too (12 vs 6 B per f-wide element): take it out
    const act = 4096 * 6400 * (12 - 6);
    expect(on.linear - off.linear - act).toBe(2 * 25 * 2 ** 20 - 2 * 12.5 * 2 ** 20);
  });
});

describe('a composed activation’s backward', () => {
  it('gelu_new under autocast: the incoming fp32 gradient and MulBackward0’s two fp32 products, 12 B, where a fused GELU holds 2 + 2: 8 B more per element', () => {
    expect(composedActBackward(gpt2xl(), bf16Autocast)).toBe(8);
    expect(composedActBackward(gpt2xl(), amp)).toBe(8);
  });
  it('without autocast, and for gelu_fast / quick_gelu: three e-sized tensors where the fused holds two, e more', () => {
    expect(composedActBackward(gpt2xl(), bf16Plain)).toBe(2);
    expect(composedActBackward(gpt2xl(), fp32)).toBe(4);
    expect(composedActBackward({ ...gpt2xl(), mlpAct: 'quick-gelu' }, amp)).toBe(2);
    expect(composedActBackward({ ...gpt2xl(), mlpAct: undefined }, amp)).toBe(0);
  });
  it('GPT-2 XL, 4 × 1,024 tokens, bf16 under autocast (t039): 200 MiB in one layer — its trace held three 100 MiB fp32 blocks where the fused count has two 50 MiB bf16 ones', () => {
    expect(activationBytes(gpt2xl(), 1024, 4, bf16Autocast, 'sdpa', 'full', 1).backwardTemp).toBe(200 * 2 ** 20);
    expect(activationBytes(gpt2xl(), 1024, 4, bf16Autocast, 'sdpa', 'full', 1, { compiled: true }).backwardTemp).toBe(0);
  });
});
