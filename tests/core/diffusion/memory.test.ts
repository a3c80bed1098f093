import { describe, expect, test } from 'vitest';
import { resnetLive } from '../../../src/core/diffusion/activations';
import { estimate } from '../../../src/core/estimate';
import { DEFAULT_SCENARIO } from '../../../src/core/scenario/schema';
import { CUBLAS_WORKSPACE_BYTES, CUDA_CONTEXT_BYTES } from '../../../src/core/runtime';
import type { Estimate, Scenario } from '../../../src/core/types';

const SD15 = 'runwayml/stable-diffusion-v1-5';
const SDXL = 'stabilityai/stable-diffusion-xl-base-1.0';
const DEV = 'black-forest-labs/FLUX.1-dev';

const run = (over: Partial<Scenario>): Estimate => {
  const r = estimate({ ...DEFAULT_SCENARIO, ...over });
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.value;
};
const bytes = (e: Estimate, id: string) => e.terms.find((t) => t.id === id)!.bytes;

describe('ResnetBlock2D working set (models/resnet.py forward)', () => {
  test('256 → 128 channels: input, norm1 and SiLU (3·256) or input + shortcut, conv2, sum and the division (256 + 4·128): 768 planes', () => {
    expect(resnetLive(256, 128, 1)).toBe(768);
    // equal widths: no shortcut, so the end holds input, conv2, sum and quotient (4·c) above the start's 3·c
    expect(resnetLive(128, 128, 1)).toBe(4 * 128);
  });
});

