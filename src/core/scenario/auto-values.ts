/**
 * The number a key set to 'auto' (or 'all') stands for in a scenario: what the estimate uses in its
 * place, read from the same resolver the estimate calls, so the page can show it in the field while
 * 'auto' is ticked instead of the schema's minimum.
 */
import { findDiffusionPreset } from '../diffusion/presets';
import { resolvedArch } from '../estimate';
import { DEFAULT_GROUP_SIZE } from '../formats/quantized';
import { kvLayers } from '../inference/kv';
import { gpuLayerCount } from '../inference/llamacpp-split';
import { LLAMACPP_DEFAULT_UBATCH, VLLM_DEFAULT_BATCHED_TOKENS } from '../inference/engine-provider';
import { nativeSide } from '../model/vision-tokens';
import { meanLength } from '../timeline/mean-length';
import { hfAutoBuckets } from '../training/ds-auto';
import type { Scenario } from '../types';
import { ruleArch } from './rules';

/**
 * The value `prop`'s null stands for with `s`, or null where it has none (the key does not apply, or
 * the model's shape is unknown):
 * - `group-size`: 128 (formats/quantized.ts);
 * - `resolution`: an image-generation pipeline's native side, else a vision tower's input size;
 * - `len-mean`: seq/2 within [1, seq] (timeline/lengths.ts `meanLength`);
 * - `ds-reduce-bucket`, `ds-prefetch-bucket`, `ds-persist-threshold`: HF Trainer's fill-in from the
 *   hidden size (training/zero-deepspeed.ts `hfAutoBuckets`);
 * - `ngl`: every layer and the output layer (inference/llamacpp-split.ts `gpuLayerCount`);
 * - `ubatch`: llama.cpp's n_ubatch 512, vLLM's max_num_batched_tokens 8192.
 */
export function autoValue(s: Scenario, prop: keyof Scenario): number | null {
  switch (prop) {
    case 'groupSize':
      return DEFAULT_GROUP_SIZE;
    case 'lenMean':
      return Math.round(meanLength(s.seq, null));
    case 'ubatch':
      return s.engine === 'llama.cpp' ? LLAMACPP_DEFAULT_UBATCH : s.engine === 'vllm' ? VLLM_DEFAULT_BATCHED_TOKENS : null;
    case 'resolution': {
      const diffusion = findDiffusionPreset(s.model);
      if (diffusion) return diffusion.nativeResolution;
      const v = ruleArch(s)?.vision;
      return v ? nativeSide(v) : null;
    }
    case 'ngl': {
      const arch = s.engine === 'llama.cpp' ? resolvedArch(s) : null;
      return arch ? gpuLayerCount(kvLayers(arch), null) : null;
    }
    case 'dsReduceBucket':
    case 'dsPrefetchBucket':
    case 'dsPersistThreshold': {
      const hidden = ruleArch(s)?.hidden;
      if (hidden === undefined) return null;
      const auto = hfAutoBuckets(hidden);
      return prop === 'dsReduceBucket' ? auto.reduceBucket : prop === 'dsPrefetchBucket' ? auto.prefetchBucket : auto.persistThreshold;
    }
    default:
      return null;
  }
}
