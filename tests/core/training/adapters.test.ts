import { describe, expect, it } from 'vitest';
import { adapterStateBytes, modelStateBytes } from '../../../src/core/training/optimizer';
import type { Estimate, Scenario } from '../../../src/core/types';
import { run as llama2 } from './llama2';

// Llama-2-7b, r = 16 on all linear layers: 39,976,960 trainable parameters (docs/reference/formulas.md §6.1;
// PEFT print_trainable_parameters as widely reported).
const P_LORA = 39_976_960;
const allLinear: Scenario['loraTargets'] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

const run = (over: Partial<Scenario>): Estimate => llama2({ method: 'lora', loraRank: 16, loraTargets: allLinear, ...over });
const bytes = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)?.bytes ?? 0;

describe('LoRA adapter states (PEFT autocast_adapter_dtype: 16-bit adapters become fp32)', () => {
  it('pure bf16 base: adapters, gradients and AdamW moments are fp32, 4 + 4 + 8 = 16 B per adapter parameter (docs/reference/formulas.md §6.2)', () => {
    const e = run({ precision: 'bf16', optimizer: 'adamw' });
    expect(e.params.trainable).toBe(P_LORA);
    expect(bytes(e, 'lora-adapters')).toBe(4 * P_LORA);
    expect(bytes(e, 'gradients')).toBe(4 * P_LORA);
    expect(bytes(e, 'optimizer')).toBe(8 * P_LORA);
    expect(bytes(e, 'master-weights')).toBe(0);
  });
  it('adapter-dtype base (torchtune LoRALinear in the bf16 model): 2 + 2 + (2 + 2) = 8 B per adapter parameter, half of fp32', () => {
    const base = run({ precision: 'bf16', optimizer: 'adamw', adapterDtype: 'base' });
    const fp32 = run({ precision: 'bf16', optimizer: 'adamw', adapterDtype: 'fp32' });
    expect(bytes(base, 'lora-adapters')).toBe(2 * P_LORA);
    expect(bytes(base, 'gradients')).toBe(2 * P_LORA);
    expect(bytes(base, 'optimizer')).toBe(4 * P_LORA);
    expect(bytes(base, 'master-weights')).toBe(0);
    for (const id of ['lora-adapters', 'gradients', 'optimizer']) expect(bytes(fp32, id)).toBe(2 * bytes(base, id));
  });
  it('adapter-dtype changes nothing under AMP: the adapters are fp32 parameters either way', () => {
    expect(adapterStateBytes('amp-bf16', 'adamw', false, 4096, 'base')).toEqual(adapterStateBytes('amp-bf16', 'adamw', false, 4096, 'fp32'));
  });
  it('pure bf16 full fine-tune keeps the parameter dtype: 2 + 2 + 4 B (transformers PR #21312)', () => {
    expect(modelStateBytes('bf16', 'adamw')).toMatchObject({ weights: 2, gradients: 2, master: 0, optimizer: 4 });
  });
  it('AMP and fp32 adapters are accounted as a full fine-tune of the same precision', () => {
    for (const p of ['amp-bf16', 'amp-fp16', 'fp32'] as const) {
      const { source: _a, ...a } = adapterStateBytes(p, 'adamw');
      const { source: _m, ...m } = modelStateBytes(p, 'adamw');
      expect(a).toEqual(m);
    }
  });
  it('8-bit AdamW on fp32 adapters: 2 states × (1 B + 4 B per 256-element block)', () => {
    expect(adapterStateBytes('bf16', 'adamw-8bit').optimizer).toBeCloseTo(2 * (1 + 4 / 256), 12);
  });
  it('under DeepSpeed the engine casts adapters to 16-bit with them: 2 B weights and gradients', () => {
    expect(adapterStateBytes('bf16', 'adamw', true)).toMatchObject({ weights: 2, gradients: 2 });
  });
});
