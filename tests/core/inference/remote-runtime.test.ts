/**
 * The remote-code chat models' own runtime (src/core/inference/remote-runtime.ts). Every expected
 * value is worked out by hand from the modeling file the module cites, for the configs the Hub
 * repositories publish.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario';
import { BAICHUAN2_13B_CONFIG, CHATGLM3_6B_CONFIG, CHATGLM_6B_CONFIG, INTERNLM2_7B_CONFIG, INTERNLM_7B_CONFIG, QWEN_7B_CONFIG, archOf } from '../model/remote-configs';
import { qwenRotaryLength, remoteRuntime, remoteTransient } from '../../../src/core/inference/remote-runtime';
import { CUBLAS_WORKSPACE_BYTES } from '../../../src/core/runtime';
import type { Estimate, Scenario } from '../../../src/core/types';

const QWEN_7B = archOf(QWEN_7B_CONFIG);
const CHATGLM3_6B = archOf(CHATGLM3_6B_CONFIG);
const CHATGLM_6B = archOf(CHATGLM_6B_CONFIG);
const BAICHUAN2_13B = archOf(BAICHUAN2_13B_CONFIG);
const INTERNLM2_7B = archOf(INTERNLM2_7B_CONFIG);

function run(p: Partial<Scenario>): Estimate {
  const r = estimate({ ...defaultScenario(), mode: 'inference', engine: 'transformers', model: 'custom', gpu: '', weights: 'bf16', kv: 'bf16', attn: 'sdpa', batch: 1, ...p });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const termOf = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;

describe('Qwen-1: logn_tensor, the fp32 rotary table, whole-prompt logits', () => {
  it('32 layers × 32,767 × 2 B logn + fp32 cos/sin of 4,096 × 128; the causal mask is made per layer, not registered', () => {
    const e = run({ arch: QWEN_7B, prompt: 2048, gen: 256 });
    // 2,097,088 + 2·4·128·4096 = 4,194,304 (built at 2 × 2048 rows; 2,304 tokens never pass it)
    expect(termOf(e, 'model-buffers')).toBe(6_291_392);
    // lm_head over all 2,048 positions in bf16, no upcast
    expect(termOf(e, 'logits')).toBe(2048 * 151_936 * 2);
  });

  it('attn=eager runs its SDPA branch: QWenAttention.forward takes `_attn` only on torch < 2 or with its 8-bit cache', () => {
    expect(remoteRuntime(QWEN_7B, 'eager', 'bf16')).toMatchObject({ attn: 'sdpa-masked', cacheQuant: false });
    const eager = run({ arch: QWEN_7B, attn: 'eager', prompt: 2048, gen: 64 });
    expect(eager.allocatedBytes).toBe(run({ arch: QWEN_7B, prompt: 2048, gen: 64 }).allocatedBytes);
    expect(eager.notes.find((n) => n.code === 'inference.remote-attn')?.params).toMatchObject({ runs: 'sdpa', attn: 'eager' });
  });

  it('with flash-attn (attn=flash) the same buffers', () => {
    expect(termOf(run({ arch: QWEN_7B, attn: 'flash', prompt: 2048, gen: 256 }), 'model-buffers')).toBe(2_097_088 + 4_194_304);
  });

  it('the rotary table doubles past its length: 4,096 rows, 8,194 at token 4,097, 16,390 at token 8,195', () => {
    expect(qwenRotaryLength(2048, 4096)).toBe(4096);
    expect(qwenRotaryLength(2048, 10240)).toBe(16390);
    expect(qwenRotaryLength(4, 8)).toBe(16);
  });
});

describe('the files keep K and V as tuples grown by torch.cat, generate holding the last step’s tuple', () => {
  // Qwen-7B: K + V per token and layer 2 × 4096 × 2 = 16,384 B; 32 layers: 524,288 B per token
  it("Qwen-7B: the prompt's entries hold c_attn's [b, s, 3h] output (V a view, K rotated): 2h·e more per token and layer", () => {
    const e = run({ arch: QWEN_7B, prompt: 2048, gen: 0 });
    // 32 layers × 2,048 tokens × 2 × 4096 × 2 B = 1,073,741,824, as much again as the cache itself
    expect(termOf(e, 'kv-held')).toBe(1_073_741_824);
  });
  it('Qwen-7B, 2,048 + 64: the first decode step holds the prompt tuple with its views beside the new 2,049-token cache', () => {
    const e = run({ arch: QWEN_7B, prompt: 2048, gen: 64 });
    // old: 2,048 × 524,288 + views 1,073,741,824 = 2,147,483,648; new: 2,049 × 524,288 = 1,074,266,112;
    // the last step (2,111 + 2,112 tokens) holds less. Shown beside the cache bar (2,112 tokens,
    // 1,107,296,256): 2,147,483,648 + 1,074,266,112 − 1,107,296,256 = 2,114,453,504
    expect(termOf(e, 'kv-held')).toBe(2_114_453_504);
    // our H200 run r001 (src/validation/fixtures/measured-remote.json): decode peak 18,708,387,328 B
    expect(Math.abs(e.allocatedBytes / 18_708_387_328 - 1)).toBeLessThan(0.005);
  });
  it('ChatGLM3-6B: V a view of query_key_value [s, b, (32 + 2·2)·128]: (a + g)·d·e = 8,704 B per token and layer', () => {
    // 28 layers × 2,048 × 8,704 = 499,122,176: nine and a half times the 2-group cache's 58,720,256
    expect(termOf(run({ arch: CHATGLM3_6B, prompt: 2048, gen: 0 }), 'kv-held')).toBe(499_122_176);
  });
  it('Baichuan2-13B (ALiBi): K and V both views of W_pack [3, b, s, h]: h·e = 10,240 B per token and layer', () => {
    // 40 layers × 2,048 × 10,240 = 838,860,800
    expect(termOf(run({ arch: BAICHUAN2_13B, prompt: 2048, gen: 0 }), 'kv-held')).toBe(838_860_800);
  });
  it("Qwen-1's 8-bit cache is stored in new tensors: no views, only the old tuple at decode", () => {
    // 8,448 B per token and layer × 32: the last step's old tuple, 3,071 tokens = 830,210,048 B
    expect(termOf(run({ arch: QWEN_7B, kv: 'int8', prompt: 2048, gen: 1024 }), 'kv-held')).toBe(3071 * 8448 * 32);
    // 64 new tokens: the prompt pass's logits make the peak (our run r005: 16,714,675,200 B then,
    // 16,681,826,816 B decoding), where the 8-bit entries hold no views
    expect(termOf(run({ arch: QWEN_7B, kv: 'int8', prompt: 2048, gen: 64 }), 'kv-held')).toBe(0);
  });
  it('InternLM2-7B: V a view of wqkv [b, s, (32 + 2·8)·128], K rotated: (a + g)·d·e = 10,240 B per token and layer', () => {
    // 32 layers × 1,024 × 10,240 = 335,544,320, shown at the prompt pass (its fp32 logits make it the peak)
    expect(termOf(run({ arch: INTERNLM2_7B, prompt: 1024, gen: 0 }), 'kv-held')).toBe(335_544_320);
    expect(termOf(run({ arch: INTERNLM2_7B, prompt: 1024, gen: 64 }), 'kv-held')).toBe(335_544_320);
  });
  it('InternLM v1 caches the k_proj / v_proj outputs before RoPE: no views, the last step’s old tuple at decode', () => {
    // internlm-chat-7b, multi-head: 2 × 4096 × 2 × 32 = 524,288 B per token; 1,087 tokens = 569,901,056
    const v1 = archOf(INTERNLM_7B_CONFIG);
    expect(termOf(run({ arch: v1, prompt: 1024, gen: 64 }), 'kv-held')).toBe(1087 * 524_288);
  });
  it('InternLM v1 rotates its whole cached K in every forward: at a decode step three K-sized tensors and the gathered cos and sin', () => {
    const v1 = archOf(INTERNLM_7B_CONFIG);
    // 1 new token against 4,096 keys: K = 4,096 × 32 × 128 × 2 = 33,554,432; cos + sin 2 × 4,096 × 128 × 2 = 2,097,152;
    // 3 hidden rows 3 × 4096 × 2 = 24,576; the held [1, 1, 1, 4096] mask 8,192
    const at = remoteTransient(remoteRuntime(v1, 'eager', 'bf16')!, v1, 1, 4096, 1, 2, 1, 0, 2, false);
    expect(at).toMatchObject({ kind: 'attention-scores', bytes: 3 * 33_554_432 + 2_097_152 + 24_576 + 8_192 });
  });
});

describe("Qwen-1's own 8-bit cache (use_cache_quantization, kv=int8)", () => {
  it('uint8 K and V with a scale and a zero point per token and head: 32 layers × 2 × (4096 + 2 × 32 × 2) B per token', () => {
    const e = run({ arch: QWEN_7B, kv: 'int8', prompt: 2048, gen: 8192 });
    // 8,448 B per layer and token × 32 layers × 10,240 tokens (transformers' QuantizedCache would keep a bf16 residual)
    expect(termOf(e, 'kv-cache')).toBe(2_768_240_640);
    expect(e.notes.some((n) => n.code === 'inference.remote-attn')).toBe(true);
  });

  it("a decode step dequantizes the layer's K and V into bf16: 2 × 32 × 10,240 × 128 × 2 B on the eager path", () => {
    const rt = remoteRuntime(QWEN_7B, 'sdpa', 'int8')!;
    expect(rt).toMatchObject({ attn: 'eager', cacheQuant: true });
    const t = remoteTransient(rt, QWEN_7B, 1, 10240, 1, 2, 1, 1, 2, false);
    // at the product: 3 hidden rows 24,576 + c_attn's output 3 × 4096 × 2 = 24,576 + the rotated q 8,192
    // + K and V dequantized 167,772,160 + one score row 32 × 10,240 × 2 = 655,360 + the output 8,192
    expect(t).toMatchObject({ kind: 'attention-scores', bytes: 168_493_056 });
  });
});

describe('ChatGLM2 / ChatGLM3: SDPA after copying K and V to all heads, last-position logits', () => {
  it('a decode step at 8,192 keys holds the expanded K and V: 2 × 32 × 8192 × 128 × 2 B', () => {
    const rt = remoteRuntime(CHATGLM3_6B, 'sdpa', 'bf16')!;
    const t = remoteTransient(rt, CHATGLM3_6B, 1, 8192, 1, 2, 1, 1, 2, false);
    // 3 hidden rows 24,576 + expanded K/V 134,217,728 + q and output 16,384
    expect(t).toMatchObject({ kind: 'attention-scores', bytes: 134_258_688 });
  });

  it('whole estimate: weights + workspace + full cache + decode transient + the old cache tuple', () => {
    const e = run({ arch: CHATGLM3_6B, prompt: 16, gen: 8176 });
    // weights 6,243,584,000 × 2; cache 28 × (2 × 2 × 128 × 2 B) × 8,192 = 234,881,024; decode 134,258,688;
    // the last step's old tuple, 8,191 tokens × 28,672 B = 234,852,352, held until the forward returns
    expect(e.allocatedBytes).toBe(12_487_168_000 + CUBLAS_WORKSPACE_BYTES + 234_881_024 + 134_258_688 + 234_852_352);
    expect(termOf(e, 'kv-held')).toBe(234_852_352);
    expect(termOf(e, 'logits')).toBe(65024 * 2);
    expect(e.notes.some((n) => n.code === 'inference.remote-attn')).toBe(false);
  });

  it('attn=eager does not change what the file runs, and says so', () => {
    const e = run({ arch: CHATGLM3_6B, attn: 'eager', prompt: 16, gen: 8176 });
    expect(e.allocatedBytes).toBe(run({ arch: CHATGLM3_6B, prompt: 16, gen: 8176 }).allocatedBytes);
    expect(e.notes.some((n) => n.code === 'inference.remote-attn')).toBe(true);
  });
});

describe("ChatGLM's own int8 / int4 (quantization.py QuantizedLinear, W8A16Linear)", () => {
  it('ChatGLM3-6B int4: the four block Linears packed two per byte with an fp16 scale per row; embedding, head, norms, biases fp16', () => {
    const e = run({ arch: CHATGLM3_6B, weights: 'int4', kv: 'fp16', prompt: 16, gen: 16 });
    // per layer: qkv 4608 × 2048 + 2·4608 = 9,446,400; dense 4096 × 2048 + 8,192 = 8,396,800;
    // dense_h_to_4h 27392 × 2048 + 54,784 = 56,153,600; dense_4h_to_h 4096 × 6848 + 8,192 = 28,057,600
    // = 102,054,400 × 28 = 2,857,523,200; embedding + output layer 532,676,608 × 2 = 1,065,353,216;
    // qkv biases 28 × 4608 + norms 28 × 8192 + 4096 = 362,496 × 2 = 724,992
    expect(termOf(e, 'weights')).toBe(3_923_601_408);
  });

  it("every forward, a decode step too, makes the largest layer's fp16 weight: 2 × 4096 × 27392", () => {
    const rt = remoteRuntime(CHATGLM3_6B, 'sdpa', 'bf16')!;
    const t = remoteTransient(rt, CHATGLM3_6B, 1, 8192, 1, 2, 1, 1, 2, false, 'dequant');
    // 5 hidden rows (GLMBlock keeps attention_output bound) 40,960 + dense_h_to_4h's fp16 weight
    // 224,395,264 beside its own 2f output 27392 × 2 = 54,784 (W8A16Linear frees the weight when it
    // returns, before swiglu; above the K/V copy's 134,258,688)
    expect(t).toMatchObject({ kind: 'mlp', bytes: 40_960 + 224_395_264 + 54_784 });
  });
});

describe('ChatGLM-6B: eager attention with fp16 scores and fp32 softmax, logits twice', () => {
  it('a 2,048-token prompt: 32 × 2048² scores at 2 + 4 + 4 + 2 bytes, beside 3 hidden rows and the bool mask', () => {
    const rt = remoteRuntime(CHATGLM_6B, 'sdpa', 'bf16')!;
    const t = remoteTransient(rt, CHATGLM_6B, 2048, 2048, 1, 2, 1, 2048, 4, true);
    // 1,610,612,736 + 3 × 2048 × 4096 × 2 = 50,331,648 + 2048² = 4,194,304
    expect(t).toMatchObject({ kind: 'attention-scores', bytes: 1_665_138_688 });
    // lm_head output and its permute(1, 0, 2).contiguous() copy: 2 × 2048 × 130,528 × 2
    expect(termOf(run({ arch: CHATGLM_6B, prompt: 2048, gen: 1 }), 'logits')).toBe(1_069_285_376);
  });
});

describe('Baichuan2-13B: ALiBi future_mask, the per-forward [b, a, k, k] mask, NormHead', () => {
  it('future_mask is 40 × 4096² in bf16 from the first forward', () => {
    expect(termOf(run({ arch: BAICHUAN2_13B, prompt: 2048, gen: 256 }), 'model-buffers')).toBe(1_342_177_280);
  });

  it('the prompt pass peaks at the NormHead copy: 125,696 × 5,120 × 2 B', () => {
    const rt = remoteRuntime(BAICHUAN2_13B, 'sdpa', 'bf16')!;
    const t = remoteTransient(rt, BAICHUAN2_13B, 2048, 2048, 1, 2, 1, 2048, 2, true);
    // beside it the final norm's output, bound to `hidden_states`: 2,048 × 5,120 × 2 = 20,971,520
    expect(t).toMatchObject({ kind: 'logits', bytes: 1_287_127_040 + 20_971_520 });
    // without NormHead the eager attention would be the peak: 3 hidden rows 62,914,560 + two score
    // tensors 40 × 2048² × 4 = 671,088,640 + the held mask and its two [b, 1, k, k] parents 42 × 2048² × 2
    const plain = remoteTransient(rt, { ...BAICHUAN2_13B, normHead: false }, 2048, 2048, 1, 2, 1, 2048, 2, true);
    expect(plain).toMatchObject({ kind: 'attention-scores', bytes: 1_086_324_736 });
  });

  it('a decode step at 2,304 keys still builds the whole [1, 40, 2304, 2304] mask', () => {
    const rt = remoteRuntime(BAICHUAN2_13B, 'sdpa', 'bf16')!;
    const t = remoteTransient(rt, BAICHUAN2_13B, 1, 2304, 1, 2, 1, 1, 2, false);
    // held 42 × 2304² × 2 = 445,906,944 + 3 rows 30,720 + two score rows 40 × 2304 × 4 = 368,640
    expect(t.bytes).toBe(446_306_304);
  });
});

describe('InternLM2: eager by default, logits.float()', () => {
  it('a 1,024-token prompt: bf16 logits and their fp32 copy over every position', () => {
    const e = run({ arch: INTERNLM2_7B, prompt: 1024, gen: 16 });
    expect(termOf(e, 'logits')).toBe(1024 * 92544 * 6);
    expect(e.notes.some((n) => n.code === 'inference.remote-attn')).toBe(true);
  });

  it("its softmax(..., dtype=float32).to(dtype) is transformers' eager pattern: bf16 scores with their fp32 copy and result, fp16 without the copy", () => {
    // 3 hidden rows 3 × 1024 × 4096 × 2 = 25,165,824; K and V repeated from 8 to 32 heads 2 × 1024 × 32 × 128 × 2
    // = 16,777,216; the held [1, 1, q, k] mask 1024² × 2 = 2,097,152; scores 32 × 1024² × (2 + 4 + 4) or (2 + 4 + 2)
    const at = (fp16: boolean) => remoteTransient(remoteRuntime(INTERNLM2_7B, 'eager', 'bf16', fp16)!, INTERNLM2_7B, 1024, 1024, 1, 2, 1, 0, 2, true);
    expect(at(false)).toMatchObject({ kind: 'attention-scores', bytes: 25_165_824 + 16_777_216 + 2_097_152 + 335_544_320 });
    expect(at(true)).toMatchObject({ kind: 'attention-scores', bytes: 25_165_824 + 16_777_216 + 2_097_152 + 268_435_456 });
  });

  it('InternLM v1 and InternLM2 run flash-attn 2 when asked (their ATTENTION_CLASSES), eager otherwise: no SDPA', () => {
    for (const family of ['internlm', 'internlm2']) {
      expect(remoteRuntime({ ...INTERNLM2_7B, family }, 'flash', 'bf16')?.attn).toBe('flash');
      expect(remoteRuntime({ ...INTERNLM2_7B, family }, 'sdpa', 'bf16')?.attn).toBe('eager');
    }
  });
});

describe('Baichuan2-13B in 8-bit: its checkpoint lists o_proj after W_pack (safetensors sorts names, "W" < "o")', () => {
  it("the load peaks at o_proj's 16-bit copy, 2 × 5120 × 5120, above the MLP's 2 × 5120 × 13696 less the int8 W_pack and o_proj still to come", () => {
    const mlp = 2 * 5120 * 13696 - (5120 * 15360 + 4 * 15360) - (5120 * 5120 + 4 * 5120);
    expect(mlp).toBeLessThan(2 * 5120 * 5120);
    expect(termOf(run({ arch: BAICHUAN2_13B, weights: 'bnb-int8', prompt: 16, gen: 16 }), 'load-copy')).toBe(2 * 5120 * 5120);
  });
});
