import { describe, expect, test } from 'vitest';
import { parseScenario, serializeScenario } from '../../../src/core/scenario';
import { estimate } from '../../../src/core/estimate';

const errs = (rec: Record<string, string>) => parseScenario(rec).errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`);
const train = { mode: 'training' };

describe('incompatible combinations name both keys and fall back', () => {
  test.each(['gguf-q4_k_m', 'fp8', 'bf16', 'fp16', 'fp32'])('qlora with %s weights', (w) => {
    const r = parseScenario({ ...train, method: 'qlora', weights: w });
    expect(r.errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`)).toEqual(['weights:incompatible:method']);
    expect(r.scenario.weights).toBe('nf4');
  });

  test.each(['nf4', 'fp4', 'bnb-int8', 'gptq-int4', 'gptq-int8', 'awq-int4'])('qlora over a %s base is fine (PEFT trains LoRA over bitsandbytes, GPTQ and AWQ Linears)', (w) => {
    expect(errs({ ...train, method: 'qlora', weights: w })).toEqual([]);
  });

  test('qlora on a float base says to use lora', () => {
    expect(parseScenario({ ...train, method: 'qlora', weights: 'bf16' }).errors[0].message).toMatch(/for a float base use method=lora/);
  });

  test('full fine-tuning cannot train quantized weights; LoRA on GPTQ can (PEFT)', () => {
    expect(errs({ ...train, method: 'full', weights: 'gptq-int4' })).toEqual(['weights:incompatible:method']);
    expect(errs({ ...train, method: 'lora', weights: 'gptq-int4' })).toEqual([]);
    expect(errs({ ...train, method: 'lora', weights: 'gguf-q8_0' })).toEqual(['weights:incompatible:method']);
    expect(errs({ ...train, method: 'full', weights: 'fp8' })).toEqual(['weights:incompatible:method']);
    expect(errs({ ...train, method: 'freeze', weights: 'bnb-int8' })).toEqual([]);
  });

  test('lora-rank / lora-targets with method full', () => {
    const r = parseScenario({ ...train, method: 'full', 'lora-rank': '8', 'lora-targets': 'all' });
    expect(r.errors.map((e) => `${e.key}:${e.params?.with}`)).toEqual(['lora-rank:method', 'lora-targets:method']);
    expect(r.scenario.loraRank).toBe(16);
  });

  test('tp·pp must divide gpus: a link keeps the typed numbers as the form does, and the estimate refuses them in words', () => {
    const r = parseScenario({ gpus: '6', tp: '4' });
    expect(r.errors).toEqual([]);
    expect([r.scenario.gpus, r.scenario.tp, r.scenario.pp]).toEqual([6, 4, 1]);
    const e = estimate(r.scenario);
    expect(e.ok ? [] : e.errors.map((x) => [x.code, x.message])).toEqual([
      ['grid-mismatch', '6 GPUs cannot be split into groups of tensor parallel 4 × pipeline parallel 1 = 4: use a multiple of 4 GPUs'],
    ]);
    // the page's own link of that state reads back as it was (nothing silently reset)
    expect(parseScenario(serializeScenario(r.scenario)).scenario).toEqual(r.scenario);
    expect(errs({ gpus: '16', tp: '4', pp: '2' })).toEqual([]);
  });

  test('tp·pp beyond the 1,000,000-GPU maximum: gpus is not raised past it, and the estimate refuses the grid (trust.md #1)', () => {
    // 245 · 4096 = 1,003,520 and 4096 · 4096 = 16,777,216 exceed the schema maximum of gpus
    const a = parseScenario({ tp: '245', pp: '4096' });
    expect([a.scenario.gpus, a.scenario.tp, a.scenario.pp]).toEqual([1, 245, 4096]);
    const rec = { model: 'custom', hidden: '65536', layers: '8192', heads: '4096', 'kv-heads': '4096', ffn: '4096', vocab: '100', tp: '4096', pp: '4096' };
    const b = parseScenario(rec);
    expect(b.scenario.gpus).toBe(1);
    for (const r of [a, b]) {
      const e = estimate(r.scenario);
      expect(e.ok ? [] : e.errors.map((x) => x.code)).toContain('grid-mismatch');
      expect(parseScenario(serializeScenario(r.scenario)).scenario).toEqual(r.scenario);
    }
  });

  test('without gpus, tp·pp sets the GPU count', () => {
    expect(parseScenario({ tp: '2', pp: '2' }).scenario.gpus).toBe(4);
  });

  test('tp must divide the attention heads (Llama-2-7b: 32): kept by the link, refused by the estimate', () => {
    const r = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', tp: '3' });
    expect(r.errors).toEqual([]);
    const e = estimate(r.scenario);
    expect(e.ok ? [] : e.errors.map((x) => x.code)).toEqual(['tp-heads']);
  });

  test('DeepSpeed offload needs ZeRO (optimizer: ≥ 1, params: 3)', () => {
    expect(errs({ ...train, offload: 'optimizer', zero: '0' })).toEqual(['offload:incompatible:zero']);
    expect(errs({ ...train, offload: 'params', zero: '2' })).toEqual(['offload:incompatible:zero']);
    expect(errs({ ...train, offload: 'params', zero: '3' })).toEqual([]);
  });

  test('llama.cpp runs GGUF, not bitsandbytes / GPTQ; KV types per engine', () => {
    expect(errs({ engine: 'llama.cpp', weights: 'nf4' })).toEqual(['weights:incompatible:engine']);
    expect(errs({ engine: 'llama.cpp', weights: 'gguf-q4_k_m', kv: 'q8_0' })).toEqual([]);
    expect(errs({ engine: 'vllm', kv: 'q8_0' })).toEqual(['kv:incompatible:engine']);
    expect(errs({ engine: 'vllm', kv: 'fp8' })).toEqual([]);
    expect(errs({ weights: 'gguf-q4_k_m' })).toEqual(['weights:incompatible:engine']);
    expect(errs({ engine: 'llama.cpp', weights: 'bf16' })).toEqual([]);
  });

  test('FlashAttention needs 16-bit', () => {
    expect(errs({ ...train, attn: 'flash', precision: 'fp32' })).toEqual(['attn:incompatible:precision']);
  });
});

