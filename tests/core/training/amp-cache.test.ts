/**
 * AMP's 16-bit weight copies (src/core/training/amp-cache.ts): made by autocast for every Linear
 * in forward, cleared when the autocast region exits (torch/amp/autocast_mode.py), kept only where
 * autograd saved them. Hand values from Qwen2.5-0.5B's config (hidden 896, intermediate 4864,
 * 24 layers, 14 heads of 64 with 2 KV heads, vocab 151936, tied) and our H200 run t029
 * (tools/measure/measure_trainer.py --trace: 16,106,442,240 B allocated peak; at the peak the only
 * 16-bit weight copy alive is the LM head's).
 */
import { describe, expect, it } from 'vitest';
import { estimate } from '../../../src/core/estimate';
import { countParams } from '../../../src/core/model/params';
import { findPreset } from '../../../src/core/model/presets';
import { defaultScenario } from '../../../src/core/scenario/schema';
import { ampWeightCopies } from '../../../src/core/training/amp-cache';
import type { Scenario } from '../../../src/core/types';

const preset = findPreset('Qwen/Qwen2.5-0.5B');
if (!preset) throw new Error('preset');
const arch = preset.arch;
const params = countParams(arch);
const amp = (over: Partial<Scenario> = {}): Scenario => ({
  ...defaultScenario(),
  model: 'Qwen/Qwen2.5-0.5B',
  mode: 'training',
  method: 'full',
  precision: 'amp-bf16',
  weights: 'fp32',
  gradCkpt: 'full',
  ...over,
});

// per layer: q, o 896×896; k, v 896×128; gate, up 896×4864; down 4864×896
const PER_LAYER = 2 * 896 * 896 + 2 * 896 * 128 + 3 * 896 * 4864;

describe("AMP's 16-bit weight copies live in autocast's cache", () => {
  it('Qwen2.5-0.5B: 14,909,440 Linear weights per layer, 24 layers; the head copy is 151,936 × 896 × 2 = 272,269,312 B', () => {
    expect(PER_LAYER).toBe(14_909_440);
    expect(params.blockLinear).toBe(24 * PER_LAYER);
    const c = ampWeightCopies(amp(), arch, params, 2);
    expect(c).toEqual({ all: 2 * 24 * PER_LAYER + 272_269_312, head: 272_269_312, layer: 2 * PER_LAYER, checkpointed: true });
  });

  it('only plain torch AMP full fine-tunes: pure bf16, LoRA and ZeRO keep their 16-bit weights as weights', () => {
    expect(ampWeightCopies(amp({ precision: 'bf16', weights: 'bf16' }), arch, params, 2)).toBeNull();
    expect(ampWeightCopies(amp({ method: 'lora' }), arch, params, 2)).toBeNull();
    expect(ampWeightCopies(amp({ zero: 2, gpus: 2 }), arch, params, 2)).toBeNull();
    expect(ampWeightCopies(amp({ gradCkpt: 'none' }), arch, params, 2)?.checkpointed).toBe(false);
  });

  it('t029 (AMP bf16, checkpointing, batch 2 × 2048, accumulation 2): within 1 % of the 16,106,442,240 B measured, and the blocks’ copies gone by then', () => {
    const s = amp({ seq: 2048, batch: 2, gradAccum: 2, optimizer: 'adamw', optimImpl: 'fused' });
    const e = estimate(s);
    if (!e.ok) throw new Error('rejected');
    expect(Math.abs(e.value.allocatedBytes - 16_106_442_240) / 16_106_442_240).toBeLessThan(0.01);
    const c = ampWeightCopies(s, arch, params, 2)!;
    // at the loss's backward only the head's copy is alive: the blocks' 715,653,120 B are not
    expect(c.all - c.head).toBe(715_653_120);
  });
});
