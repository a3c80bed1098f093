/**
 * Zamba2: Mamba-2 layers and a few shared transformer blocks. Every expected value is written out
 * from transformers `models/zamba2/modeling_zamba2.py` (Zamba2Model.__init__, Zamba2AttentionDecoderLayer,
 * Zamba2Attention, Zamba2MLP, Zamba2MambaMixer, Zamba2HybridDynamicCache) and PEFT's module matching.
 */
import { describe, expect, it } from 'vitest';
import { parseHfConfig } from '../../../src/core/model/config';
import { loraTrainableParams } from '../../../src/core/model/lora';
import { countParams } from '../../../src/core/model/params';
import { presetArch, runInference, termOf } from './hybrid-helpers';

const preset = presetArch;
const run = runInference;

describe('Zamba2-2.7B (h 2560, 54 Mamba-2 layers, 9 uses of 2 shared blocks, MLP adapters of rank 128)', () => {
  const h = 2560;
  const di = 5120; // mamba_expand · h
  const conv = di + 2 * 1 * 64; // conv_dim = d_i + 2·G·N
  // Zamba2MambaDecoderLayer: in_proj h→(d_i + conv_dim + H), conv1d (bias=True), dt_bias, A_log, D, gated norm, out_proj, input_layernorm
  const mamba = h * (di + conv + 80) + conv * 4 + conv + 3 * 80 + di + di * h + h;
  // Zamba2AttentionDecoderLayer: q/k/v read 2h = 5120, 32 heads of 2h/32 = 160; o back to h; gate_up h→2f, down f→h; norms of 2h and h
  const block = 3 * (2 * h) * (32 * 160) + 32 * 160 * h + h * 2 * 10240 + 10240 * h + 2 * h + h;
  // each use: its own linear h→h and the gate_up adapter h→128→2f
  const use = h * h + h * 128 + 128 * 2 * 10240;
  const total = 54 * mamba + 2 * block + 9 * use + 32000 * h /* tied */ + h;

  it('counts the shared blocks once and the adapters per use: 2.66 B, the card’s 2.7B', () => {
    expect(countParams(preset('Zyphra/Zamba2-2.7B')).total).toBe(total);
    expect(total).toBe(2_662_214_560);
    expect(Math.round(total / 1e8) / 10).toBe(2.7);
  });

  it('keeps a KV cache in each of the 9 hybrid layers (head size 2h / heads = 160, not kv_channels 80)', () => {
    const e = run({ model: 'Zyphra/Zamba2-2.7B', engine: 'transformers', prompt: 4096 });
    expect(termOf(e, 'kv-cache')).toBe(9 * 2 * 32 * 160 * 4096 * 2);
  });

  it('keeps conv and SSM state for all 54 layers in the model dtype (Zamba2HybridDynamicCache)', () => {
    const tf = run({ model: 'Zyphra/Zamba2-2.7B', engine: 'transformers', prompt: 4096, batch: 2 });
    // conv_states (b, d_i + 2·G·N, d_conv); ssm_states (b, H, head_dim = 64, N)
    expect(termOf(tf, 'recurrent-state')).toBe(2 * 54 * (conv * 4 + 80 * 64 * 64) * 2);
    const vl = run({ model: 'Zyphra/Zamba2-2.7B', engine: 'vllm', prompt: 4096 });
    expect(termOf(vl, 'recurrent-state')).toBe(54 * (conv * 3 + 80 * 64 * 64) * 2);
  });

  it('LoRA on q and v adapts each shared block’s projections once (PEFT wraps the module, not its uses)', () => {
    // per block: q_proj and v_proj 5120 → 5120 each; the adapters and linear match no target
    expect(loraTrainableParams(preset('Zyphra/Zamba2-2.7B'), 16, ['q', 'v'])).toBe(2 * 2 * 16 * (5120 + 5120));
  });
});

