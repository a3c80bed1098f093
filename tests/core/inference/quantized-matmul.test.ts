/**
 * What a quantized Linear holds while generate() runs it (src/core/inference/quant-linear.ts),
 * counted by hand from the libraries' source with the models' published config.json widths.
 * Each Linear's moment sits beside what the MLP holds at that point — Llama's
 * `down_proj(act_fn(gate_proj(x)) * up_proj(x))`: up_proj runs beside act(gate), down_proj beside
 * the product — and the MLP's moment is the largest of those and the plain set (act, up, product:
 * 3·n·f·e), so a dequantized weight shows only where it outweighs the token-sized tensors.
 * - AutoAWQ ≥ 0.2 awq/modules/linear/gemm.py `WQLinearMMFunction.forward`: from
 *   `x.shape[0] * x.shape[1] >= 1024` rows, `dequantize_weights_cuda` makes the fp16 [in, out]
 *   weight for `torch.matmul` (freed when `out` is rebound); below, `gemm_forward_cuda`.
 * - bitsandbytes `matmul_4bit`: `gemv_4bit` only for one row (`A.numel() == A.shape[-1]`), else
 *   MatMul4Bit dequantizes (16-bit), and under the float32 compute default `Linear4bit.forward`
 *   casts the input to fp32 and `.to(float32)` the weight (16-bit and fp32 copies together).
 * - bitsandbytes ≥ 0.45 `MatMul8bitLt.forward`: CA (int8, n·in), `int8_linear_matmul`'s int32
 *   [n, out], `int8_mm_dequant`'s fp16 [n, out] and its `.to(A.dtype)` copy for bf16 activations.
 */
import { describe, expect, it } from 'vitest';
import { estimate, estimateDetail } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Scenario } from '../../../src/core/types';

const QWEN25_7B = 'Qwen/Qwen2.5-7B'; // hidden 3584, intermediate 18944
const QWEN25_72B = 'Qwen/Qwen2.5-72B'; // hidden 8192, intermediate 29568
const LLAMA2 = 'meta-llama/Llama-2-7b-hf'; // hidden 4096, intermediate 11008
const PHI3 = 'microsoft/Phi-3-mini-4k-instruct'; // hidden 3072, intermediate 8192, fused gate_up_proj

const inference = (over: Partial<Scenario>): Scenario => ({ ...defaultScenario(), mode: 'inference', engine: 'transformers', gen: 0, ...over });
function run(over: Partial<Scenario>): Estimate {
  const r = estimate(inference(over));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
}
const acts = (over: Partial<Scenario>): number => run(over).terms.find((t) => t.id === 'activations')?.bytes ?? NaN;
function atDecode(over: Partial<Scenario>): number {
  const d = estimateDetail(inference(over));
  if (!d.ok || !d.value.built.inference) throw new Error('refused');
  return d.value.built.inference.atDecode;
}

describe('AWQ (AutoAWQ WQLinear_GEMM): the fp16 weight from 1,024 rows, beside up_proj', () => {
  // AWQ runs fp16 activations: compare with an fp16 checkpoint of the same model
  const h = 3584;
  const f = 18944;
  it('1,023 rows run the packed GEMM: the same as fp16 weights', () => {
    expect(acts({ model: QWEN25_7B, weights: 'awq-int4', prompt: 1023 })).toBe(acts({ model: QWEN25_7B, weights: 'fp16', prompt: 1023 }));
  });
  it('1,024 rows: act (2nf) + W_up (2hf) + up (2nf) outweighs the product set (6nf) by 2f·(h − n)', () => {
    const n = 1024;
    expect(acts({ model: QWEN25_7B, weights: 'awq-int4', prompt: n }) - acts({ model: QWEN25_7B, weights: 'fp16', prompt: n })).toBe(2 * f * (h - n));
    // 2 sequences of 512 are the same 1,024 rows (x.shape[0] · x.shape[1])
    expect(acts({ model: QWEN25_7B, weights: 'awq-int4', prompt: 512, batch: 2 }) - acts({ model: QWEN25_7B, weights: 'fp16', prompt: 512, batch: 2 })).toBe(2 * f * (h - n));
  });
  it('6,144 rows, more than h: the product set is the larger, so the weight adds nothing', () => {
    expect(acts({ model: QWEN25_7B, weights: 'awq-int4', prompt: 6144 })).toBe(acts({ model: QWEN25_7B, weights: 'fp16', prompt: 6144 }));
  });
  it('Qwen2.5-72B at 6,144 rows (h = 8192 > n): 2·29568·(8192 − 6144) B more', () => {
    expect(acts({ model: QWEN25_72B, weights: 'awq-int4', prompt: 6144 }) - acts({ model: QWEN25_72B, weights: 'fp16', prompt: 6144 })).toBe(2 * 29568 * (8192 - 6144));
  });
});

