/**
 * Saved activations with a frozen base (src/core/training/lora-activations.ts), Llama-2-7b
 * (h 4096, f 11008, 32 layers, a = g = 32, d 128; docs/reference/formulas.md §1.1). Expected bytes are built here
 * from the derivation: a frozen Linear saves no input (torch mm derivative + gen_variable_type.py
 * guard_for), the norm's `weight * x̂` mul saves x̂ only for a trainable weight, lora_A saves its input
 * (x itself, or its own copy when PEFT / autocast casts or dropout runs) and lora_B the r-wide output.
 */
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../../src/core/scenario/parse';
import type { Estimate, Scenario } from '../../../src/core/types';
import { run } from './llama2';

const h = 4096,
  f = 11008,
  L = 32,
  ad = 32 * 128,
  gd = 32 * 128;
const s = 1024,
  b = 1,
  r = 16;
const all: Scenario['loraTargets'] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];
const acts = (e: Estimate) => e.terms.find((t) => t.id === 'activations')!.bytes;
// autocast 'off': pure bf16 in a loop without torch.autocast (HF Trainer's bf16=True is autocast 'on', tested below)
const bf16 = { precision: 'bf16', weights: 'bf16', attn: 'sdpa', seq: s, batch: b, loraRank: r, autocast: 'off' } as const;
const lora = (over: Partial<Scenario>) => acts(run({ ...bf16, method: 'lora', adapterDtype: 'base', ...over }));

describe('frozen base Linears (pure bf16, SDPA, e = e_res = 2)', () => {
  const e = 2;
  // kept whatever the targets: 2 norms' fp32 input copies, q, k, v and the SDPA output, gate output,
  // SiLU output and up output; and the final norm's fp32 copy (the frozen LM head keeps no input)
  const kept = 2 * 4 * h + e * (ad + 2 * gd + ad) + 3 * e * f;
  const head = s * b * 4 * h;

  it('LoRA on q, v: the attention norm output once (shared by both adapters) plus two r-wide lora_B inputs', () => {
    const perToken = kept + e * h + 2 * r * e;
    expect(lora({ loraTargets: ['q', 'v'] })).toBe(L * s * b * perToken + head);
  });

  it('vs full fine-tuning: no down-projection input (s·b·f·e), MLP norm output, nor norm x̂ saved for the norm weights', () => {
    const full = acts(run({ ...bf16, method: 'full' }));
    // full: 2·(4 + e_res + e)·h + e·(2ad + 2gd + 4f) per token and layer; head s·b·h·(4 + e_res + e)
    // (final norm's fp32 copy, x̂, LM-head input) against LoRA's 4·h (the fp32 copy)
    const perLayer = s * b * (2 * e * h /* x̂ of both norms */ + e * h /* MLP input */ + e * f /* down input */ - 2 * r * e); /* lora_B inputs */
    expect(full - lora({ loraTargets: ['q', 'v'] })).toBe(L * perLayer + s * b * (e + e) * h);
  });

  it('all seven targets: each input saved once (the o input is the SDPA output already kept)', () => {
    const perToken = kept + e * h /* q,k,v input */ + e * h /* gate,up input */ + e * f /* down input */ + r * e * 7;
    expect(lora({ loraTargets: all })).toBe(L * s * b * perToken + head);
  });

  it('lora-dropout 0.05: every adapter saves its own dropped-out input (e) and a 1-byte mask', () => {
    const inputs = 6 * h + f; // d_in of q, k, v, o, gate, up (h each) and down (f)
    const perToken = kept + inputs * (e + 1) + r * e * 7;
    expect(lora({ loraTargets: all, loraDropout: 0.05 })).toBe(L * s * b * perToken + head);
  });

  it('PEFT fp32 adapters: each adapter saves its own fp32 cast of the input and a 4-byte r-wide lora_B input', () => {
    const perToken = kept + 2 * 4 * h + 2 * r * 4;
    expect(lora({ loraTargets: ['q', 'v'], adapterDtype: 'fp32' })).toBe(L * s * b * perToken + head);
  });

  it('torch.compile: identical casts merge (one fp32 copy of the norm output), the SiLU output and norm internals are recomputed', () => {
    // compiled: norm inputs (e_res) instead of the fp32 copies, gate and up outputs (not the SiLU output)
    const keptCompiled = 2 * e * h + e * (ad + 2 * gd + ad) + 2 * e * f;
    const perToken = keptCompiled + 4 * h + 2 * r * 4;
    const got = lora({ loraTargets: ['q', 'v'], adapterDtype: 'fp32', compile: 'inductor' });
    expect(got).toBe(L * s * b * perToken + s * b * e * h);
  });

  it('full checkpointing: layer inputs plus one recomputed layer with the same frozen-base inventory', () => {
    const perToken = kept + e * h + 2 * r * e;
    expect(lora({ loraTargets: ['q', 'v'], gradCkpt: 'full' })).toBe(L * s * b * h * e + s * b * perToken + head);
  });

  it('QLoRA saves the same: bitsandbytes MatMul4Bit keeps no input (ctx.tensors = (None, B))', () => {
    const q = acts(run({ ...bf16, method: 'qlora', weights: 'nf4', adapterDtype: 'base', loraTargets: all, kbitPrep: 'off' }));
    expect(q).toBe(lora({ loraTargets: all }));
  });
});

