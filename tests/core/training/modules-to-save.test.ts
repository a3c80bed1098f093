/**
 * PEFT modules_to_save (src/core/training/modules-to-save.ts; lora-save): ModulesToSaveWrapper
 * deep-copies the module and freezes the original, so each saved matrix adds a trainable copy with
 * its gradient and optimizer states in the module's dtype (cast_adapter_dtype upcasts only
 * BaseTunerLayer parameters). Llama-2-7b: V 32000, h 4096 (untied); s = 1024, b = 1, AdamW.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { parseScenario } from '../../../src/core/scenario/parse';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Scenario } from '../../../src/core/types';
import { run } from './llama2';

const V = 32000,
  h = 4096,
  s = 1024,
  b = 1;
const term = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;
const q: Partial<Scenario> = { method: 'qlora', weights: 'nf4', precision: 'bf16', attn: 'sdpa', seq: s, batch: b, loraTargets: ['q', 'v'], bnbCompute: 'bf16', optimizer: 'adamw', autocast: 'off' };

describe('lora-save=embed,head on a 16-bit-kept base (kbit-prep off): bf16 copies', () => {
  const off = run({ ...q, kbitPrep: 'off' });
  const on = run({ ...q, kbitPrep: 'off', loraSave: 'embed,head' });
  const matrices = 2 * V * h;

  it('copies 2 B, gradients 2 B, AdamW m and v 2 B each, per element of both matrices', () => {
    expect(term(on, 'lora-adapters') - term(off, 'lora-adapters')).toBe(matrices * 2);
    expect(term(on, 'gradients') - term(off, 'gradients')).toBe(matrices * 2);
    expect(term(on, 'optimizer') - term(off, 'optimizer')).toBe(matrices * 2 * 2);
  });

  it('the trained head saves its bf16 input, s·b·h·2', () => {
    expect(term(on, 'activations') - term(off, 'activations')).toBe(s * b * h * 2);
  });

  it('counts the copies as trainable parameters', () => {
    expect(on.params.trainable - off.params.trainable).toBe(matrices);
  });
});

describe('after prepare_model_for_kbit_training the copies are fp32', () => {
  it('head only: 4 B copy, 4 B gradient, 8 B AdamW states; its fp32 input saved', () => {
    const off = run({ ...q });
    const on = run({ ...q, loraSave: 'head' });
    expect(term(on, 'lora-adapters') - term(off, 'lora-adapters')).toBe(V * h * 4);
    expect(term(on, 'optimizer') - term(off, 'optimizer')).toBe(V * h * 8);
    expect(term(on, 'activations') - term(off, 'activations')).toBe(s * b * h * 4);
  });
});

describe('tied embeddings: one matrix', () => {
  it('Qwen2.5-0.5B (V 151936, h 896, tie_word_embeddings): embed,head trains one V·h copy', () => {
    const base = { ...defaultScenario(), model: 'Qwen/Qwen2.5-0.5B', mode: 'training' as const, ...q, kbitPrep: 'off' as const };
    const a = estimate({ ...base, loraSave: 'embed,head' });
    const c = estimate(base);
    if (!a.ok || !c.ok) throw new Error('estimate failed');
    expect(term(a.value, 'lora-adapters') - term(c.value, 'lora-adapters')).toBe(151936 * 896 * 2);
  });
});

describe('lora-save key', () => {
  it('parses for LoRA / QLoRA and is refused for full fine-tuning', () => {
    expect(parseScenario({ mode: 'training', method: 'lora', 'lora-save': 'embed,head' }).scenario.loraSave).toBe('embed,head');
    const bad = parseScenario({ mode: 'training', method: 'full', 'lora-save': 'head' });
    expect(bad.errors.map((e) => `${e.key}:${e.code}`)).toEqual(['lora-save:incompatible']);
    expect(bad.scenario.loraSave).toBe('none');
  });
});
