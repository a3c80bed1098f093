/**
 * HF Trainer with bf16=True over a bf16 model: accelerate's prepare_model wraps the forward in
 * torch.autocast (src/core/training/autocast.ts), so PEFT's fp32 adapters compute in bf16. Expected
 * bytes are counted by hand from the sources:
 * - PEFT lora.Linear.forward: `x = self._cast_input_dtype(x, lora_A.weight.dtype)` (an fp32 copy,
 *   not saved), `lora_B(lora_A(dropout(x)))`: nn.Dropout saves a 1-byte mask, lora_A under autocast
 *   casts its fp32 input to bf16 (a new tensor, saved for lora_A's weight gradient), lora_B saves
 *   lora_A's r-wide bf16 output;
 * - a frozen base Linear saves nothing, the eager RMSNorm its fp32 input copy (4 B), SDPA's flash
 *   kernel q, k, v and its output, the gated MLP its gate output, SiLU output and up output.
 * Llama-3.2-1B (h 2048, f 8192, 16 layers, 32 heads / 8 KV heads of 64; data/models.json).
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { autocastActive } from '../../../src/core/training/autocast';
import type { Estimate, Scenario } from '../../../src/core/types';

const h = 2048,
  f = 8192,
  L = 16,
  ad = 32 * 64,
  gd = 8 * 64,
  V = 128256;
const s = 2048,
  b = 1,
  r = 16;
const ALL: Scenario['loraTargets'] = ['q', 'k', 'v', 'o', 'gate', 'up', 'down'];

function run(over: Partial<Scenario>): Estimate {
  const x = estimate({
    ...defaultScenario(),
    model: 'meta-llama/Llama-3.2-1B',
    mode: 'training',
    method: 'lora',
    precision: 'bf16',
    weights: 'bf16',
    attn: 'sdpa',
    seq: s,
    batch: b,
    loraRank: r,
    loraTargets: ALL,
    loraDropout: 0.05,
    optimizer: 'adamw',
    optimImpl: 'fused',
    ...over,
  });
  if (!x.ok) throw new Error(JSON.stringify(x.errors));
  return x.value;
}
const term = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)!.bytes;

describe('autocast', () => {
  it('is on for AMP, for 16-bit weights with autocast=on, and off for fp32 or autocast=off', () => {
    expect(autocastActive({ precision: 'amp-bf16', autocast: 'off' })).toBe(true);
    expect(autocastActive({ precision: 'bf16', autocast: 'on' })).toBe(true);
    expect(autocastActive({ precision: 'fp16', autocast: 'off' })).toBe(false);
    expect(autocastActive({ precision: 'fp32', autocast: 'on' })).toBe(false);
  });

  it('Trainer bf16=True, LoRA on all Linears, dropout 0.05: per token and layer 31·h + 9·f + 7·r·2 bytes', () => {
    // norms 2 × 4h; q, k, v adapters 3 × (2h copy + h mask); attention q 2·ad, k and v 2·2·gd, output 2·ad;
    // o adapter 2·ad + ad; gate and up adapters 2 × 3h; MLP gate, SiLU and up outputs 3 × 2f; down adapter 2f + f;
    // seven lora_B inputs r·2
    const perToken = 2 * 4 * h + 3 * 3 * h + (2 * ad + 4 * gd + 2 * ad) + 3 * ad + 2 * 3 * h + 3 * 2 * f + 3 * f + 7 * r * 2;
    expect(perToken).toBe(31 * h + 9 * f + 224);
    const head = s * b * 4 * h; // the final norm's fp32 input (the frozen LM head keeps none)
    expect(term(run({}), 'activations')).toBe(L * s * b * perToken + head);
    expect(L * s * b * perToken + head).toBe(4_520_411_136);
  });

  it('without autocast the fp32 adapters save fp32 copies: 2 B more per copied element and per lora_B input', () => {
    const more = L * s * b * (2 * (3 * h + ad + 2 * h + f) + 7 * r * 2);
    expect(term(run({ autocast: 'off' }), 'activations') - term(run({}), 'activations')).toBe(more);
  });

  it('adapters kept in bf16 (adapter-dtype base) need no copy when dropout is off, with or without autocast', () => {
    const on = term(run({ adapterDtype: 'base', loraDropout: 0 }), 'activations');
    expect(term(run({ adapterDtype: 'base', loraDropout: 0, autocast: 'off' }), 'activations')).toBe(on);
  });

  it('AMP over the frozen bf16 base is the same run: the stream is the base’s bf16, so the activations are the 31·h + 9·f + 224 B per token above', () => {
    expect(term(run({ precision: 'amp-bf16' }), 'activations')).toBe(term(run({}), 'activations'));
  });

  // the recomputed layer's RMSNorm makes its fp32 copy (4·s·b·h) of a bf16 input; an fp32 input is
  // the checkpoint's own tensor (`.to(torch.float32)` returns it: activations.ts inputSavedAsIs)
  it('under full checkpointing an fp32 base under AMP keeps L fp32 layer inputs, the bf16 base L bf16 ones and one fp32 norm copy: 2·L·s·b·h − 4·s·b·h B fewer', () => {
    const ckpt = { precision: 'amp-bf16', gradCkpt: 'full' } as const;
    const wide = term(run({ ...ckpt, weights: 'fp32' }), 'activations');
    const narrow = term(run({ ...ckpt }), 'activations');
    expect(narrow).toBe(term(run({ gradCkpt: 'full' }), 'activations'));
    expect(wide - narrow).toBe(2 * L * s * b * h - 4 * s * b * h);
  });

  it('the measured run (t000, H200, transformers 5.17): 9.64 GiB allocated; weights + adapter states + saved tensors + loss backward come within 1 %', () => {
    // loss backward: the fp32 log-softmax output and two fp32 gradients, 12 B per logit (loss.ts)
    const loss = 12 * s * b * V;
    expect(term(run({}), 'logits')).toBe(loss);
    const measured = 10_345_636_352;
    expect(Math.abs(run({}).allocatedBytes - measured) / measured).toBeLessThan(0.01);
  });
});