describe('frozen base under AMP (e = 2, e_res = 4)', () => {
  it('autocast casts the fp32 norm output per adapter (no cache for non-leaf tensors); o and down inputs, bf16 already, are cast to fp32 by PEFT and back: one copy each too', () => {
    const amp = { ...bf16, precision: 'amp-bf16', weights: 'fp32' } as const;
    const e = 2;
    const kept = 2 * 4 * h + e * (ad + 2 * gd + ad) + 3 * e * f;
    const perToken = kept + e * (6 * h + f) + r * e * 7;
    const got = acts(run({ ...amp, method: 'lora', loraTargets: all }));
    expect(got).toBe(L * s * b * perToken + s * b * 4 * h);
  });
});

describe('GPT-style layer (GPT-2: h 768, f 3072, 12 layers, 12 heads; fp32, eager)', () => {
  it('one fused c_attn adapter saves the LayerNorm output once; the eager attention output (c_proj input), GeLU output (c_fc input) and LM-head input are not saved', () => {
    const [H, F, N, A, S, R, e] = [768, 3072, 12, 12, 512, 8, 4];
    // LayerNorm inputs, q / k / v, fc1 output (GeLU input), two 1-byte dropout masks; x once; lora_B
    // input; gelu_new's composed ops (act-saves.ts; no autocast in fp32): 0.5·x, tanh's result, 1 + tanh
    const perToken = 2 * e * H + e * 3 * H + e * F + 2 * H + e * H + R * e + 3 * e * F;
    // eager scores: softmax output (fp32), dropout mask, dropout output
    const scores = A * S * S * (4 + 1 + 4);
    const got = acts(run({ model: 'openai-community/gpt2', precision: 'fp32', weights: 'fp32', attn: 'eager', seq: S, batch: 1, method: 'lora', loraRank: R, loraTargets: ['q', 'v'] }));
    expect(got).toBe(N * (S * perToken + scores) + S * e * H);
  });
});

describe('scenario keys', () => {
  it('lora-dropout and adapter-dtype parse for LoRA and are refused for full fine-tuning', () => {
    const ok = parseScenario({ mode: 'training', method: 'lora', 'lora-dropout': '0.05', 'adapter-dtype': 'base' });
    expect(ok.errors).toEqual([]);
    expect(ok.scenario).toMatchObject({ loraDropout: 0.05, adapterDtype: 'base' });
    const bad = parseScenario({ mode: 'training', method: 'full', 'lora-dropout': '0.1', 'adapter-dtype': 'base' });
    expect(bad.errors.map((x) => `${x.key}:${x.code}`)).toEqual(['lora-dropout:incompatible', 'adapter-dtype:incompatible']);
    expect(bad.scenario).toMatchObject({ loraDropout: 0, adapterDtype: 'fp32' });
  });
  it('adapter-dtype under AMP is kept but warned about: the adapters are fp32 parameters there', () => {
    const r2 = parseScenario({ mode: 'training', method: 'lora', precision: 'amp-bf16', 'adapter-dtype': 'base' });
    expect(r2.errors).toEqual([]);
    expect(r2.warnings.map((x) => `${x.key}:${x.code}`)).toEqual(['adapter-dtype:unused-key']);
  });
  it('a dropout outside 0–1 is a named error', () => {
    const r2 = parseScenario({ mode: 'training', method: 'lora', 'lora-dropout': '1.5' });
    expect(r2.errors.map((x) => x.key)).toEqual(['lora-dropout']);
  });
});
