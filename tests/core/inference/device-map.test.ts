import { describe, expect, it } from 'vitest';
import { balancedBudget, layerSplit } from '../../../src/core/inference/device-map';

// Llama-2-7b in bf16: h=4096, L=32, f=11008, V=32000, untied head.
const E = 32000 * 4096 * 2; // embed_tokens = 262,144,000 B
// decoder block: q,k,v,o 4·h² + gate,up,down 3·h·f + two RMSNorms 2·h, ×2 bytes
const B = (4 * 4096 * 4096 + 3 * 4096 * 11008 + 2 * 4096) * 2; // 404,766,720 B
const NORM = 4096 * 2;
const llama = { embedding: E, block: B, layers: 32, norm: NORM, head: E, leafModules: 1 + 32 * 9 + 1 + 1 };
const TOTAL = 2 * E + 32 * B + NORM; // 13,476,831,232 B
const UNLIMITED = Number.POSITIVE_INFINITY;

describe('layerSplit (accelerate get_balanced_memory + infer_auto_device_map)', () => {
  it('budget: ⌊total/N⌋ + ⌊1.25·block⌋ (the block outweighs the mean leaf)', () => {
    expect(TOTAL).toBe(13_476_831_232);
    expect(balancedBudget(llama, 2)).toBe(Math.floor(TOTAL / 2) + Math.trunc(1.25 * B)); // 7,244,374,016
    expect(balancedBudget(llama, 2)).toBe(7_244_374_016);
    expect(balancedBudget(llama, 4)).toBe(3_369_207_808 + 505_958_400);
  });

  it('Llama-2-7b on 2 GPUs: 16 + 16 blocks', () => {
    // GPU 0 budget 7,244,374,016 − B (largest layer reserved on the main device) = 6,839,607,296
    // E + k·B ≤ 6,839,607,296 → k = ⌊6,577,463,296 / B⌋ = 16
    // GPU 1 (last, unlimited) takes blocks 16..31 + norm + head
    const r = layerSplit(llama, 2, UNLIMITED);
    expect(r.layersPerGpu).toEqual([16, 16]);
    expect(r.perGpu[0]).toBe(E + 16 * B); // 6,738,411,520
    expect(r.perGpu[1]).toBe(16 * B + NORM + E); // 6,738,419,712
    expect(r.lastGpu).toBe(1);
    expect(r.offloaded).toBe(0);
  });

  it('Llama-2-7b on 4 GPUs: 7 / 9 / 9 / 7 blocks', () => {
    // budget 3,875,166,208; GPU 0: (3,875,166,208 − B − E) / B = 7.93 → 7 blocks
    // GPUs 1, 2: 3,875,166,208 / B = 9.57 → 9 blocks each; GPU 3 the last 7 + norm + head
    const r = layerSplit(llama, 4, UNLIMITED);
    expect(r.layersPerGpu).toEqual([7, 9, 9, 7]);
    expect(r.perGpu).toEqual([E + 7 * B, 9 * B, 9 * B, 7 * B + NORM + E]);
    expect(Math.max(...r.perGpu)).toBe(3_642_900_480);
  });

  it('a capacity below the budget caps every GPU and leaves the rest offloaded', () => {
    // 4 GPUs of 2 GB: GPU 0 holds E + ⌊(2e9 − B − E)/B⌋ = 3 blocks, GPUs 1–3 ⌊2e9/B⌋ = 4 each → 15 blocks
    const r = layerSplit(llama, 4, 2e9);
    expect(r.layersPerGpu).toEqual([3, 4, 4, 4]);
    expect(r.offloaded).toBe(17 * B + NORM + E);
  });

  it('a tied head adds no bytes and stays with the embedding rule', () => {
    const r = layerSplit({ ...llama, head: 0 }, 2, UNLIMITED);
    // total 13,214,687,232; budget 6,607,343,616 + 505,958,400; GPU 0: (7,113,302,016 − B − E)/B = 15.9 → 15
    expect(r.layersPerGpu).toEqual([15, 17]);
    expect(r.perGpu[1]).toBe(17 * B + NORM);
  });
});
