/**
 * Gemma-2's prompt pass tensor by tensor (src/core/inference/hf-prefill-gemma2.ts), sizes computed
 * by hand from google/gemma-2-2b's config: hidden 2304, 8 heads, 4 KV heads, head_dim 256, ffn 9216,
 * vocab 256,000, 26 layers, sliding_window 4096 on the even layers; bf16 (e = 2), batch 1.
 * At a 16-token prompt:
 *   hidden states H = 16·2304·2 = 73,728 B; Gemma2RMSNorm's fp32 tensors 16·2304·4 = 147,456 B;
 *   q = 16·8·256·2 = 65,536 B; k, v = 16·4·256·2 = 32,768 B; MLP tensors F = 16·9216·2 = 294,912 B;
 *   rotary cos / sin 16·256·2 = 8,192 B; SDPA's flash log-sum-exp 8·16·4 = 512 B;
 *   logits of the last position 256,000·2 = 512,000 B, their fp32 copy 1,024,000 B.
 */
import { describe, expect, it } from 'vitest';
import { simulate, sizes, type PrefillParts } from './prefill-sim';
import { gemma2Epilogue, gemma2Layer, gemma2Prologue } from '../../../src/core/inference/hf-prefill-gemma2';
import { prefillShape } from '../../../src/core/inference/hf-prefill-shape';
import { layerKvBytes } from '../../../src/core/inference/hf-prefill';
import { estimate } from '../../../src/core/estimate';
import { findPreset } from '../../../src/core/model/presets';
import { GENERATE_ROWS, generateScenario } from '../../../src/validation/measured-generate';

const GEMMA2_2B = findPreset('google/gemma-2-2b')!.arch;

const PARTS: PrefillParts = { prologue: gemma2Prologue, layer: gemma2Layer, epilogue: gemma2Epilogue };

describe('HF prefill sequence, Gemma-2-2b (SDPA, bf16)', () => {
  const x = prefillShape(GEMMA2_2B, 1, 16, 2)!;

  it('lays out the Gemma2 forward, every layer without a mask below the window', () => {
    expect(x.forward).toBe('gemma2');
    expect([x.window, x.slideEvery, x.maskKv]).toEqual([4096, 2, 0]);
  });

  it('sizes every tensor of a layer from the config', () => {
    const layer = sizes(gemma2Layer(x, 1));
    // four Gemma2RMSNorms: x.float(), pow(2), x·rsqrt, ·(1 + w) in fp32, then the bf16 result
    for (const p of ['norm1-', 'norm2-', 'norm3-', 'norm4-']) expect([layer[`${p}x32`], layer[`${p}sq`], layer[`${p}y32`], layer[`${p}w32`]]).toEqual([147456, 147456, 147456, 147456]);
    expect([layer['n1'], layer['p1'], layer['n2'], layer['p2']]).toEqual([73728, 73728, 73728, 73728]);
    expect([layer['q'], layer['k'], layer['v'], layer['qe'], layer['ke'], layer['kc'], layer['vc']]).toEqual([65536, 32768, 32768, 65536, 32768, 32768, 32768]);
    // no mask: SDPA's flash kernel with enable_gqa, its output and log-sum-exp; no repeated K / V
    expect([layer['o'], layer['lse'], layer['a']]).toEqual([65536, 512, 73728]);
    expect(layer['kr']).toBeUndefined();
    expect([layer['gate'], layer['act'], layer['up'], layer['prod'], layer['m']]).toEqual([294912, 294912, 294912, 294912, 73728]);
    expect([layer['r1'], layer['r2']]).toEqual([73728, 73728]);
    // the embedding lookup, then its product with sqrt(hidden); cos and sin
    const pro = sizes(gemma2Prologue(x));
    expect([pro['lookup'], pro['embeds'], pro['cos'], pro['sin']]).toEqual([73728, 73728, 8192, 8192]);
    // final norm; the logits, / cap, tanh, · cap (each b·V·2); the fp32 copy
    const epi = sizes(gemma2Epilogue(x));
    expect([epi['final'], epi['logits'], epi['cap-div'], epi['cap-tanh'], epi['cap-mul'], epi['logits32']]).toEqual([73728, 512000, 512000, 512000, 512000, 1024000]);
  });

  it('frees everything but the cache; at 16 tokens the peak is the fp32 logits beside the soft-capped ones', () => {
    const { peak, left } = simulate(PARTS, x, 26);
    expect(left.size).toBe(2 * 26);
    // cap-mul (512,000) + logits32 (1,024,000) + 26 layers' K and V (26·2·32,768)
    expect(peak).toBe(512000 + 1024000 + 26 * 2 * 32768);
  });

  it('a prompt of the window: the bool mask, and in the even layers only K and V repeated to 8 heads and the additive mask', () => {
    const s = 4096;
    const w = prefillShape(GEMMA2_2B, 1, s, 2)!;
    expect(w.maskKv).toBe(s);
    expect(sizes(gemma2Prologue(w))['mask']).toBe(s * s); // 16 MiB of bool
    const sliding = sizes(gemma2Layer(w, 0));
    // repeat_kv: 4096·8·256·2 = 16 MiB each; convert_boolean_attn_mask: 4096·4096·2 = 32 MiB
    expect([sliding['kr'], sliding['vr'], sliding['additive']]).toEqual([16777216, 16777216, 33554432]);
    expect(sliding['lse']).toBeUndefined();
    const full = sizes(gemma2Layer(w, 1));
    expect([full['kr'], full['additive'], full['lse']]).toEqual([undefined, undefined, 8 * s * 4]);
  });

  it('decode: a sliding layer cats its window (4,096 tokens), a full layer every token', () => {
    const w = prefillShape(GEMMA2_2B, 1, 32768, 2)!;
    // one layer's K: 4 KV heads · 256 · 2 B = 2,048 B per token
    expect(layerKvBytes(w, 0, 32769)).toBe(4096 * 2048);
    expect(layerKvBytes(w, 1, 32769)).toBe(32769 * 2048);
    expect(layerKvBytes(w, 2, 100)).toBe(100 * 2048);
  });
});

describe('closed form: the masked call of the last sliding layer comes before the last layer caches K and V', () => {
  it('Gemma-2-2b, 32,768-token prompt (our run g008): the activations term is the masked set less one layer of K and V', () => {
    const e = estimate(generateScenario(GENERATE_ROWS.find((r) => r.id === 'g008')!));
    if (!e.ok) throw new Error('rejected');
    const s = 32768;
    const hidden = 3 * s * 2304 * 2; // inputs_embeds, the layer input, its normed copy
    const rope = 2 * s * 256 * 2; // cos, sin
    const masks = s * s + s * s * 2; // the bool mask and SDPA's additive copy
    const qOut = 2 * s * 8 * 256 * 2; // query and output
    const repeated = 2 * s * 8 * 256 * 2; // K and V repeated from 4 to 8 heads
    const layer25 = s * 2 * 4 * 256 * 2; // layer 25 (full attention) has no K and V yet at layer 24's call
    expect(e.value.terms.find((t) => t.id === 'activations')!.bytes).toBe(hidden + rope + masks + qOut + repeated - layer25);
    expect(hidden + rope + masks + qOut + repeated - layer25).toBe(4_110_417_920);
  });
});
