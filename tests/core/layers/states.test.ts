import { describe, expect, test } from 'vitest';
import { estimateNetwork, type NetworkOptions } from '../../../src/core/layers/estimate';
import type { LayerSpec } from '../../../src/core/layers/spec';

function optimizerBytes(layers: LayerSpec[], input: number[], o: Partial<NetworkOptions>): number {
  const r = estimateNetwork({ layers, input }, { mode: 'training', batch: 1, precision: 'fp32', optimizer: 'adamw', gradCkpt: 'none', ...o });
  if (!r.ok) throw new Error(r.errors[0].message);
  return r.value.terms.find((t) => t.id === 'optimizer')!.bytes;
}

describe('optimizer state per parameter tensor', () => {
  test('Adafactor (β1 = None) on Linear(512, 256): row 256 + column 512 accumulators, bias kept whole, fp32', () => {
    expect(optimizerBytes([{ kind: 'linear', in: 512, out: 256 }], [512], { optimizer: 'adafactor' })).toBe(4 * (256 + 512) + 4 * 256);
  });

  test('Adafactor on a 3×3 conv weight [64, 64, 3, 3] factors the last two dims: 2·64·64·3 values', () => {
    expect(optimizerBytes([{ kind: 'conv2d', in: 64, out: 64, kernel: 3, bias: false }], [64, 8, 8], { optimizer: 'adafactor' })).toBe(4 * (64 * 64 * 3 + 64 * 64 * 3));
  });

  test('bitsandbytes 8-bit AdamW: uint8 states + fp32 absmax per 256 values; tensors under 4096 values keep fp32 states', () => {
    const got = optimizerBytes([{ kind: 'linear', in: 100, out: 100 }], [100], { optimizer: 'adamw-8bit' });
    expect(got).toBeCloseTo(10_000 * 2 * (1 + 4 / 256) + 100 * 8, 6);
  });

  test('AdamW in pure bf16 keeps its two moments in bf16: 4 B per parameter', () => {
    expect(optimizerBytes([{ kind: 'linear', in: 64, out: 64 }], [64], { precision: 'bf16' })).toBe(4 * (64 * 64 + 64));
  });
});
