/**
 * Image tokens per image, counted by hand from the processors: transformers
 * image_processing_qwen2_vl.py smart_resize (round_by_factor uses Python's round, halves to even;
 * factor = patch 14 × merge 2 = 28; min_pixels 4·28², max_pixels 16384·28² from the Qwen2-VL
 * checkpoints' preprocessor_config.json) and the fixed-size CLIP / SigLIP processors.
 */
import { describe, expect, it } from 'vitest';
import { findPreset } from '../../../src/core/model/presets';
import { imageGrid, smartResize } from '../../../src/core/model/vision-tokens';

const tower = (id: string) => findPreset(id)!.arch.vision!;
const MIN = 4 * 28 * 28;
const MAX = 16384 * 28 * 28;

describe('smart_resize', () => {
  it('rounds each side to the nearest multiple of 28', () => {
    // 1024 / 28 = 36.57 → 37 · 28 = 1036; 1036² = 1,073,296 is inside [3,136, 12,845,056]
    expect(smartResize(1024, 1024, 28, MIN, MAX)).toEqual([1036, 1036]);
    // 448 = 16 · 28 stays
    expect(smartResize(448, 448, 28, MIN, MAX)).toEqual([448, 448]);
  });

  it("rounds a half to the even multiple, as Python's round does", () => {
    // 70 / 28 = 2.5 → round(2.5) = 2 → 56 (56² = 3,136 = min_pixels: kept); JS Math.round would give 84
    expect(smartResize(70, 70, 28, MIN, MAX)).toEqual([56, 56]);
    // 98 / 28 = 3.5 → 4 → 112
    expect(smartResize(98, 98, 28, MIN, MAX)).toEqual([112, 112]);
  });

  it('scales a small image up to min_pixels', () => {
    // 16 / 28 → 1 → 28² = 784 < 3,136: beta = √(3,136 / 256) = 3.5, ceil(16 · 3.5 / 28) = 2 → 56
    expect(smartResize(16, 16, 28, MIN, MAX)).toEqual([56, 56]);
  });

  it('scales a large image down under max_pixels', () => {
    // class default max_pixels 28·28·1280 = 1,003,520: 1036² is above it; beta = √(1024² / 1,003,520)
    // = 1.02219…, 1024 / beta = 1001.76 → floor(35.78) = 35 → 980
    expect(smartResize(1024, 1024, 28, MIN, 28 * 28 * 1280)).toEqual([980, 980]);
  });
});

describe('image tokens per image', () => {
  it('Qwen2-VL: (H/14)·(W/14) patches, a quarter of them as tokens', () => {
    // 448 px: 32 × 32 = 1,024 patches → 256 tokens
    expect(imageGrid(tower('Qwen/Qwen2-VL-7B-Instruct'), 448)).toMatchObject({ patches: 1024, tokens: 256 });
    // auto: a 1024-px image (the stated assumption) → 1036 px → 74² = 5,476 patches → 1,369 tokens
    expect(imageGrid(tower('Qwen/Qwen2-VL-7B-Instruct'), null)).toMatchObject({ side: 1024, height: 1036, patches: 5476, tokens: 1369 });
  });

  it('LLaVA-1.5: 576 tokens whatever the resolution (CLIPImageProcessor resizes to 336); the tower sees 577 rows', () => {
    for (const r of [null, 224, 1024]) expect(imageGrid(tower('llava-hf/llava-1.5-7b-hf'), r)).toMatchObject({ height: 336, patches: 577, tokens: 576 });
  });

  it('Gemma-3: 256 tokens from 64² = 4,096 SigLIP patches at 896 px', () => {
    expect(imageGrid(tower('google/gemma-3-4b-pt'), 512)).toMatchObject({ height: 896, patches: 4096, tokens: 256 });
  });
});
