/**
 * How many patches the vision tower sees and how many prompt tokens one image becomes, at a
 * chosen square resolution (types.ts VisionTower).
 * - Fixed-size towers (CLIP, SigLIP): the processor resizes every image to `image_size`
 *   (CLIPImageProcessor, SiglipImageProcessor), so the resolution changes nothing; LLaVA-1.5:
 *   (336/14)² = 576 tokens; Gemma-3: 4096 patches pooled to `mm_tokens_per_image` = 256.
 * - Dynamic resolution (Qwen2-VL): transformers image_processing_qwen2_vl.py smart_resize rounds
 *   each side to a multiple of patch·merge = 28 (Python round, halves to even), scales down to
 *   max_pixels or up to min_pixels keeping the aspect ratio, then (H/14)·(W/14) patches and
 *   (H/28)·(W/28) tokens.
 */
import type { VisionTower } from '../types';

/**
 * The side 'auto' takes for a dynamic-resolution model, which has no native size: a 1024-pixel
 * square image (an assumption, like len-mean's 'auto'; the help and the term say so).
 */
export const DYNAMIC_AUTO_SIDE = 1024;

export interface ImageGrid {
  /** the image side the user chose (or 'auto' resolved) */
  side: number;
  /** the processor's output size in pixels */
  height: number;
  width: number;
  /** rows one image gives the tower (patches, plus CLIP's class token) */
  patches: number;
  /** prompt tokens one image becomes */
  tokens: number;
}

/** Python's round(): a half goes to the even neighbour. */
function roundHalfEven(x: number): number {
  const f = Math.floor(x);
  const d = x - f;
  if (d !== 0.5) return d < 0.5 ? f : f + 1;
  return f % 2 === 0 ? f : f + 1;
}

/** transformers image_processing_qwen2_vl.py smart_resize(height, width, factor, min_pixels, max_pixels). */
export function smartResize(height: number, width: number, factor: number, minPixels: number, maxPixels: number): [number, number] {
  let h = roundHalfEven(height / factor) * factor;
  let w = roundHalfEven(width / factor) * factor;
  if (h * w > maxPixels) {
    const beta = Math.sqrt((height * width) / maxPixels);
    h = Math.floor(height / beta / factor) * factor;
    w = Math.floor(width / beta / factor) * factor;
  } else if (h * w < minPixels) {
    const beta = Math.sqrt(minPixels / (height * width));
    h = Math.ceil((height * beta) / factor) * factor;
    w = Math.ceil((width * beta) / factor) * factor;
  }
  return [h, w];
}

/** The side 'auto' means: the tower's image_size, or DYNAMIC_AUTO_SIDE for dynamic resolution. */
export function nativeSide(v: VisionTower): number {
  return v.imageSize ?? DYNAMIC_AUTO_SIDE;
}

/** Patches and prompt tokens of one square image of side `resolution` (null: the model's native size). */
export function imageGrid(v: VisionTower, resolution: number | null): ImageGrid {
  if (v.merge) {
    const side = resolution ?? nativeSide(v);
    const m = v.merge;
    const [height, width] = smartResize(side, side, v.patch * m.side, m.minPixels, m.maxPixels);
    const patches = (height / v.patch) * (width / v.patch);
    return { side, height, width, patches, tokens: patches / (m.side * m.side) };
  }
  const size = v.imageSize ?? 0;
  const grid = Math.floor(size / v.patch) ** 2;
  return { side: resolution ?? size, height: size, width: size, patches: grid + (v.classToken ? 1 : 0), tokens: v.tokensPerImage ?? grid };
}
