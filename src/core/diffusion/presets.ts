/**
 * Text-to-image pipelines as diffusers loads them: each component's config.json fields (copied from
 * the model repository's `<component>/config.json`), what the pipeline's __call__ does with them
 * (text length, classifier-free guidance, latent packing, the VAE upcast) and the publisher's
 * parameter figures. Hand-kept like presets-hybrid.ts: the counts are derived from these configs
 * (components.ts) and tests/core/diffusion/params.test.ts holds them to the published figures.
 */
import { norm, shortName } from '../model/presets';
import type { ClipTextConfig, FluxConfig, T5EncoderConfig, UNetConfig, VaeConfig } from './components';

/** One text encoder of a pipeline and how the pipeline calls it. */
export interface TextEncoder {
  /** the pipeline's attribute: text_encoder, text_encoder_2 */
  name: string;
  config: ClipTextConfig | T5EncoderConfig;
  /** tokens per prompt: tokenizer model_max_length (CLIP 77) or the pipeline's max_sequence_length (FluxPipeline.__call__ default 512) */
  tokens: number;
  /** called with output_hidden_states=True: every layer's output is returned and held (SDXL) */
  keepsHiddenStates: boolean;
}

export interface DiffusionPreset {
  id: string;
  name: string;
  /** diffusers pipeline class, e.g. StableDiffusionXLPipeline */
  pipeline: string;
  /** the pipeline's source file in diffusers */
  pipelineSource: string;
  denoiser: UNetConfig | FluxConfig;
  vae: VaeConfig;
  textEncoders: readonly TextEncoder[];
  /** default height = width: unet.config.sample_size × vae_scale_factor (Flux: default_sample_size 128 × 8) */
  nativeResolution: number;
  /** the side must be a multiple of this: SD / SDXL check_inputs raise for height % 8; Flux rounds down to vae_scale_factor × 2 = 16 */
  sideMultiple: number;
  /** check_inputs raises (SD / SDXL) or the pipeline rounds down with a warning (Flux prepare_latents) */
  sideRule: 'error' | 'round-down';
  /** classifier-free guidance by default: SD / SDXL run the UNet on [negative, positive] (guidance_scale 7.5 / 5.0 > 1) */
  cfgDefault: boolean;
  /** CFG batches the two predictions into one denoiser call (SD / SDXL); Flux true_cfg runs a second call */
  cfgBatched: boolean;
  /** the pipeline decodes an fp16 VAE whose config sets force_upcast in fp32 (StableDiffusionXLPipeline: `needs_upcasting`, upcast_vae) */
  vaeUpcast: boolean;
  /** the pipeline's enable_model_cpu_offload order (model_cpu_offload_seq) */
  offloadSeq: string;
  /** publisher's figures, with where they are stated */
  published: { text: string; source: string };
  source: string;
}

/** openai/clip-vit-large-patch14 text tower (SD 1.5 text_encoder, SDXL text_encoder, Flux text_encoder). */
const CLIP_L: ClipTextConfig = { kind: 'clip', hidden: 768, layers: 12, heads: 12, ffn: 3072, vocab: 49408, maxPositions: 77, projectionDim: 0, quickGelu: true };

/** SD 1.5 / SDXL AutoencoderKL (4 latent channels). */
const SD_VAE = { kind: 'vae', inChannels: 3, outChannels: 3, latentChannels: 4, blockOutChannels: [128, 256, 512, 512], layersPerBlock: 2, quantConv: true } as const;

const FLUX_TRANSFORMER = { kind: 'flux', inChannels: 64, numLayers: 19, numSingleLayers: 38, heads: 24, headDim: 128, jointAttentionDim: 4096, pooledProjectionDim: 768 } as const;

/** google/t5-v1_1-xxl encoder (Flux text_encoder_2). */
const T5_XXL: T5EncoderConfig = { kind: 't5', dModel: 4096, dFf: 10240, dKv: 64, heads: 64, layers: 24, vocab: 32128, relBuckets: 32 };

const FLUX_VAE: VaeConfig = { ...SD_VAE, latentChannels: 16, quantConv: false, forceUpcast: true, scalingFactor: 0.3611 };

const fluxPreset = (id: string, name: string, guidance: boolean, published: DiffusionPreset['published']): DiffusionPreset => ({
  id,
  name,
  pipeline: 'FluxPipeline',
  pipelineSource: 'diffusers pipelines/flux/pipeline_flux.py',
  denoiser: { ...FLUX_TRANSFORMER, guidanceEmbeds: guidance },
  vae: FLUX_VAE,
  textEncoders: [
    { name: 'text_encoder', config: CLIP_L, tokens: 77, keepsHiddenStates: false },
    { name: 'text_encoder_2', config: T5_XXL, tokens: 512, keepsHiddenStates: false },
  ],
  nativeResolution: 1024,
  sideMultiple: 16,
  sideRule: 'round-down',
  cfgDefault: false,
  cfgBatched: false,
  vaeUpcast: false,
  offloadSeq: 'text_encoder->text_encoder_2->transformer->vae',
  published,
  source: `huggingface.co/${id} (transformer/, vae/, text_encoder/, text_encoder_2/ config.json)`,
});

