/**
 * RWKV-7: parameters and recurrent state written out from flash-linear-attention
 * (`fla/layers/rwkv7.py` RWKV7Attention, `fla/layers/rwkv6.py` LoRA, `fla/models/rwkv7/modeling_rwkv7.py`
 * RWKV7FeedForward / RWKV7Block / RWKV7Model, `fla/modules/token_shift.py`, `fla/ops/rwkv7`).
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { parseHfConfig } from '../../../src/core/model/config';
import { loraTrainableParams } from '../../../src/core/model/lora';
import { countParams } from '../../../src/core/model/params';
import { defaultScenario } from '../../../src/core/scenario';
import type { ModelArch, Scenario } from '../../../src/core/types';
import { presetArch, runInference, termOf } from './hybrid-helpers';

const ID = 'fla-hub/rwkv7-2.9B-world';

const preset = (): ModelArch => presetArch(ID);
const run = (p: Partial<Scenario>) => runInference({ model: ID, ...p });

/** One layer by hand (value_dim = h): time mixing without v_lora, v_lora, channel mixing, two LayerNorms with bias. */
function layer(h: number, f: number, w: number, a: number, v: number, g: number) {
  const time = 6 * h + 2 * h + h + 4 * h * h + (h * w + w * h + h) + (h * a + a * h + h) + (h * g + g * h) + 2 * h;
  const vLora = h * v + v * h + h;
  const ffn = h + 2 * h * f;
  return { first: time + ffn + 4 * h + 2 * h /* pre_norm */, rest: time + vLora + ffn + 4 * h };
}

describe('rwkv7-2.9B-world (h 2560, 32 layers, f 10240, ranks 96 / 96 / 64 / 320, V 65536, untied)', () => {
  const l = layer(2560, 10240, 96, 96, 64, 320);
  const total = l.first + 31 * l.rest + 2 * 65536 * 2560 + 2 * 2560;

  it('counts 2.95 B, the card’s 2.9B', () => {
    expect(total).toBe(2_947_735_040);
    expect(countParams(preset()).total).toBe(total);
    expect(Math.round(total / 1e8) / 10).toBe(2.9);
  });

  it('has no KV cache; per sequence two token-shift states of h (bf16) and a 40 × 64 × 64 fp32 wkv state per layer', () => {
    const e = run({ engine: 'transformers', prompt: 8192, batch: 3 });
    expect(termOf(e, 'kv-cache')).toBe(0);
    expect(termOf(e, 'recurrent-state')).toBe(3 * 32 * (2 * 2560 * 2 + 40 * 64 * 64 * 4));
    expect(termOf(run({ engine: 'transformers', prompt: 512, batch: 3 }), 'recurrent-state')).toBe(termOf(e, 'recurrent-state'));
  });

  it('says how the model loads (no transformers class)', () => {
    expect(run({ engine: 'transformers', prompt: 512 }).notes.some((n) => n.code === 'model.rwkv7-loader')).toBe(true);
    expect(run({ model: 'meta-llama/Llama-2-7b-hf', prompt: 512 }).notes.some((n) => n.code === 'model.rwkv7-loader')).toBe(false);
  });

  it('vLLM and llama.cpp are refused with a message on the engine', () => {
    for (const engine of ['vllm', 'llama.cpp'] as const) {
      const r = estimate({ ...defaultScenario(), mode: 'inference', model: ID, engine, weights: engine === 'vllm' ? 'bf16' : 'gguf-q4_k_m', kv: 'fp16' });
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.errors.find((x) => x.key === 'engine')?.code).toBe(engine === 'vllm' ? 'vllm-rwkv7' : 'llamacpp-hybrid');
    }
  });

  it('LoRA: k_proj / v_proj / o_proj match their targets, r_proj matches no q_proj', () => {
    expect(loraTrainableParams(preset(), 8, ['q'])).toBe(0);
    expect(loraTrainableParams(preset(), 8, ['k', 'o'])).toBe(2 * 32 * 8 * (2560 + 2560));
  });
});

describe('RWKV-7 config reading', () => {
  const base = { model_type: 'rwkv7', hidden_size: 2048, num_hidden_layers: 24, vocab_size: 65536 };

  it('rwkv7-1.5B-world shape (ranks 96 / 96 / 64 / 256, f 8192): 1.53 B, the card’s 1.5B', () => {
    const r = parseHfConfig({ ...base, head_dim: 64, intermediate_size: 8192, decay_low_rank_dim: 96, a_low_rank_dim: 96, v_low_rank_dim: 64, gate_low_rank_dim: 256 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    const l = layer(2048, 8192, 96, 96, 64, 256);
    expect(countParams(r.value).total).toBe(l.first + 23 * l.rest + 2 * 65536 * 2048 + 2 * 2048);
    expect(countParams(r.value).total).toBe(1_527_404_544);
  });

  it('RWKV7Config defaults: head_dim 64, ranks 64 / 64 / 16 / 128; f = int(h·hidden_ratio) rounded up to 32', () => {
    const r = parseHfConfig({ ...base, hidden_size: 1088, hidden_ratio: 3.3 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    // 1088 · 3.3 = 3590.4 → 3590 → 32 · ⌈112.2⌉ = 3616
    expect([r.value.heads, r.value.headDim, r.value.ffn]).toEqual([17, 64, 3616]);
    expect(r.value.hybrid?.lowRank).toEqual({ w: 64, a: 64, v: 16, g: 128 });
  });

  it('null ranks are derived as RWKV7Attention does (h 2048: decay 2.5·√h → 128, v 1.7·√h → 64, gate 5·√h → 224)', () => {
    const r = parseHfConfig({ ...base, decay_low_rank_dim: null, a_low_rank_dim: null, v_low_rank_dim: null, gate_low_rank_dim: null });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    // √2048 = 45.25: 113.1 / 32 → 4 · 32; 76.9 / 32 → 2 · 32; 226.3 / 32 → 7 · 32
    expect(r.value.hybrid?.lowRank).toEqual({ w: 128, a: 128, v: 64, g: 224 });
  });

  it('a config without hidden_size names that field alone (no attention-head field is asked for)', () => {
    const r = parseHfConfig({ model_type: 'rwkv7', num_hidden_layers: 24, vocab_size: 65536 });
    expect(r.ok ? [] : r.errors.map((e) => e.key)).toEqual(['hidden_size']);
  });

  it('softmax-attention layers (attn) and uneven value_dim are refused by name, not miscounted', () => {
    const attn = parseHfConfig({ ...base, attn: { layers: [3], num_heads: 16 } });
    expect(attn.ok ? null : attn.errors[0]?.key).toBe('attn');
    const vd = parseHfConfig({ ...base, num_hidden_layers: 2, value_dim: [2048, 4096] });
    expect(vd.ok ? null : vd.errors[0]?.code).toBe('unmodelled-layers');
  });
});
