/**
 * The prompt pass of HF transformers `generate` tensor by tensor (src/core/inference/hf-prefill.ts),
 * checked on a tiny shape computed by hand from transformers 5.x models/llama/modeling_llama.py:
 * b = 1, s = 8, h = 64, a = 4 heads, g = 2 KV heads, d = 16, f = 128, V = 100, bf16 (e = 2).
 *   hidden states H = 8·64·2 = 1,024 B; fp32 copies in LlamaRMSNorm 8·64·4 = 2,048 B;
 *   q = 8·4·16·2 = 1,024 B; k, v = 8·2·16·2 = 512 B; MLP tensors F = 8·128·2 = 2,048 B;
 *   LlamaRotaryEmbedding: fp32 freqs 8·8·4 = 256 B, emb / cos / sin 8·16·4 = 512 B, bf16 cos / sin 256 B;
 *   SDPA's flash log-sum-exp 4·8·4 = 128 B; logits of the last position 100·2 = 200 B, fp32 copy 400 B.
 */
import { describe, expect, it } from 'vitest';
import { simulate, sizes, type PrefillParts } from './prefill-sim';
import { prefillEpilogue, prefillLayer, prefillPrologue } from '../../../src/core/inference/hf-prefill';
import { prefillShape } from '../../../src/core/inference/hf-prefill-shape';
import { estimate } from '../../../src/core/estimate';
import { GENERATE_ROWS, generateScenario } from '../../../src/validation/measured-generate';
import { LLAMA_STYLE } from '../../../src/core/model/llama-style';
import { findPreset } from '../../../src/core/model/presets';
import type { ModelArch, Scenario } from '../../../src/core/types';

const tiny: ModelArch = {
  family: 'llama',
  hidden: 64,
  layers: 2,
  heads: 4,
  kvHeads: 2,
  headDim: 16,
  ffn: 128,
  vocab: 100,
  ...LLAMA_STYLE,
};

const PARTS: PrefillParts = { prologue: prefillPrologue, layer: prefillLayer, epilogue: prefillEpilogue };