export const DIFFUSION_PRESETS: readonly DiffusionPreset[] = [
  {
    id: 'runwayml/stable-diffusion-v1-5',
    name: 'Stable Diffusion 1.5',
    pipeline: 'StableDiffusionPipeline',
    pipelineSource: 'diffusers pipelines/stable_diffusion/pipeline_stable_diffusion.py',
    denoiser: {
      kind: 'unet',
      inChannels: 4,
      outChannels: 4,
      blockOutChannels: [320, 640, 1280, 1280],
      layersPerBlock: 2,
      crossAttn: [true, true, true, false],
      transformerLayers: [1, 1, 1, 1],
      heads: [8, 8, 8, 8],
      crossAttentionDim: 768,
      additionEmbedInput: 0,
    },
    vae: { ...SD_VAE, forceUpcast: true, scalingFactor: 0.18215 },
    textEncoders: [{ name: 'text_encoder', config: CLIP_L, tokens: 77, keepsHiddenStates: false }],
    nativeResolution: 512,
    sideMultiple: 8,
    sideRule: 'error',
    cfgDefault: true,
    cfgBatched: true,
    vaeUpcast: false,
    offloadSeq: 'text_encoder->unet->vae',
    published: {
      text: 'UNet 859,520,964 parameters (ModelMixin.num_parameters docstring); SDXL paper Table 1: UNet 860M, text encoder 123M',
      source: 'diffusers models/modeling_utils.py num_parameters; Podell et al. 2023, arXiv:2307.01952 Table 1',
    },
    source: 'huggingface.co/runwayml/stable-diffusion-v1-5 (unet/, vae/, text_encoder/ config.json)',
  },
  {
    id: 'stabilityai/stable-diffusion-xl-base-1.0',
    name: 'Stable Diffusion XL base 1.0',
    pipeline: 'StableDiffusionXLPipeline',
    pipelineSource: 'diffusers pipelines/stable_diffusion_xl/pipeline_stable_diffusion_xl.py',
    denoiser: {
      kind: 'unet',
      inChannels: 4,
      outChannels: 4,
      blockOutChannels: [320, 640, 1280],
      layersPerBlock: 2,
      crossAttn: [false, true, true],
      transformerLayers: [1, 2, 10],
      heads: [5, 10, 20],
      crossAttentionDim: 2048,
      additionEmbedInput: 2816,
    },
    vae: { ...SD_VAE, forceUpcast: true, scalingFactor: 0.13025 },
    textEncoders: [
      { name: 'text_encoder', config: CLIP_L, tokens: 77, keepsHiddenStates: true },
      {
        name: 'text_encoder_2',
        config: { kind: 'clip', hidden: 1280, layers: 32, heads: 20, ffn: 5120, vocab: 49408, maxPositions: 77, projectionDim: 1280, quickGelu: false },
        tokens: 77,
        keepsHiddenStates: true,
      },
    ],
    nativeResolution: 1024,
    sideMultiple: 8,
    sideRule: 'error',
    cfgDefault: true,
    cfgBatched: true,
    vaeUpcast: true,
    offloadSeq: 'text_encoder->text_encoder_2->unet->vae',
    published: {
      text: 'UNet 2.6B, text encoders 817M (SDXL paper Table 1)',
      source: 'Podell et al. 2023, arXiv:2307.01952 Table 1',
    },
    source: 'huggingface.co/stabilityai/stable-diffusion-xl-base-1.0 (unet/, vae/, text_encoder/, text_encoder_2/ config.json)',
  },
  fluxPreset('black-forest-labs/FLUX.1-dev', 'FLUX.1 [dev]', true, {
    text: '12 billion parameter rectified flow transformer (model card); T5-XXL encoder 4.7B',
    source: 'huggingface.co/black-forest-labs/FLUX.1-dev model card; Raffel et al. 2020 (T5 v1.1 XXL)',
  }),
  fluxPreset('black-forest-labs/FLUX.1-schnell', 'FLUX.1 [schnell]', false, {
    text: '12 billion parameter rectified flow transformer (model card)',
    source: 'huggingface.co/black-forest-labs/FLUX.1-schnell model card',
  }),
];

/** Every preset by its normalised id, then by its short name (an id always wins: ids hold a '/', short names do not). */
const BY_KEY = new Map<string, DiffusionPreset>([...DIFFUSION_PRESETS.map((p) => [shortName(p.id), p] as const), ...DIFFUSION_PRESETS.map((p) => [norm(p.id), p] as const)]);

/** The image-generation preset named by `id` (full or short name, any case); one lookup, as every estimate asks. */
export function findDiffusionPreset(id: string): DiffusionPreset | undefined {
  return BY_KEY.get(norm(id));
}

/** Is the scenario's model an image-generation pipeline? */
export const isDiffusionModel = (model: string): boolean => findDiffusionPreset(model) !== undefined;
