/**
 * Every term's shown formula, read back and evaluated from its shown values, gives its bytes
 * (issue #11 §3 "Formulas computed, not written"). Walks inference on every engine, training
 * (full / LoRA / QLoRA / freeze, ZeRO and FSDP, offload, tp / pp, accumulation, in-backward
 * step, chunked loss, compile, activation offload, modules_to_save, varied lengths, a guessed
 * shape) and layer-list networks.
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { estimateWithReplay } from '../../../src/core/timeline';
import { estimateNetwork, type NetworkOptions } from '../../../src/core/layers/estimate';
import { NETWORK_PRESETS } from '../../../src/core/layers/presets';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Estimate, Scenario, Term } from '../../../src/core/types';
import { evaluateFormula } from './parse-formula';
import { INFERENCE, TRAINING } from './scenario-walk';

/** Reads the formula back, evaluates it from its own values, and compares with the bytes. */
function check(t: Term, where: string): void {
  const d = t.derivation;
  let v: number;
  try {
    v = evaluateFormula(d.formula, d.values);
  } catch (err) {
    throw new Error(`${where} ${t.id}: ${(err as Error).message}`, { cause: err });
  }
  // exact, or within the rounding of whole bytes (sums of fractional per-GPU shares)
  const ok = Math.abs(v - t.bytes) <= 0.5 + 1e-12 * Math.abs(t.bytes);
  expect(ok, `${where} ${t.id}: «${d.formula}» = ${v} with ${JSON.stringify(d.values)}, bytes ${t.bytes}`).toBe(true);
}

function checkAll(e: Estimate, where: string): number {
  for (const t of e.terms) check(t, where);
  return e.terms.length;
}

function run(over: Partial<Scenario>, mode: Scenario['mode']): Estimate {
  const r = estimate({ ...defaultScenario(), mode, ...over });
  if (!r.ok) throw new Error(`${JSON.stringify(over)}: ${JSON.stringify(r.errors)}`);
  return r.value;
}

describe('every term: its formula, evaluated from its values, equals its bytes', () => {
  it.each(INFERENCE.map((o) => [JSON.stringify(o), o] as const))('inference %s', (name, o) => {
    expect(checkAll(run(o, 'inference'), name)).toBeGreaterThanOrEqual(4);
  });

  it.each(TRAINING.map((o) => [JSON.stringify(o), o] as const))('training %s', (name, o) => {
    expect(checkAll(run(o, 'training'), name)).toBeGreaterThanOrEqual(6);
  });

  it('training with varied lengths: the replayed allocator reserve', () => {
    const r = estimateWithReplay({ ...defaultScenario(), model: 'meta-llama/Llama-3.2-1B', mode: 'training', lengths: 'varied', seq: 2048, batch: 4 });
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    expect(r.value.terms.some((t) => t.id === 'allocator-reserve')).toBe(true);
    checkAll(r.value, 'varied lengths');
  });

  const NETWORK: NetworkOptions[] = [
    { mode: 'training', batch: 32, precision: 'fp32', optimizer: 'sgd-momentum', gradCkpt: 'none' },
    { mode: 'training', batch: 16, precision: 'amp-fp16', optimizer: 'adamw', gradCkpt: 'full' },
    { mode: 'training', batch: 8, precision: 'bf16', optimizer: 'adamw', gradCkpt: 'selective' },
    { mode: 'inference', batch: 64, precision: 'amp-bf16', optimizer: 'adamw', gradCkpt: 'none' },
    { mode: 'inference', batch: 1, precision: 'fp32', optimizer: 'adamw', gradCkpt: 'none' },
  ];
  it.each(NETWORK_PRESETS.flatMap((p) => NETWORK.map((o) => [`${p.id} ${o.mode} ${o.precision} ${o.gradCkpt}`, p, o] as const)))('layers %s', (name, p, o) => {
    const r = estimateNetwork(p.build(), o);
    if (!r.ok) throw new Error(r.errors[0].message);
    expect(checkAll(r.value, name)).toBeGreaterThanOrEqual(4);
  });
});
