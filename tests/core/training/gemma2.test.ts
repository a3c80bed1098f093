/**
 * Gemma-2 specifics in training (transformers models/gemma2/modeling_gemma2.py), counted by hand:
 * - final logit softcapping, `logits = tanh(logits / 30) * 30` in Gemma2ForCausalLM.forward: tanh
 *   saves its output (derivatives.yaml `tanh_backward(grad, result)`), one bf16 s·b·V tensor from the
 *   forward until tanh's backward, after the loss backward;
 * - four RMSNorms per layer (input, post-attention, pre-feedforward, post-feedforward): with a frozen
 *   norm weight each saves its fp32 input copy, 4·h bytes per token;
 * - eager attention with attn_logit_softcapping: tanh saves its bf16 output, s² per head.
 * Gemma-2-2b: h 2304, 26 layers, 8 heads / 4 KV heads of 256, vocab 256000 (data/models.json).
 */
import { describe, expect, it } from 'vitest';
import { estimate, estimateDetail, resolveModel } from '../../../src/core/estimate';
import { sequenceMoments } from '../../../src/core/training/loss';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { loraLayerActivation } from '../../../src/core/training/lora-activations';
import type { Estimate, Scenario } from '../../../src/core/types';

const V = 256000,
  h = 2304,
  a = 8;
const s = 2048,
  b = 2;
const base: Scenario = {
  ...defaultScenario(),
  model: 'google/gemma-2-2b',
  mode: 'training',
  method: 'lora',
  precision: 'bf16',
  weights: 'bf16',
  attn: 'eager',
  gradCkpt: 'full',
  seq: s,
  batch: b,
  loraTargets: ['q', 'k', 'v', 'o', 'gate', 'up', 'down'],
  loraDropout: 0.05,
  optimizer: 'adamw',
  optimImpl: 'fused',
};
function run(over: Partial<Scenario> = {}): Estimate {
  const x = estimate({ ...base, ...over });
  if (!x.ok) throw new Error(JSON.stringify(x.errors));
  return x.value;
}
const arch = () => {
  const r = resolveModel(base);
  if (!r.ok) throw new Error('gemma-2-2b does not resolve');
  return r.value.arch;
};

describe('Gemma-2 in training', () => {
  it('the config sets both softcaps and four norms per layer', () => {
    const g = arch();
    expect([g.logitSoftcap, g.attnSoftcap, g.normsPerLayer, g.vocab, g.hidden]).toEqual([true, true, 4, V, h]);
  });

  it('the loss backward holds the tanh output too: s·b·V·(12 + 2) bytes', () => {
    const n = s * b * V;
    expect(run().terms.find((t) => t.id === 'logits')!.bytes).toBe(14 * n);
    expect(14 * n).toBe(14_680_064_000);
  });

  it('a frozen-base layer saves two more fp32 norm inputs than a two-norm layer, and the eager tanh output per score', () => {
    const g = arch();
    const dt = { e: 2, eRes: 2, eF32: 2 };
    const lora = { targets: base.loraTargets, rank: 16, dropout: 0, adapterBytes: 2, autocast: true };
    const four = loraLayerActivation(g, s, b, dt, 'eager', 1, false, false, lora);
    const two = loraLayerActivation({ ...g, normsPerLayer: 2 }, s, b, dt, 'eager', 1, false, false, lora);
    expect(four.linear - two.linear).toBe(s * b * 2 * 4 * h);
    const plain = loraLayerActivation({ ...g, attnSoftcap: false }, s, b, dt, 'eager', 1, false, false, lora);
    // scores: fp32 softmax output + its bf16 copy (4 + 2), plus the bf16 tanh output (2)
    expect(four.scores).toBe(b * a * s * s * (4 + 2 + 2));
    expect(four.scores - plain.scores).toBe(b * a * s * s * 2);
  });

  it('the measured run (t025, H200, transformers 5.17: LoRA, eager, checkpointing, 2 × 2,048 tokens) peaks at 19.36 GiB; the estimate is within 1 %', () => {
    const measured = 20_790_571_520;
    expect(Math.abs(run().allocatedBytes - measured) / measured).toBeLessThan(0.01);
  });
});

describe('Gemma-2 softcapping in the replayed loss sequence', () => {
  it('the tanh output comes first and the sequence still has exactly the closed form moments', () => {
    const d = estimateDetail(base);
    if (!d.ok) throw new Error('rejected');
    const l = d.value.built.phases!.logits;
    expect(l.sequence).toBeDefined();
    expect(sequenceMoments(l.sequence!)).toEqual({ peak: l.peak, held: l.held, backward: l.backward, headBackward: l.headBackward });
    expect(l.sequence!.forward[0]).toEqual({ alloc: 2 * s * b * V });
  });
});
