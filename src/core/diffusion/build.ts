/**
 * A diffusers text-to-image call as memory, phase by phase (inference only):
 * 1. text encoding — each text encoder on the prompts (pipeline `encode_prompt`);
 * 2. denoising — the UNet on [negative, positive] latents when classifier-free guidance batches them
 *    (StableDiffusion(XL)Pipeline: `torch.cat([latents] * 2)` when guidance_scale > 1), or the Flux
 *    transformer on packed 2×2 latent patches plus the T5 tokens (FluxPipeline `_pack_latents`;
 *    FLUX.1-dev is guidance-distilled: its guidance is an embedding, no second batch);
 * 3. VAE decode of the whole batch at full resolution (`vae.decode`), in fp32 for an fp16 SDXL VAE
 *    (StableDiffusionXLPipeline `needs_upcasting` → `upcast_vae`).
 * Peak = max over phases of (weights resident in that phase + that phase's live activations); all
 * components stay resident after `pipe.to("cuda")`, only the running one under
 * `enable_model_cpu_offload` (accelerate `cpu_offload_with_hook` chained in `model_cpu_offload_seq`).
 */
import type { Built } from '../estimate-context';
import { term, workspaceTerm } from '../estimate-context';
import { add, evaluate, mul, sym, type Expr } from '../formula';
import { bytesPerParamNominal } from '../formats/weights';
import { CUBLAS_WORKSPACE_BYTES } from '../runtime';
import type { FieldError, Message, Result, Scenario, Term } from '../types';
import { NOWHERE, clipPeak, fluxPeak, liveBytes, t5Peak, unetPeak, vaeDecodePeak, type LivePeak } from './activations';
import { componentParams } from './components';
import type { DiffusionPreset } from './presets';
import { provideDiffusion } from './provider';

/** The pipeline's settings as this scenario resolves them. */
export interface DiffusionRun {
  /** image side in pixels as the pipeline runs it */
  side: number;
  latentSide: number;
  cfg: boolean;
  /** images per denoiser call (2 × batch under batched CFG) */
  denoiseBatch: number;
  /** Flux: packed image tokens + text tokens */
  tokens: number;
}

/** Image side, guidance and denoiser batch; an error when the pipeline would refuse the side. */
export function diffusionRun(s: Scenario, p: DiffusionPreset): Result<DiffusionRun> {
  const asked = s.resolution ?? p.nativeResolution;
  if (asked % p.sideMultiple !== 0 && p.sideRule === 'error') {
    const err: FieldError = {
      key: 'resolution',
      code: 'diffusion.side-multiple',
      message: `resolution ${asked}: ${p.pipeline} needs a side divisible by ${p.sideMultiple} (its check_inputs raises)`,
      params: { value: asked, multiple: p.sideMultiple, pipeline: p.pipeline },
    };
    return { ok: false, errors: [err] };
  }
  const side = Math.floor(asked / p.sideMultiple) * p.sideMultiple;
  if (side === 0) {
    return {
      ok: false,
      errors: [
        {
          key: 'resolution',
          code: 'diffusion.side-small',
          message: `resolution must be at least ${p.sideMultiple} pixels for ${p.pipeline}`,
          params: { multiple: p.sideMultiple, pipeline: p.pipeline },
        },
      ],
    };
  }
  const latentSide = side / 8;
  const cfg = s.cfg === 'auto' ? p.cfgDefault : s.cfg === 'on';
  const t5 = p.denoiser.kind === 'flux' ? Math.max(...p.textEncoders.map((t) => t.tokens)) : 0;
  return { ok: true, value: { side, latentSide, cfg, denoiseBatch: cfg && p.cfgBatched ? 2 * s.batch : s.batch, tokens: (side / 16) ** 2 + t5 } };
}

interface Phase {
  id: 'text-encoding' | 'denoising' | 'vae-decode';
  /** weights resident while it runs */
  weights: number;
  activations: number;
}

const NOT_GUESSED = { guessed: false };

/** Which phase sets the peak, one message per phase (the page translates each code). */
const PEAK_NOTE: Record<Phase['id'], Message> = {
  'text-encoding': {
    code: 'diffusion.peak-text-encoding',
    text: 'The phases run one after another: the peak is at text encoding (the weights resident then + its activations), not the sum of the three activation terms.',
  },
  denoising: {
    code: 'diffusion.peak-denoising',
    text: 'The phases run one after another: the peak is at denoising (the weights resident then + its activations), not the sum of the three activation terms.',
  },
  'vae-decode': {
    code: 'diffusion.peak-vae-decode',
    text: 'The phases run one after another: the peak is at the VAE decode (the weights resident then + its activations), not the sum of the three activation terms.',
  },
};

