import { describe, expect, it } from 'vitest';
import { autoValue } from '../../../src/core/scenario/auto-values';
import { defaultScenario } from '../../../src/core/scenario/schema';
import type { Scenario } from '../../../src/core/types';

const llama8b = (p: Partial<Scenario> = {}): Scenario => ({ ...defaultScenario(), model: 'meta-llama/Llama-3.1-8B', ...p });

describe('autoValue: the number a key left at auto stands for', () => {
  it('len-mean: seq/2, the assumed mean sample length (seq 4096 → 2048; 2047 → 1024 shown whole)', () => {
    expect(autoValue(llama8b({ mode: 'training', seq: 4096 }), 'lenMean')).toBe(2048);
    expect(autoValue(llama8b({ mode: 'training', seq: 2047 }), 'lenMean')).toBe(1024);
  });

  it("DeepSpeed buckets: HF Trainer's fill-in from Llama-3.1-8B's hidden_size 4096 (integrations/deepspeed.py trainer_config_finalize)", () => {
    const s = llama8b({ mode: 'training', zero: 3 });
    // reduce_bucket_size = hidden_size * hidden_size
    expect(autoValue(s, 'dsReduceBucket')).toBe(16_777_216);
    // stage3_prefetch_bucket_size = 0.9 * hidden_size * hidden_size = 15,099,494.4, an int in DeepSpeed's config
    expect(autoValue(s, 'dsPrefetchBucket')).toBe(15_099_494);
    // stage3_param_persistence_threshold = 10 * hidden_size
    expect(autoValue(s, 'dsPersistThreshold')).toBe(40_960);
  });

  it('ngl: every layer and the output layer (llama.cpp reports "offloaded 33/33 layers" for a 32-layer Llama)', () => {
    expect(autoValue(llama8b({ engine: 'llama.cpp', weights: 'gguf-q4_k_m' }), 'ngl')).toBe(33);
    expect(autoValue(llama8b(), 'ngl')).toBeNull();
  });

  it("ubatch: llama.cpp's n_ubatch default 512 (common/common.h); transformers has none", () => {
    expect(autoValue(llama8b({ engine: 'llama.cpp', weights: 'gguf-q4_k_m' }), 'ubatch')).toBe(512);
    expect(autoValue(llama8b(), 'ubatch')).toBeNull();
  });

  it("group-size: GPTQ's and AWQ's usual 128; resolution: SDXL's native 1024 px", () => {
    expect(autoValue(llama8b({ weights: 'gptq-int4' }), 'groupSize')).toBe(128);
    expect(autoValue({ ...defaultScenario(), model: 'stabilityai/stable-diffusion-xl-base-1.0' }, 'resolution')).toBe(1024);
  });

  it('keys without an auto, and a model with no known shape, give null', () => {
    expect(autoValue(llama8b(), 'batch')).toBeNull();
    expect(autoValue({ ...defaultScenario(), model: '', params: null, mode: 'training', zero: 3 }, 'dsReduceBucket')).toBeNull();
  });
});