describe('HF prefill sequence (Llama-style decoder, SDPA, bf16)', () => {
  const x = prefillShape(tiny, 1, 8, 2)!;

  it('sizes every tensor of a layer from its shape', () => {
    const layer = sizes(prefillLayer(x, 1));
    expect(layer['norm1-x32']).toBe(2048);
    expect(layer['n1']).toBe(1024);
    expect([layer['q'], layer['k'], layer['v']]).toEqual([1024, 512, 512]);
    // rotate_half: -x2 is half of q, the cat all of it
    expect([layer['ropeq-xc'], layer['ropeq-neg'], layer['ropeq-rot'], layer['qe']]).toEqual([1024, 512, 1024, 1024]);
    expect([layer['ke'], layer['kc'], layer['vc']]).toEqual([512, 512, 512]);
    expect([layer['o'], layer['lse'], layer['a']]).toEqual([1024, 128, 1024]);
    expect([layer['gate'], layer['act'], layer['up'], layer['prod'], layer['m']]).toEqual([2048, 2048, 2048, 2048, 1024]);
    expect(layer['kr']).toBeUndefined(); // no mask: SDPA's enable_gqa reads the grouped K and V
    const pro = sizes(prefillPrologue(x));
    expect([pro['embeds'], pro['freqs'], pro['emb'], pro['cos32'], pro['cos'], pro['sin']]).toEqual([1024, 256, 512, 512, 256, 256]);
    const epi = sizes(prefillEpilogue(x));
    expect([epi['final'], epi['logits'], epi['logits32']]).toEqual([1024, 200, 400]);
  });

  it('frees everything but the cache; the peak is the last layer at its MLP product', () => {
    const { peak, left } = simulate(PARTS, x, 2);
    expect([...left.keys()].sort()).toEqual(['kc0', 'kc1', 'vc0', 'vc1']);
    // embeds, the layer input, the residual, the normed MLP input (4 × 1,024), act, up and their
    // product (3 × 2,048), cos and sin (2 × 256), both layers' K and V (4 × 512)
    expect(peak).toBe(4 * 1024 + 3 * 2048 + 2 * 256 + 4 * 512);
  });

  it("eager: the probabilities stay bound to the decoder layer's `_` through its MLP, freed when the layer returns", () => {
    const ops = prefillLayer(prefillShape(tiny, 1, 8, 2, { fp16: false })!, 1);
    const at = (op: string, id: string) => ops.findIndex((o) => o.op === op && o.id === id);
    expect(at('free', 'lo')).toBeGreaterThan(at('alloc', 'prod'));
    expect(at('free', 'lo')).toBeGreaterThan(at('free', 'r1'));
    // 4 heads × 8² bf16 probabilities: 512 B
    const probs = ops.find((o) => o.op === 'rename' && o.to === 'lo');
    expect(probs && sizes(ops)[probs.id]).toBe(512);
  });

  it("Phi-3: one qkv output held through the attention, the rotary cat's copy, one gate_up output held through the MLP", () => {
    const phi = prefillShape({ ...tiny, family: 'phi3' }, 1, 8, 2)!;
    expect(phi.forward).toBe('phi3');
    const layer = sizes(prefillLayer(phi, 1));
    // 8 rows × (4 + 2·2) heads × 16 × 2 B; the rotated q before and after `torch.cat([rotated, x_pass])`
    expect([layer['qkv'], layer['qe-sum'], layer['qe'], layer['ke']]).toEqual([2048, 1024, 1024, 512]);
    expect([layer['q'], layer['k'], layer['v']]).toEqual([undefined, undefined, undefined]);
    expect([layer['gate_up'], layer['act'], layer['prod'], layer['gate']]).toEqual([4096, 2048, 2048, undefined]);
    // the MLP's moment: gate_up, act and their product (4 × 2,048) beside embeds, input, residual, normed input, cos / sin and the cache
    const { peak, left } = simulate(PARTS, phi, 2);
    expect([...left.keys()].sort()).toEqual(['kc0', 'kc1', 'vc0', 'vc1']);
    expect(peak).toBe(4 * 1024 + 4 * 2048 + 2 * 256 + 4 * 512);
  });

  it('Qwen3: q_norm and k_norm over head_dim add their fp32 copies', () => {
    const q3 = sizes(prefillLayer(prefillShape({ ...tiny, family: 'qwen3', qkNorm: true }, 1, 8, 2)!, 1));
    expect([q3['qnorm-x32'], q3['knorm-x32']]).toEqual([8 * 4 * 16 * 4, 8 * 2 * 16 * 4]);
  });

  it('a sliding window no longer than the prompt: the bool mask, K and V repeated to all heads, the additive mask', () => {
    const m = prefillShape({ ...tiny, family: 'mistral', slidingWindow: { window: 4, layers: 2 } }, 1, 8, 2)!;
    expect(m.maskKv).toBe(8);
    const pro = sizes(prefillPrologue(m));
    // masking_utils.py and_masks: window overlay, running result, causal (8·8 B each), padding-ANDed result
    expect([pro['m-window'], pro['m-r1'], pro['m-causal'], pro['m-r2'], pro['mask']]).toEqual([64, 64, 64, 64, 64]);
    const layer = sizes(prefillLayer(m, 1));
    expect([layer['kr'], layer['vr'], layer['additive']]).toEqual([8 * 4 * 16 * 2, 8 * 4 * 16 * 2, 8 * 8 * 2]);
    expect(layer['lse']).toBeUndefined();
  });

  it('covers only the forward it was read from', () => {
    expect(prefillShape(tiny, 1, 8, 4)).toBeNull(); // fp32: LlamaRMSNorm's casts are no-ops there
    expect(prefillShape({ ...tiny, family: 'gemma' }, 1, 8, 2)).toBeNull(); // Gemma-1: GemmaModel's forward is not laid out
    expect(prefillShape({ ...tiny, gatedMlp: false }, 1, 8, 2)).toBeNull();
  });
});

describe('closed form: HF holds the rotary cos and sin through the layers', () => {
  it('Llama-3.1-8B, 32,768-token prompt: 4 hidden rows + 3 MLP tensors + cos and sin of b·s·d', () => {
    // our H200 run g014 (validation/fixtures/measured-generate.json): bf16, SDPA, batch 1, 64 new tokens
    const s: Scenario = generateScenario(GENERATE_ROWS.find((r) => r.id === 'g014')!);
    const arch = findPreset(s.model)!.arch;
    expect([arch.hidden, arch.ffn, arch.headDim]).toEqual([4096, 14336, 128]);
    const e = estimate(s);
    if (!e.ok) throw new Error('rejected');
    const activations = e.value.terms.find((t) => t.id === 'activations')!.bytes;
    // (4·32,768·4,096 + 3·32,768·14,336 + 2·32,768·128)·2 B
    expect(activations).toBe(3_909_091_328);
  });
});
