import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { parseScenario, serializeScenario } from '../../../src/core/scenario';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { P, run } from './llama2';

describe('gradient accumulation: gradients stay allocated across micro-steps', () => {
  // s = 4096, b = 8: saved activations (~160 GB) dwarf gradients + optimizer-step temporaries,
  // so without accumulation the peak is the forward/backward one with no gradients allocated.
  const big = { precision: 'bf16', seq: 4096, batch: 8, attn: 'flash' } as const;

  it('pure bf16 full fine-tune: grad-accum 4 adds exactly the 2-byte gradients of all P parameters', () => {
    const one = run(big);
    const four = run({ ...big, gradAccum: 4 });
    expect(four.params.total).toBe(P);
    expect(four.allocatedBytes - one.allocatedBytes).toBe(2 * P);
  });

  it('the number of micro-steps beyond 1 does not matter (the buffers are reused: grad += new)', () => {
    expect(run({ ...big, gradAccum: 2 }).allocatedBytes).toBe(run({ ...big, gradAccum: 64 }).allocatedBytes);
  });

  it('zero_grad(set_to_none=False) keeps the gradients too: same peak as accumulation', () => {
    expect(run({ ...big, gradZero: 'zeros' }).allocatedBytes).toBe(run({ ...big, gradAccum: 4 }).allocatedBytes);
    expect(run({ ...big, gradZero: 'zeros', gradAccum: 4 }).allocatedBytes).toBe(run({ ...big, gradAccum: 4 }).allocatedBytes);
  });

  it('ZeRO-2 on 4 GPUs holds only its gradient partition: + 2·P/4', () => {
    const z = { ...big, zero: 2, gpus: 4 } as const;
    expect(run({ ...z, gradAccum: 8 }).allocatedBytes - run(z).allocatedBytes).toBe((2 * P) / 4);
  });

  it('LoRA r = 16 on q, v: only the 2·16·(4096 + 4096)·32 = 8,388,608 adapter gradients (fp32 under AMP) are held', () => {
    const lora = { method: 'lora', precision: 'amp-bf16', loraRank: 16, loraTargets: ['q', 'v'], seq: 4096, batch: 8, attn: 'flash' } as const;
    const adapters = 2 * 16 * (4096 + 4096) * 32;
    expect(adapters).toBe(8_388_608); // PEFT prints 4,194,304 trainable params for r = 8
    const one = run({ ...lora, loraTargets: [...lora.loraTargets] });
    const four = run({ ...lora, loraTargets: [...lora.loraTargets], gradAccum: 4 });
    expect(four.params.trainable).toBe(adapters);
    expect(four.allocatedBytes - one.allocatedBytes).toBe(4 * adapters);
  });

  it('when the optimizer step already peaks with all gradients plus AdamW foreach temporaries, accumulation adds nothing', () => {
    // seq 16, batch 1: activations ≪ foreach temporary (sqrt(exp_avg_sq): 2·P bytes in bf16)
    const tiny = { precision: 'bf16', seq: 16, batch: 1 } as const;
    expect(run({ ...tiny, gradAccum: 4 }).allocatedBytes).toBe(run(tiny).allocatedBytes);
  });

  it('pipeline parallelism accumulates over its micro-batches anyway: pp 2 peaks the same with or without grad-accum', () => {
    const pipe = { ...big, pp: 2, gpus: 2 } as const;
    expect(run({ ...pipe, gradAccum: 8 }).allocatedBytes).toBe(run(pipe).allocatedBytes);
    expect(run(pipe).notes.map((n) => n.code)).toContain('training.grads-held');
  });

  it('names the held gradients in a note', () => {
    expect(run({ ...big, gradAccum: 4 }).notes.map((n) => n.code)).toContain('training.grads-held');
    expect(run(big).notes.map((n) => n.code)).not.toContain('training.grads-held');
  });

  it('inference ignores both keys', () => {
    const inf = { mode: 'inference', prompt: 512, gen: 64 } as const;
    expect(run({ ...inf, gradAccum: 8, gradZero: 'zeros' }).allocatedBytes).toBe(run(inf).allocatedBytes);
  });
});

describe('grad-accum / grad-zero keys', () => {
  it('parse, and serialize back only when not default', () => {
    const p = parseScenario({ mode: 'training', 'grad-accum': '4', 'grad-zero': 'ZEROS' });
    expect(p.errors).toEqual([]);
    expect(p.scenario.gradAccum).toBe(4);
    expect(p.scenario.gradZero).toBe('zeros');
    expect(serializeScenario(p.scenario)).toMatchObject({ 'grad-accum': '4', 'grad-zero': 'zeros' });
    expect(serializeScenario(defaultScenario())).not.toHaveProperty('grad-accum');
  });
  it('0, fractions and unknown values are named errors that fall back to the defaults', () => {
    const p = parseScenario({ 'grad-accum': '0', 'grad-zero': 'false' });
    expect(p.errors.map((e) => `${e.key}:${e.code}`)).toEqual(['grad-accum:out-of-range', 'grad-zero:invalid-value']);
    expect(p.scenario.gradAccum).toBe(1);
    expect(p.scenario.gradZero).toBe('none');
    expect(parseScenario({ 'grad-accum': '1.5' }).errors.map((e) => e.key)).toEqual(['grad-accum']);
  });
  it('at inference the keys warn unused-key', () => {
    const p = parseScenario({ 'grad-accum': '4' });
    expect(p.errors).toEqual([]);
    expect(p.warnings.map((w) => `${w.key}:${w.code}`)).toEqual(['grad-accum:unused-key']);
  });
  it('estimate rejects a non-integer gradAccum given directly', () => {
    const r = estimate({ ...defaultScenario(), mode: 'training', gradAccum: 0.5 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors[0].key).toBe('gradAccum');
  });
});
