/**
 * The remote-code files' prompt passes laid out tensor by tensor (src/core/inference/remote-prefill.ts),
 * with sizes worked out by hand from the Hub's modeling files: ChatGLM3-6B (h 4,096, 32 heads, 2 K/V
 * groups of 128, f 13,696, V 65,024), Baichuan2-13B (h 5,120, 40 heads, f 13,696, V 125,696, NormHead)
 * and Qwen-7B (h 4,096, 32 heads, f 11,008, V 151,936), all in bf16.
 */
import { describe, expect, it } from 'vitest';
import {
  baichuanAlibiEpilogue,
  baichuanAlibiLayer,
  baichuanAlibiPrologue,
  chatglm2Epilogue,
  chatglm2Layer,
  chatglm2Prologue,
  ownPrefillShape,
  qwenEpilogue,
  qwenLayer,
  qwenPrologue,
} from '../../../src/core/inference/remote-prefill';
import { BAICHUAN2_13B_CONFIG, CHATGLM3_6B_CONFIG, QWEN_7B_CONFIG, archOf } from '../model/remote-configs';
import { simulate, sizes } from './prefill-sim';

const CHATGLM = { prologue: chatglm2Prologue, layer: chatglm2Layer, epilogue: chatglm2Epilogue };
const BAICHUAN = { prologue: baichuanAlibiPrologue, layer: baichuanAlibiLayer, epilogue: baichuanAlibiEpilogue };
const QWEN = { prologue: qwenPrologue, layer: qwenLayer, epilogue: qwenEpilogue };
const cached = (left: Map<string, number>) => [...left.keys()].filter((k) => left.get(k) !== undefined).sort();

describe('ChatGLM3-6B (modeling_chatglm.py GLMBlock, SelfAttention, MLP)', () => {
  const x = ownPrefillShape(archOf(CHATGLM3_6B_CONFIG), 'chatglm2', 1, 8192, 2)!;
  const H = 8192 * 4096 * 2; // 67,108,864
  const F = 8192 * 13696 * 2; // 224,395,264
  it('peaks at the last layer’s swiglu: five s·h rows, the 2f projection, silu and the product, the rotary table and every layer’s cache entries', () => {
    // rows: the embeddings, the block's input, attention_output, the residual sum, the second norm;
    // rope [s, 1, 32, 2] bf16 = 1,048,576; each layer keeps its rotated K (8192 × 2 × 128 × 2 = 4,194,304)
    // and the query_key_value output its V is a view of (8192 × 4,608 × 2 = 75,497,472)
    const { peak, left } = simulate(CHATGLM, x, 2);
    expect(peak).toBe(5 * H + 4 * F + 1_048_576 + 2 * (4_194_304 + 75_497_472)); // 1,393,557,504
    expect(cached(left)).toEqual(['kc0', 'kc1', 'vc0', 'vc1']);
  });
  it('copies K and V out to all 32 heads (s·a·d·2 each) and rotates half of each head (stack s·a·d/2)', () => {
    const ops = sizes(chatglm2Layer(x, 1));
    expect([ops.kx, ops.vx]).toEqual([H, H]);
    expect(ops['ropeq-st']).toBe(8192 * 32 * 64 * 2);
  });
  it('b = 1 transposes [b, s, h] to [s, b, h] without a copy; b = 2 copies the embeddings and the rotary table', () => {
    expect(Object.keys(sizes(chatglm2Prologue(x)))).toEqual(['embeds', 'rope']);
    const two = ownPrefillShape(archOf(CHATGLM3_6B_CONFIG), 'chatglm2', 2, 8192, 2)!;
    expect(Object.keys(sizes(chatglm2Prologue(two)))).toEqual(['embeds-bsh', 'embeds', 'rope-bsh', 'rope']);
  });
});