describe('warnings do not change the scenario', () => {
  test('prompt + gen beyond max_position_embeddings (Llama-2-7b: 4096) is a warning', () => {
    const r = parseScenario({ model: 'meta-llama/Llama-2-7b-hf', prompt: '4000', gen: '200' });
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => w.code)).toEqual(['exceeds-context']);
    expect(r.warnings[0].params).toMatchObject({ tokens: 4200, max: 4096 });
    expect(r.scenario.prompt).toBe(4000);
  });
});

describe('regressions found by the property tests', () => {
  test('tp · pp beyond the largest GPU count cannot become the GPU count', () => {
    const r = parseScenario({ tp: '4096', pp: '4096' });
    expect([r.scenario.gpus, r.scenario.tp, r.scenario.pp]).toEqual([1, 4096, 4096]);
    expect(estimate(r.scenario).ok).toBe(false);
  });
});

describe('a fallback that breaks an earlier rule', () => {
  test("an encoder's engine falls back to transformers, and vLLM's fp8 KV cache then falls back too, so the link reads back as it was repaired", () => {
    const rec = { model: 'thenlper/gte-large', engine: 'vllm', kv: 'fp8' };
    const r = parseScenario(rec);
    expect(r.errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`)).toEqual(['engine:incompatible:model', 'kv:incompatible:engine']);
    expect([r.scenario.engine, r.scenario.kv]).toEqual(['transformers', 'bf16']);
    const again = parseScenario(serializeScenario(r.scenario));
    expect(again.errors).toEqual([]);
    expect(again.scenario).toEqual(r.scenario);
  });
});

describe('architecture regressions found by the property tests', () => {
  test('DeepSeek-R1 has 3 leading dense layers (first_k_dense_replace): layers=1 falls back to the preset', () => {
    const r = parseScenario({ model: 'deepseek-ai/DeepSeek-R1', layers: '1' });
    expect(r.errors.map((e) => `${e.key}:${e.code}:${e.params?.with}`)).toEqual(['dense-layers:incompatible:layers']);
    expect(r.scenario.arch).toBeNull();
  });
});

describe('training-only keys at inference', () => {
  test('optim-impl steps an optimizer, which inference has none of: it warns unused-key like the other training keys', () => {
    const r = parseScenario({ 'optim-impl': 'fused' });
    expect(r.errors).toEqual([]);
    expect(r.warnings.map((w) => `${w.key}:${w.code}:${w.params?.with}`)).toEqual(['optim-impl:unused-key:mode']);
    expect(parseScenario({ ...train, 'optim-impl': 'fused' }).warnings).toEqual([]);
  });
});