/** The estimate's terms and peak for a diffusion preset. */
export function buildDiffusion(s: Scenario, p: DiffusionPreset): Result<Built> {
  const r = diffusionRun(s, p);
  if (!r.ok) return r;
  const run = r.value;
  const e = bytesPerParamNominal(s.weights);
  const upcast = p.vaeUpcast && s.weights === 'fp16' && p.vae.forceUpcast;
  const eVae = upcast ? 4 : e;
  const attn = s.attn === 'eager' ? 'eager' : 'sdpa';
  const offload = s.offloadModel === 'on';
  const P = {
    denoiser: componentParams(p.denoiser),
    vae: componentParams(p.vae),
    encoders: p.textEncoders.map((t) => componentParams(t.config)),
  };
  const allEncoders = P.encoders.reduce((a, b) => a + b, 0);
  const denoiserName = p.denoiser.kind === 'flux' ? 'transformer' : 'unet';

  // 1. text encoders, one call per encoder (the negative prompt is a second call of the same size)
  const encoderPeaks = p.textEncoders.map((t): LivePeak => (t.config.kind === 'clip' ? clipPeak(t.config, t.tokens, t.keepsHiddenStates) : t5Peak(t.config, t.tokens, e)));
  const allResident = (P.denoiser + P.vae + allEncoders) * e;
  const textTotals = encoderPeaks.map((pk, i) => (offload ? (P.encoders[i] ?? 0) * e : allResident) + s.batch * liveBytes(pk, e));
  const textAt = textTotals.indexOf(Math.max(...textTotals));
  const textPeak = encoderPeaks[textAt] ?? { elements: 0, fp32: 0, where: NOWHERE };
  const textEncoder = p.textEncoders[textAt];

  // 2. denoiser
  const d = p.denoiser;
  const denoisePeak = d.kind === 'flux' ? fluxPeak(d, run.tokens) : unetPeak(d, run.latentSide, attn, e);
  const latentCh = p.vae.latentChannels;
  const latentPx = run.latentSide * run.latentSide;
  let held: Expr;
  let heldValues: Record<string, string | number>;
  if (d.kind === 'flux') {
    const imageTokens = run.tokens - (textEncoder?.tokens ?? 0);
    const t5Tokens = run.tokens - imageTokens;
    held = add(mul(sym('b', s.batch), add(mul(imageTokens, 4 * latentCh), mul(t5Tokens, d.jointAttentionDim)), sym('e', e)), mul(2, run.tokens, d.headDim, 4));
    heldValues = { held: 'packed latents (b·N_img·64) and T5 embeddings (b·512·4096) in the dtype; rotary cos and sin (2·N·128 fp32)' };
  } else {
    held = mul(add(mul(add(sym('b', s.batch), sym('b_unet', run.denoiseBatch)), latentCh, latentPx), mul(sym('b_unet', run.denoiseBatch), 77, d.crossAttentionDim)), sym('e', e));
    heldValues = { held: 'latents (b·4·(side/8)²), latent_model_input (b_unet·4·(side/8)²) and prompt embeddings (b_unet·77·cross_attention_dim)' };
  }
  const denoiseActs: Expr = add(mul(sym('b_unet', run.denoiseBatch), add(mul(sym('n_denoise', denoisePeak.elements), sym('e', e)), mul(sym('n_denoise_fp32', denoisePeak.fp32), 4))), held);

  // 3. VAE decode of the whole batch
  const vaePeak = vaeDecodePeak(p.vae, run.latentSide, attn, eVae);
  const vaeActs: Expr = mul(sym('b', s.batch), add(mul(sym('n_vae', vaePeak.elements), sym('e_vae', eVae)), mul(sym('n_vae_fp32', vaePeak.fp32), 4), mul(latentCh, latentPx, sym('e', e))));

  const phases: Phase[] = [
    { id: 'text-encoding', weights: offload ? (P.encoders[textAt] ?? 0) * e : allResident, activations: s.batch * liveBytes(textPeak, e) },
    { id: 'denoising', weights: offload ? P.denoiser * e : allResident, activations: evaluate(denoiseActs) },
    { id: 'vae-decode', weights: offload ? P.vae * eVae : (P.denoiser + allEncoders) * e + P.vae * eVae, activations: evaluate(vaeActs) },
  ];
  const peak = phases.reduce((a, b) => (b.weights + b.activations > a.weights + a.activations ? b : a));

  const resident: Expr[] = [];
  const comp = (name: string, n: number, bytes: Expr) => resident.push(mul(sym(`P_${name}`, n), bytes));
  const onGpu = (what: 'text' | 'denoiser' | 'vae') => !offload || (peak.id === 'text-encoding' ? what === 'text' : peak.id === 'denoising' ? what === 'denoiser' : what === 'vae');
  if (onGpu('text')) p.textEncoders.forEach((t, i) => (!offload || i === textAt) && comp(t.name, P.encoders[i] ?? 0, sym('e', e)));
  if (onGpu('denoiser')) comp(denoiserName, P.denoiser, sym('e', e));
  if (onGpu('vae')) comp('vae', P.vae, peak.id === 'vae-decode' ? sym('e_vae', eVae) : sym('e', e));

  const src = `${p.pipelineSource}; diffusers models (components.ts, activations.ts)`;
  const terms: Term[] = [
    term(NOT_GUESSED, 'weights', add(...resident), {
      values: { dtype: s.weights, phase: peak.id, offload: offload ? 'enable_model_cpu_offload' : 'pipe.to("cuda")', ...(upcast ? { vae: 'upcast to fp32 for decode (force_upcast)' } : {}) },
      source: `${p.source}; parameters counted from the configs (core/diffusion/components.ts)`,
      confidence: 'exact',
    }),
    term(NOT_GUESSED, 'text-encoding', mul(sym('b', s.batch), add(mul(sym('n_text', textPeak.elements), sym('e', e)), mul(sym('n_text_fp32', textPeak.fp32), 4))), {
      values: { encoder: textEncoder?.name ?? '' },
      source: `${src}; transformers modeling_clip.py / modeling_t5.py`,
      confidence: 'derived',
      note: textPeak.where,
    }),
    term(NOT_GUESSED, 'denoising', denoiseActs, {
      values: {
        cfg: run.cfg ? (p.cfgBatched ? 'batched: b_unet = 2·b' : 'true CFG: a second call, same size') : 'off',
        attention: d.kind === 'flux' ? 'sdpa' : attn,
        ...heldValues,
      },
      source: `${src}; ${d.kind === 'flux' ? 'transformer_flux.py FluxSingleTransformerBlock, embeddings.py apply_rotary_emb' : 'unet_2d_condition.py, resnet.py ResnetBlock2D, attention.py BasicTransformerBlock / GEGLU'}`,
      confidence: 'derived',
      note: denoisePeak.where,
    }),
    term(NOT_GUESSED, 'vae-decode', vaeActs, {
      values: { side: run.side, dtype: upcast ? 'fp32 (upcast_vae)' : s.weights },
      source: `${src}; autoencoders/vae.py Decoder, resnet.py Upsample2D`,
      confidence: 'derived',
      note: vaePeak.where,
    }),
    workspaceTerm(NOT_GUESSED),
  ];
  const peakActs = peak.activations;
  const notes: Message[] = [
    { ...PEAK_NOTE[peak.id], params: { text: phases[0]!.weights + phases[0]!.activations, denoise: phases[1]!.weights + phases[1]!.activations, vae: phases[2]!.weights + phases[2]!.activations } },
    {
      code: 'diffusion.not-counted',
      text: 'Not counted: the SD 1.5 safety checker (load with safety_checker=None), cuDNN convolution workspaces, and memory freed between phases that the caching allocator keeps reserved.',
    },
  ];
  if (run.side !== (s.resolution ?? p.nativeResolution)) {
    notes.push({
      code: 'diffusion.side-rounded',
      params: { asked: s.resolution ?? p.nativeResolution, side: run.side },
      text: `${p.pipeline} rounds the side down to a multiple of ${p.sideMultiple}: ${run.side} px.`,
    });
  }
  return {
    ok: true,
    value: {
      terms,
      allocatedBytes: peak.weights + peakActs + CUBLAS_WORKSPACE_BYTES,
      live: [
        { bytes: peak.weights, count: 1 },
        { bytes: peakActs, count: 1 },
        { bytes: CUBLAS_WORKSPACE_BYTES, count: 1 },
      ],
      torchAllocator: true,
      trainable: 0,
      notes,
    },
  };
}

/** Parameters of every component of the pipeline (denoiser, VAE, text encoders). */
export function diffusionParams(p: DiffusionPreset): number {
  return componentParams(p.denoiser) + componentParams(p.vae) + p.textEncoders.reduce((n, t) => n + componentParams(t.config), 0);
}

// estimate() prices image models through this once this module is loaded (provider.ts)
provideDiffusion((s, p) => {
  const built = buildDiffusion(s, p);
  return built.ok ? { ok: true, value: { built: built.value, params: diffusionParams(p) } } : built;
});