describe('bitsandbytes 4-bit (Llama-2-7b)', () => {
  const h = 4096;
  const f = 11008;
  it('bf16 compute, 16 rows: act + the 16-bit W_up + up against the product set: 2hf − 2nf more', () => {
    const n = 16;
    expect(acts({ model: LLAMA2, weights: 'nf4', bnbCompute: 'bf16', prompt: n }) - acts({ model: LLAMA2, weights: 'bf16', prompt: n })).toBe(2 * h * f - 2 * n * f);
  });
  it("float32 compute, 16 rows: down_proj's fp32 input (4nf) beside the product (2nf) and the 16-bit + fp32 weight (6hf)", () => {
    const n = 16;
    expect(acts({ model: LLAMA2, weights: 'nf4', bnbCompute: 'fp32', prompt: n }) - acts({ model: LLAMA2, weights: 'bf16', prompt: n })).toBe(6 * h * f);
  });
  it('one sequence decodes through gemv_4bit: the decode step holds no weight copy', () => {
    const decodeOf = (bnbCompute: 'fp32' | 'bf16'): number => atDecode({ model: LLAMA2, weights: 'nf4', prompt: 16, gen: 4096, bnbCompute });
    expect(decodeOf('fp32')).toBe(decodeOf('bf16'));
  });
  it('4 sequences decode through MatMul4Bit: fp32 (down: 6nf + 6hf) against bf16 (up: 4nf + 2hf) at the step', () => {
    const n = 4;
    const decodeOf = (bnbCompute: 'fp32' | 'bf16'): number => atDecode({ model: LLAMA2, weights: 'nf4', prompt: 16, gen: 4096, batch: n, bnbCompute });
    expect(decodeOf('fp32') - decodeOf('bf16')).toBe(2 * n * f + 4 * h * f);
  });
});

describe('bitsandbytes LLM.int8 (bnb-int8): the int32 product and its casts', () => {
  it("Llama-2-7b, 4,096 rows: up_proj's CA (n·h) + int32 (4nf) + fp16 (2nf) + bf16 (2nf) beside act (2nf), against 6nf", () => {
    const n = 4096;
    expect(acts({ model: LLAMA2, weights: 'bnb-int8', prompt: n }) - acts({ model: LLAMA2, weights: 'bf16', prompt: n })).toBe(n * 4096 + 4 * n * 11008);
  });
  it('Phi-3-mini, 2,048 rows: the fused gate_up_proj (2f wide) with nothing held, against its 4 f-wide tensors', () => {
    const n = 2048;
    expect(acts({ model: PHI3, weights: 'bnb-int8', prompt: n }) - acts({ model: PHI3, weights: 'bf16', prompt: n })).toBe(n * 3072 + 8 * n * 8192);
  });
});

describe('bitsandbytes quantizes each Linear from a 16-bit copy as the checkpoint loads', () => {
  // transformers 4.x create_quantized_param → Int8Params._quantize / Params4bit._quantize: the 16-bit
  // weight (2 B each) on the GPU beside everything loaded so far; safetensors lists a shard's tensors sorted by name
  const loadCopy = (model: string, weights: Scenario['weights']): number => run({ model, weights, prompt: 16 }).terms.find((t) => t.id === 'load-copy')?.bytes ?? 0;
  it("Llama-2-7b (mlp < self_attn): v_proj's copy (2·4096·4096) is the larger, the MLP's 2·4096·11008 less four int8 attention Linears still to come", () => {
    const attnFinals = 4 * (4096 * 4096 + 4 * 4096); // int8 weight + fp32 SCB per output row
    expect(2 * 4096 * 11008 - attnFinals).toBeLessThan(2 * 4096 * 4096);
    expect(loadCopy(LLAMA2, 'bnb-int8')).toBe(2 * 4096 * 4096);
  });
  it('GPT-2 XL (attn < mlp): its last tensor loaded is mlp.c_proj, 6400 × 1600: 2·1600·6400 B above the weights', () => {
    expect(loadCopy('openai-community/gpt2-xl', 'bnb-int8')).toBe(2 * 1600 * 6400);
  });
  it("Falcon-7B (mlp < self_attention): the MLP's 4544 × 18176 copy less the int8 query_key_value (4544 × 4672) and dense (4544 × 4544)", () => {
    const finals = 4544 * 4672 + 4 * 4672 + 4544 * 4544 + 4 * 4544;
    expect(loadCopy('tiiuae/falcon-7b', 'bnb-int8')).toBe(2 * 4544 * 18176 - finals);
    // a 16-token prompt: the run (32 MiB cuBLAS workspace, a small cache and transient) stays below it, so max_memory_allocated is the load's
    const e = run({ model: 'tiiuae/falcon-7b', weights: 'bnb-int8', prompt: 16 });
    expect(e.allocatedBytes).toBe((e.terms.find((t) => t.id === 'weights')?.bytes ?? NaN) + 2 * 4544 * 18176 - finals);
  });
  it('formats quantized before saving load as they are stored: nothing for GPTQ, AWQ (untied) or 16-bit', () => {
    for (const w of ['gptq-int4', 'bf16'] as const) expect(loadCopy(LLAMA2, w)).toBe(0);
  });
});
