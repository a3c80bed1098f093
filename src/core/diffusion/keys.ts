/**
 * What a diffusers text-to-image pipeline reads of a scenario: the keys its estimate uses (every
 * other key given with an image model is unused and warned about) and the dtypes it loads in
 * (`torch_dtype`: float32, float16 or bfloat16; the conflict table refuses other weight formats).
 */
import type { Scenario, WeightFormat } from '../types';

export const DIFFUSION_KEYS: readonly (keyof Scenario)[] = ['model', 'mode', 'weights', 'batch', 'resolution', 'cfg', 'offloadModel', 'attn', 'gpu'];

/** Keys only image-generation pipelines read (unused with a language model; `resolution` is a vision-language model's too, warned by the schema's `models`). */
export const IMAGE_ONLY_KEYS: readonly (keyof Scenario)[] = ['cfg', 'offloadModel'];

export const DIFFUSION_WEIGHTS: readonly WeightFormat[] = ['fp32', 'fp16', 'bf16'];