describe('Baichuan2-13B (modeling_baichuan.py BaichuanModel, BaichuanAttention, NormHead)', () => {
  const arch = archOf(BAICHUAN2_13B_CONFIG);
  it('b = 4 × 1,024: the prompt pass peaks at NormHead’s normalised copy beside the final norm and the cache', () => {
    const x = ownPrefillShape(arch, 'baichuan-alibi', 4, 1024, 2)!;
    const H = 4 * 1024 * 5120 * 2; // 41,943,040
    const { peak, left } = simulate(BAICHUAN, x, 2);
    // two layers' W_pack outputs (3H each, K and V are views) + the final norm H + 125,696 × 5,120 × 2
    expect(peak).toBe(7 * H + 1_287_127_040); // 1,580,728,320
    expect(cached(left)).toEqual(['kc0', 'kc1']);
  });
  it('the mask: [b, a, s, s] plus its two [b, 1, s, s] parents held; with b > 1 matmul copies q, k and v', () => {
    const x = ownPrefillShape(arch, 'baichuan-alibi', 4, 1024, 2)!;
    const pro = sizes(baichuanAlibiPrologue(x));
    expect([pro.mask, pro.em16, pro.inv]).toEqual([4 * 40 * 1024 * 1024 * 2, 4 * 1024 * 1024 * 2, 4 * 1024 * 1024 * 2]);
    const H = 4 * 1024 * 5120 * 2;
    expect(sizes(baichuanAlibiLayer(x, 1))).toMatchObject({ qb: H, kb: H, vb: H, sc: 4 * 40 * 1024 * 1024 * 2 });
    const one = sizes(baichuanAlibiLayer(ownPrefillShape(arch, 'baichuan-alibi', 1, 1024, 2)!, 1));
    expect(['qb', 'kb', 'vb'].filter((k) => k in one)).toEqual([]);
  });
});

describe('Qwen-7B (modeling_qwen.py QWenBlock, QWenAttention under SDPA, QWenMLP)', () => {
  const x = ownPrefillShape(archOf(QWEN_7B_CONFIG), 'qwen', 1, 2048, 2)!;
  const H = 2048 * 4096 * 2; // 16,777,216
  it('peaks at the logits of every position beside ln_f’s output and the cache', () => {
    const { peak, left } = simulate(QWEN, x, 2);
    // each layer: the rotated K (H) and c_attn's output (3H); the final norm H; 2,048 × 151,936 × 2
    expect(peak).toBe(2 * 4 * H + H + 2048 * 151_936 * 2); // 773,849,088
    expect(cached(left)).toEqual(['kc0', 'kc1', 'vc0', 'vc1']);
  });
  it('rotates in fp32 (s·h·4 each step) and holds a1, a2, silu and their product in the MLP', () => {
    const ops = sizes(qwenLayer(x, 1));
    expect([ops['ropeq-tf'], ops['ropeq-sum'], ops.qe]).toEqual([2 * H, 2 * H, H]);
    expect([ops.a1, ops.a2, ops.act, ops.prod]).toEqual(Array(4).fill(2048 * 11008 * 2));
    // the bool causal mask k² and the additive [b, 1, s, k] mask in bf16
    expect([ops.causal, ops.am]).toEqual([2048 * 2048, 2048 * 2048 * 2]);
  });
  it('with its own 8-bit cache (eager _attn): peaks at the last layer’s softmax, c_attn’s output held, K dequantized, two score tensors', () => {
    const kv8 = ownPrefillShape(archOf(QWEN_7B_CONFIG), 'qwen-kv8', 1, 2048, 2)!;
    const S = 32 * 2048 * 2048 * 2; // 268,435,456
    // each cache entry: a uint8 per element, a bf16 scale and zero point per token and head: 2048 × 4096 × (1 + 4/128)
    const entry = 2048 * 4096 * (1 + 4 / 128); // 8,650,752
    const { peak, left } = simulate(QWEN, kv8, 2);
    // the embeddings, the block's input, ln_1's output, c_attn's 3H, the rotated q, the dequantized K;
    // the bool tril mask s²; two layers' K and V entries; the masked scores and the softmax
    expect(peak).toBe(8 * H + 2048 * 2048 + 4 * entry + 2 * S); // 709,885,952
    expect(cached(left)).toEqual(['kc0', 'kc1', 'vc0', 'vc1']);
    expect(sizes(qwenLayer(kv8, 1))).toMatchObject({ kc: entry, vc: entry, 'kc-qu8': 2048 * 4096, kd: H, vd: H });
  });
});
