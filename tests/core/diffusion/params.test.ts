import { describe, expect, test } from 'vitest';
import { clipTextParams, componentParams, fluxParams, t5EncoderParams, unetParams, vaeParams } from '../../../src/core/diffusion/components';
import { diffusionParams } from '../../../src/core/diffusion/build';
import { DIFFUSION_PRESETS, findDiffusionPreset } from '../../../src/core/diffusion/presets';

const preset = (id: string) => {
  const p = findDiffusionPreset(id);
  if (!p) throw new Error(id);
  return p;
};
const SD15 = preset('runwayml/stable-diffusion-v1-5');
const SDXL = preset('stabilityai/stable-diffusion-xl-base-1.0');
const DEV = preset('black-forest-labs/FLUX.1-dev');
const SCHNELL = preset('black-forest-labs/FLUX.1-schnell');
const encoder = (p: typeof SD15, name: string) => p.textEncoders.find((t) => t.name === name)!.config;

describe('parameter counts from the component configs', () => {
  test('SD 1.5 UNet: 859,520,964, the count diffusers’ own ModelMixin.num_parameters docstring prints for this UNet', () => {
    expect(SD15.denoiser.kind).toBe('unet');
    if (SD15.denoiser.kind === 'unet') expect(unetParams(SD15.denoiser)).toBe(859_520_964);
  });

  test('SDXL UNet: 2,567,463,684 (the paper’s "2.6B", Podell et al. 2023 Table 1)', () => {
    if (SDXL.denoiser.kind === 'unet') expect(unetParams(SDXL.denoiser)).toBe(2_567_463_684);
    expect(componentParams(SDXL.denoiser) / 1e9).toBeCloseTo(2.6, 1);
  });

  test('CLIP ViT-L/14 text tower by hand: embeddings 49,408·768 + 77·768, 12 layers of 7,087,872, final LayerNorm 1,536 = 123,060,480 ("123M", SDXL paper Table 1)', () => {
    const layer = 4 * (768 * 768 + 768) + (768 * 3072 + 3072) + (3072 * 768 + 768) + 2 * 2 * 768;
    expect(layer).toBe(7_087_872);
    const hand = 49_408 * 768 + 77 * 768 + 12 * layer + 2 * 768;
    expect(hand).toBe(123_060_480);
    expect(clipTextParams(encoder(SD15, 'text_encoder') as never)).toBe(hand);
  });

  test('SDXL text encoders: CLIP-L + OpenCLIP bigG with its 1280×1280 text_projection = 817,720,320 (the paper’s "817M")', () => {
    const bigG = componentParams(encoder(SDXL, 'text_encoder_2'));
    // by hand: embeddings (49,408 + 77)·1280, 32 layers of 19,677,440, final norm 2,560, projection 1,638,400
    expect(bigG).toBe(49_485 * 1280 + 32 * 19_677_440 + 2_560 + 1280 * 1280);
    expect(componentParams(encoder(SDXL, 'text_encoder')) + bigG).toBe(817_720_320);
  });

  test('T5-XXL encoder by hand: embedding 32,128·4096, 24 blocks of (4·4096² + 3·4096·10,240 + 2·4096), relative bias 32·64, final norm = 4,762,310,656 ("4.7B")', () => {
    const block = 4 * 4096 * 4096 + 3 * 4096 * 10_240 + 2 * 4096;
    const hand = 32_128 * 4096 + 24 * block + 32 * 64 + 4096;
    expect(hand).toBe(4_762_310_656);
    expect(t5EncoderParams(encoder(DEV, 'text_encoder_2') as never)).toBe(hand);
  });

  test('FLUX.1 transformer by hand (d = 24·128 = 3072): 19 double blocks of 36d² + 30d + 512, 38 single blocks of 15d² + 11d + 256, embedders and output = 11,901,408,320 (the model card’s "12 billion")', () => {
    const d = 3072;
    const lin = (i: number, o: number) => i * o + o;
    const timestep = lin(256, d) + lin(d, d);
    const hand = 19 * (36 * d * d + 30 * d + 512) + 38 * (15 * d * d + 11 * d + 256) + lin(64, d) + 2 * timestep + lin(768, d) + lin(d, d) + lin(4096, d) + lin(d, 2 * d) + lin(d, 64);
    expect(hand).toBe(11_901_408_320);
    if (DEV.denoiser.kind === 'flux') expect(fluxParams(DEV.denoiser)).toBe(hand);
    // schnell has no guidance embedder
    if (SCHNELL.denoiser.kind === 'flux') expect(fluxParams(SCHNELL.denoiser)).toBe(hand - timestep);
  });

  test('AutoencoderKL: SD 1.5 / SDXL 83,653,863 (num_parameters of the vae subfolder); Flux’s 16 latent channels without quant convs 83,819,683', () => {
    expect(vaeParams(SD15.vae)).toBe(83_653_863);
    expect(vaeParams(SDXL.vae)).toBe(83_653_863);
    // by hand from the SD VAE: encoder conv_out 512→8 becomes 512→32, decoder conv_in 4→512 becomes 16→512, quant_conv (8·8+8) and post_quant_conv (4·4+4) go
    const delta = 9 * 512 * (32 - 8) + 24 + 9 * 512 * (16 - 4) - (8 * 8 + 8) - (4 * 4 + 4);
    expect(vaeParams(DEV.vae)).toBe(83_653_863 + delta);
    expect(vaeParams(DEV.vae)).toBe(83_819_683);
  });

  test('a pipeline’s total is the sum of its components, and every preset is found by id and by its short name', () => {
    expect(diffusionParams(SD15)).toBe(859_520_964 + 83_653_863 + 123_060_480);
    for (const p of DIFFUSION_PRESETS) {
      expect(findDiffusionPreset(p.id)).toBe(p);
      expect(findDiffusionPreset(p.id.split('/')[1].toUpperCase())).toBe(p);
    }
    expect(findDiffusionPreset('meta-llama/Llama-2-7b-hf')).toBeUndefined();
  });
});