describe('diffusers pipelines, phase by phase (worked examples)', () => {
  test('SDXL fp16 at 1024²: the VAE decodes in fp32 (force_upcast): 768 planes of 1024² per image at 4 B, plus the fp16 latents', () => {
    const e = run({ model: SDXL, weights: 'fp16', resolution: 1024 });
    // last up block, first resnet (256 → 128 at 1024²): 768 · 1,048,576 elements · 4 B; latents 4 · 128² · 2 B
    expect(bytes(e, 'vae-decode')).toBe(768 * 1024 * 1024 * 4 + 4 * 128 * 128 * 2);
    // bf16 needs no upcast: the same planes at 2 B
    expect(bytes(run({ model: SDXL, weights: 'bf16', resolution: 1024 }), 'vae-decode')).toBe(768 * 1024 * 1024 * 2 + 4 * 128 * 128 * 2);
  });

  test('SD 1.5 at 512², CFG on (guidance_scale 7.5): the last up block’s transformer FF with its held skips, at batch 2', () => {
    // per image: up-block input 640 ch and the block’s three skips (3·320) held, + 21·320 in the GEGLU feed-forward, over 64² pixels
    const perImage = (640 + 3 * 320 + 21 * 320) * 64 * 64;
    expect(perImage).toBe(34_078_720);
    // held: latents (1) and latent_model_input (2) at 4·64², prompt embeddings 2·77·768, all fp16
    const held = ((1 + 2) * 4 * 64 * 64 + 2 * 77 * 768) * 2;
    const e = run({ model: SD15, weights: 'fp16' });
    expect(bytes(e, 'denoising')).toBe(2 * perImage * 2 + held);
    // without guidance the UNet batch is 1
    expect(bytes(run({ model: SD15, weights: 'fp16', cfg: 'off' }), 'denoising')).toBe(perImage * 2 + ((1 + 1) * 4 * 64 * 64 + 77 * 768) * 2);
  });

  test('eager attention (AttnProcessor) makes the SD 1.5 self-attention scores and softmax the peak: 2 · 8 heads · 4096²', () => {
    const perImage = (640 + 3 * 320) * 4096 + 6 * 320 * 4096 + 2 * 8 * 4096 * 4096;
    const e = run({ model: SD15, weights: 'fp16', attn: 'eager', cfg: 'off' });
    expect(bytes(e, 'denoising')).toBe(perImage * 2 + ((1 + 1) * 4 * 4096 + 77 * 768) * 2);
  });

  test('FLUX.1-dev bf16 at 1024²: weights of all four components, T5 attention softmax, single-block peak over 64² + 512 tokens', () => {
    const e = run({ model: DEV, resolution: 1024 });
    expect(bytes(e, 'weights')).toBe((11_901_408_320 + 83_819_683 + 123_060_480 + 4_762_310_656) * 2);
    // T5 layer: input, norm, q, k, v (5·4096 per token) and scores + position bias (2·64·512²) in bf16, softmax input and output in fp32
    expect(bytes(e, 'text-encoding')).toBe((5 * 4096 * 512 + 2 * 64 * 512 * 512) * 2 + 2 * 64 * 512 * 512 * 4);
    const tokens = 64 * 64 + 512;
    const held = (64 * 64 * 64 + 512 * 4096) * 2 + 2 * tokens * 128 * 4;
    expect(bytes(e, 'denoising')).toBe(11 * 3072 * tokens * 2 + 3 * 3072 * tokens * 4 + held);
    // guidance-distilled: 'auto' does not double the batch
    expect(bytes(run({ model: DEV, resolution: 1024, cfg: 'on' }), 'denoising')).toBe(bytes(e, 'denoising'));
  });

  test('peak = max over phases of (resident weights + the phase), + cuBLAS workspace; the CUDA context is the one the LLM path adds', () => {
    const e = run({ model: SDXL, weights: 'fp16', resolution: 1024 });
    const others = (2_567_463_684 + 123_060_480 + 694_659_840) * 2;
    const decode = others + 83_653_863 * 4 + bytes(e, 'vae-decode');
    const denoise = (others / 2 + 83_653_863) * 2 + bytes(e, 'denoising');
    expect(decode).toBeGreaterThan(denoise);
    expect(e.allocatedBytes).toBe(decode + CUBLAS_WORKSPACE_BYTES);
    expect(bytes(e, 'cuda-context')).toBe(CUDA_CONTEXT_BYTES);
    expect(e.deviceBytes - e.reservedBytes).toBe(CUDA_CONTEXT_BYTES);
  });

  test('enable_model_cpu_offload: only the running component is resident (SDXL fp16: the UNet at batch 1, the fp32 VAE at batch 4)', () => {
    const one = run({ model: SDXL, weights: 'fp16', resolution: 1024, offloadModel: 'on' });
    // 2,567,463,684 · 2 B of UNet beat 83,653,863 · 4 B of VAE + one image's 3.2 GB decode
    expect(bytes(one, 'weights')).toBe(2_567_463_684 * 2);
    expect(one.allocatedBytes).toBe(2_567_463_684 * 2 + bytes(one, 'denoising') + CUBLAS_WORKSPACE_BYTES);
    const four = run({ model: SDXL, weights: 'fp16', resolution: 1024, offloadModel: 'on', batch: 4 });
    expect(bytes(four, 'weights')).toBe(83_653_863 * 4);
    expect(four.allocatedBytes).toBe(83_653_863 * 4 + bytes(four, 'vae-decode') + CUBLAS_WORKSPACE_BYTES);
  });

  test('the side: SD / SDXL refuse one that is not a multiple of 8 (check_inputs); Flux rounds down to 16 with a note', () => {
    const bad = estimate({ ...DEFAULT_SCENARIO, model: SDXL, resolution: 1001 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.errors[0]).toMatchObject({ key: 'resolution', code: 'diffusion.side-multiple' });
    const rounded = run({ model: DEV, resolution: 1000 });
    expect(rounded.notes.some((n) => n.code === 'diffusion.side-rounded' && n.params?.side === 992)).toBe(true);
    expect(bytes(rounded, 'vae-decode')).toBe(bytes(run({ model: DEV, resolution: 992 }), 'vae-decode'));
  });

  test('batch scales every phase; nothing is NaN or negative over a range of sides and batches', () => {
    for (const model of [SD15, SDXL, DEV]) {
      for (const resolution of [64, 256, 512, 1024, 2048, 4096]) {
        for (const batch of [1, 3, 16]) {
          const e = run({ model, resolution, batch, weights: 'fp16' });
          for (const t of e.terms) expect(Number.isFinite(t.bytes) && t.bytes >= 0).toBe(true);
          expect(e.allocatedBytes).toBeLessThanOrEqual(e.reservedBytes);
        }
      }
    }
    const one = run({ model: SDXL, batch: 1 });
    const four = run({ model: SDXL, batch: 4 });
    expect(bytes(four, 'vae-decode')).toBe(4 * bytes(one, 'vae-decode'));
  });
});
