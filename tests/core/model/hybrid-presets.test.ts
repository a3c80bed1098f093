/**
 * The hybrid presets of src/core/model/presets-hybrid.ts against their model cards' headline
 * figures, and the two not covered by zamba2.test.ts / rwkv7.test.ts counted by hand from
 * transformers `models/falcon_h1/modeling_falcon_h1.py` and `models/granitemoehybrid/modeling_granitemoehybrid.py`.
 */
import { describe, expect, it } from 'vitest';
import { countParams } from '../../../src/core/model/params';
import { findPreset } from '../../../src/core/model/presets';
import type { ModelArch } from '../../../src/core/types';

function preset(id: string): ModelArch {
  const p = findPreset(id);
  if (!p) throw new Error(id);
  return p.arch;
}

/** A count rounded as the card rounds it: to the stated figure's last digit, in billions. */
const asStated = (n: number, stated: number) => {
  const step = Number.isInteger(stated) ? 1 : 0.1;
  return Math.round(n / 1e9 / step) * step;
};

describe('model cards’ figures', () => {
  it.each([
    ['Zyphra/Zamba2-2.7B', 2.7],
    ['fla-hub/rwkv7-2.9B-world', 2.9],
    ['ibm-granite/granite-4.0-h-small', 32],
  ])('%s counts %s B', (id, stated) => {
    expect(asStated(countParams(preset(id)).total, stated)).toBeCloseTo(stated, 6);
  });

  it('granite-4.0-h-small is active 9B of 32B (10 of 72 experts per token)', () => {
    expect(asStated(countParams(preset('ibm-granite/granite-4.0-h-small')).active, 9)).toBe(9);
  });
});

describe('Falcon-H1-7B-Instruct (FalconH1DecoderLayer: attention and Mamba-2 side by side, then the MLP)', () => {
  it('counts 7.59 B, the 7B class of its name, hand-counted', () => {
    const h = 3072;
    const attn = h * 12 * 128 + 2 * h * 2 * 128 + 12 * 128 * h;
    const conv = 3072 + 2 * 256; // d_ssm + 2·G·N
    // in_proj h→(d_ssm + conv_dim + H), conv1d with bias, dt_bias / A_log / D, out_proj; no gated norm (mamba_rms_norm False)
    const mamba = h * (3072 + conv + 24) + conv * 4 + conv + 3 * 24 + 3072 * h;
    const mlp = 3 * h * 12288;
    const total = 44 * (attn + mamba + mlp + 2 * h) + 2 * 130048 * h + h;
    expect(countParams(preset('tiiuae/Falcon-H1-7B-Instruct')).total).toBe(total);
    expect(total).toBe(7_585_513_568);
    expect(Math.floor(total / 1e9)).toBe(7);
  });
});

describe('granite-4.0-h-small (36 Mamba-2 + 4 attention layers, 72 experts + a shared MLP in each)', () => {
  it('counts 32.2 B total, 8.8 B active, hand-counted', () => {
    const h = 4096;
    const conv = 8192 + 2 * 128;
    const mamba = h * (8192 + conv + 128) + conv * 4 + conv + 3 * 128 + 8192 + 8192 * h;
    const attn = 2 * h * h + 2 * h * 1024;
    const expert = 3 * h * 768;
    const ffn = 72 * expert + h * 72 + 3 * h * 1536; // experts, router, shared MLP
    const total = 36 * mamba + 4 * attn + 40 * (ffn + 2 * h) + 100352 * h /* tied */ + h;
    const c = countParams(preset('ibm-granite/granite-4.0-h-small'));
    expect(c.total).toBe(total);
    expect(c.active).toBe(total - 40 * 62 * expert);
  });
});
