/**
 * PEFT prepare_model_for_kbit_training (src/core/training/kbit-prep.ts) on Llama-2-7b (h 4096,
 * f 11008, 32 layers, a = g = 32, d 128, V 32000; docs/reference/formulas.md §1.1), nf4 base, LoRA r 16 on q, v,
 * s = 1024, b = 1, SDPA. Expected bytes are written from the sources:
 * - peft utils/other.py: every fp16/bf16 parameter that is not Params4bit becomes fp32 (not for GPTQ);
 * - transformers LlamaRMSNorm.forward `weight * x.to(input_dtype)`: fp32 weight → fp32 norm output;
 *   the fp32 embedding keeps the residual stream fp32;
 * - bitsandbytes Linear4bit.forward `.to(inp_dtype)`: gate / up / down outputs are fp32, so the SiLU
 *   input, SiLU output and up output the MLP saves are 4 B each;
 * - without autocast, SDPA runs (and saves) in fp32; under autocast it saves 16-bit casts;
 * - the fp32 LM head: fp32 logits without autocast; under autocast 16-bit logits and a 16-bit copy
 *   of the head weight (V·h·2) saved by mm.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/core/scenario/parse';
import type { Estimate, Scenario } from '../../../src/core/types';
import { run } from './llama2';

const h = 4096,
  f = 11008,
  L = 32,
  V = 32000,
  s = 1024,
  b = 1,
  r = 16;
const ad = 32 * 128;
const term = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;
// autocast 'off': a plain loop with no torch.autocast block (the AMP cases set precision amp-bf16)
const q: Partial<Scenario> = { method: 'qlora', weights: 'nf4', attn: 'sdpa', seq: s, batch: b, loraRank: r, loraTargets: ['q', 'v'], bnbCompute: 'bf16', autocast: 'off' };

describe('fp32 upcast of the unquantized parameters', () => {
  it('weights: +2 B for each of the 2·V·h embedding / head and 65·h norm parameters', () => {
    const unquantized = 2 * V * h + (2 * L + 1) * h; // 262,410,240: P − Σ block Linears
    expect(unquantized).toBe(6_738_415_616 - L * (4 * h * h + 3 * h * f));
    const on = run({ ...q, precision: 'bf16' });
    const off = run({ ...q, precision: 'bf16', kbitPrep: 'off' });
    expect(term(on, 'weights') - term(off, 'weights')).toBe(2 * unquantized);
  });

  it('GPTQ: PEFT skips the cast, so kbit-prep changes nothing', () => {
    const g = { ...q, weights: 'gptq-int4', precision: 'fp16' } as const;
    expect(run({ ...g, kbitPrep: 'on' }).allocatedBytes).toBe(run({ ...g, kbitPrep: 'off' }).allocatedBytes);
  });
});

describe('saved activations with fp32 norms and fp32 Linear outputs', () => {
  it('pure bf16 (no autocast), SDPA: attention and MLP tensors in fp32; the fp32 norm output is what the fp32 adapters read, saved once', () => {
    // per layer and token: two norms' fp32 inputs, q/k/v + SDPA output at 4 B, three f-wide MLP tensors
    // at 4 B, the q/v adapters' shared fp32 input, two r-wide fp32 lora_B inputs
    const perToken = 2 * 4 * h + 4 * (ad + 2 * ad + ad) + 4 * 3 * f + 4 * h + 2 * r * 4;
    const head = 4 * h; // final norm's fp32 input; the frozen head keeps no input
    expect(term(run({ ...q, precision: 'bf16' }), 'activations')).toBe(L * s * b * perToken + s * b * head);
  });

  it('pure bf16 with FlashAttention: transformers casts q, k, v back to 16-bit (fa_peft_integration_check)', () => {
    const perToken = 2 * 4 * h + 2 * (ad + 2 * ad + ad) + 4 * 3 * f + 4 * h + 2 * r * 4;
    expect(term(run({ ...q, precision: 'bf16', attn: 'flash' }), 'activations')).toBe(L * s * b * perToken + s * b * 4 * h);
  });

  it('AMP bf16: SDPA saves its autocast 16-bit copies; each adapter saves its own 16-bit cast of the fp32 norm output', () => {
    const perToken = 2 * 4 * h + 2 * (ad + 2 * ad + ad) + 4 * 3 * f + 2 * 2 * h + 2 * r * 2;
    expect(term(run({ ...q, precision: 'amp-bf16' }), 'activations')).toBe(L * s * b * perToken + s * b * 4 * h);
  });

  it('full checkpointing keeps fp32 layer inputs (the residual stream)', () => {
    const on = term(run({ ...q, precision: 'bf16', gradCkpt: 'full' }), 'activations');
    const perToken = 2 * 4 * h + 4 * 4 * ad + 4 * 3 * f + 4 * h + 2 * r * 4;
    // the recomputed layer's first norm saves the fp32 checkpoint input itself (`.to(float32)` of an
    // fp32 tensor returns it), already among the L inputs: 4·h per token less
    expect(on).toBe(L * s * b * h * 4 + s * b * (perToken - 4 * h) + s * b * 4 * h);
  });
});

describe('fp32 LM head', () => {
  // the logits term is the larger of the loss forward and its backward (loss.ts): the backward holds
  // the saved log-softmax and NllLossBackward's + _log_softmax_backward_data's fp32 outputs (the
  // logits left with the model output, Trainer.compute_loss)
  it('without autocast: fp32 logits (the upcast is a no-op): s·b·V·(4 + 8) in the loss backward', () => {
    expect(term(run({ ...q, precision: 'bf16' }), 'logits')).toBe(s * b * V * (4 + 8));
  });

  it('under autocast: fp32 log-softmax + two fp32 gradients, plus the 16-bit copy of the head weight', () => {
    expect(term(run({ ...q, precision: 'amp-bf16' }), 'logits')).toBe(s * b * V * (4 + 8) + V * h * 2);
  });
});

describe('other bases', () => {
  it('LLM.int8 with kbit-prep: MatMul8bitLt rebuilds the weight at its fp32 input width in backward', () => {
    expect(term(run({ ...q, weights: 'bnb-int8', precision: 'bf16' }), 'dequant-buffer')).toBe(4 * h * f);
  });
});

describe('kbit-prep key', () => {
  it('parses on / off; is reported unused for a float or GPTQ base and at inference', () => {
    expect(parseScenario({ mode: 'training', method: 'qlora', weights: 'nf4', 'kbit-prep': 'off' }).scenario.kbitPrep).toBe('off');
    const warn = (rec: Record<string, string>) => parseScenario(rec).warnings.map((w) => `${w.key}:${w.code}`);
    expect(warn({ mode: 'training', method: 'qlora', weights: 'awq-int4', 'kbit-prep': 'on' })).toEqual([]);
    expect(warn({ mode: 'training', method: 'qlora', weights: 'gptq-int4', 'kbit-prep': 'on' })).toEqual(['kbit-prep:unused-key']);
    expect(warn({ mode: 'training', method: 'lora', weights: 'bf16', 'kbit-prep': 'off' })).toEqual(['kbit-prep:unused-key']);
    expect(warn({ mode: 'inference', 'kbit-prep': 'on' })).toEqual(['kbit-prep:unused-key']);
    expect(parseScenario({ 'kbit-prep': 'maybe' }).errors.map((e) => e.code)).toEqual(['invalid-value']);
  });
});
