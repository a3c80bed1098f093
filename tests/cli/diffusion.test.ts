import { describe, expect, test } from 'vitest';
import { main } from '../../src/cli/estimate';

const SDXL = 'stabilityai/stable-diffusion-xl-base-1.0';

describe('estimate CLI with an image-generation model', () => {
  test('CLI: --model FLUX.1-dev --resolution 1024 --batch 1 names the pipeline; training exits 2 with one stderr line', async () => {
    const ok = await main(['--model', 'black-forest-labs/FLUX.1-dev', '--resolution', '1024', '--batch', '1']);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('image generation with diffusers FluxPipeline, weights bf16, batch 1, 1024×1024 px, CFG off');
    const bad = await main(['--model', SDXL, '--mode', 'training']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
    expect(bad.stderr).toContain('inference only');
    const side = await main(['--model', SDXL, '--resolution', '1001']);
    expect(side.code).toBe(2);
    expect(side.stderr).toMatch(/^error: resolution 1001: StableDiffusionXLPipeline needs a side divisible by 8/);
  });
});