describe('Zamba2-7B (h 3584, 81 layers, 13 uses of 2 shared blocks, 2 B/C groups): the technical report’s 7.4B', () => {
  // Zamba2-7B's config as first published for transformers 4.43 (ffn_hidden_size, state_size,
  // expansion_factor, conv_dimension, mamba_headdim, lora_rank, use_shared_block_lora), written in
  // Zamba2Config's names; hybrid at 6, 11, then every 6th layer to 77
  const hybridAt = new Set([6, ...Array.from({ length: 12 }, (_, i) => 11 + 6 * i)]);
  const cfg = {
    model_type: 'zamba2',
    hidden_size: 3584,
    intermediate_size: 14336,
    num_hidden_layers: 81,
    layers_block_type: Array.from({ length: 81 }, (_, i) => (hybridAt.has(i) ? 'hybrid' : 'mamba')),
    num_attention_heads: 32,
    num_key_value_heads: 32,
    vocab_size: 32000,
    mamba_d_state: 64,
    mamba_d_conv: 4,
    mamba_expand: 2,
    mamba_ngroups: 2,
    n_mamba_heads: 7168 / 64,
    num_mem_blocks: 2,
    adapter_rank: 128,
    use_shared_mlp_adapter: true,
    use_shared_attention_adapter: false,
  };

  it('counts 7.36 B (arXiv 2411.15242: 7.4B)', () => {
    const r = parseHfConfig(cfg);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const h = 3584;
    const conv = 7168 + 2 * 2 * 64;
    const mamba = h * (7168 + conv + 112) + conv * 5 + 3 * 112 + 7168 + 7168 * h + h;
    const block = 3 * 7168 * 7168 + 7168 * h + h * 2 * 14336 + 14336 * h + 2 * h + h;
    const use = h * h + h * 128 + 128 * 2 * 14336;
    const total = 81 * mamba + 2 * block + 13 * use + 32000 * h + h;
    expect(countParams(r.value).total).toBe(total);
    expect(total).toBe(7_356_749_648);
    expect(Math.round(total / 1e8) / 10).toBe(7.4);
  });
});

describe('a small Zamba2 counted by hand: attention adapters, 2 blocks used 3 times', () => {
  const cfg = {
    model_type: 'zamba2',
    hidden_size: 64,
    num_hidden_layers: 6,
    layers_block_type: ['mamba', 'hybrid', 'mamba', 'hybrid', 'mamba', 'hybrid'],
    num_attention_heads: 4,
    intermediate_size: 128,
    vocab_size: 100,
    n_mamba_heads: 4,
    mamba_d_state: 16,
    mamba_ngroups: 1,
    mamba_d_conv: 4,
    mamba_expand: 2,
    num_mem_blocks: 2,
    adapter_rank: 8,
    use_shared_attention_adapter: true,
    use_conv_bias: false,
  };

  it('counts 376,392 parameters', () => {
    const r = parseHfConfig(cfg);
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    // d_i 128, conv_dim 160: in_proj 64·292, conv1d 160·4 + 160 (bias kept though use_conv_bias is false), dt_bias/A_log/D 3·4, norm 128, out_proj 128·64, input_layernorm 64
    const mamba = 64 * 292 + 160 * 4 + 160 + 12 + 128 + 128 * 64 + 64;
    // q/k/v 128→128, o 128→64, gate_up 64→256, down 128→64, norms 128 + 64
    const block = 3 * 128 * 128 + 128 * 64 + 64 * 256 + 128 * 64 + 192;
    // linear 64·64, MLP adapter 64·8 + 8·256, q/k/v adapters 3·(128·8 + 8·128)
    const use = 64 * 64 + 64 * 8 + 8 * 256 + 3 * (128 * 8 + 8 * 128);
    const total = 6 * mamba + 2 * block + 3 * use + 100 * 64 + 64;
    expect(total).toBe(376_392);
    expect(countParams(r.value).total).toBe(total);
  });

  it('a layer kind Zamba2Model does not build is refused by name', () => {
    const r = parseHfConfig({ ...cfg, layers_block_type: ['mamba', 'attention', 'mamba', 'hybrid', 'mamba', 'hybrid'] });
    expect(r.ok ? null : r.errors[0]).toEqual(expect.objectContaining({ key: 'layers_block_type', code: 'invalid-layer', message: expect.stringContaining('"attention"') }));
  });

  it('without layers_block_type reads Zamba2Config’s 54-layer default (9 hybrid layers)', () => {
    const { layers_block_type: _, ...rest } = cfg;
    const r = parseHfConfig({ ...rest, num_hidden_layers: 54 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value.layers).toBe(54);
    expect(r.value.hybrid?.blocks.find((b) => b.attn)?.count).toBe(9);
  });
});
