/**
 * The live activations of each phase of a diffusers text-to-image call, per image, derived from the
 * architecture: the tensors the forward code holds at once at the block that peaks, inference
 * (torch.no_grad: a tensor is freed when its last Python reference goes). Counted in elements of the
 * compute dtype plus fp32 elements where the code upcasts.
 *
 * Rules read from the diffusers / transformers forward code:
 * - ResnetBlock2D.forward (models/resnet.py): `input_tensor` stays referenced to the end; norm1 and
 *   the SiLU output exist together (3 × cin), then conv1 (2 × cin + cout), and at the end the shortcut
 *   (when cin ≠ cout), conv2's output, their sum and `/ output_scale_factor` (cin + 4 × cout, or
 *   cin + 3 × cout without shortcut). The caller's own reference to the block input stays too.
 * - BasicTransformerBlock (models/attention.py) at the GEGLU feed-forward: the Transformer2DModel
 *   residual, the block input, attn2's output, the sum, norm3's output, GEGLU's proj (8c), gelu(gate)
 *   (4c) and the product (4c) = 21c per token. With AttnProcessor (eager) self-attention holds the
 *   scores and the softmax (2 × heads × N² in the dtype; upcast_softmax makes them fp32); the default
 *   AttnProcessor2_0 calls SDPA, which keeps no score matrix.
 * - UNet2DConditionModel.forward (models/unets/unet_2d_condition.py): the down path's outputs are kept
 *   in `down_block_res_samples`; each up block receives its slice `res_samples` (held for the whole
 *   block) and concatenates one skip per resnet; the up path therefore peaks above the down path at
 *   the same widths, and only the mid block and up path are walked.
 * - Decoder.forward (models/autoencoders/vae.py): mid block (resnet, single-head attention over the
 *   latent pixels, resnet), then UpDecoderBlock2D at ×2 steps, each ending in Upsample2D
 *   (F.interpolate then a 3×3 conv: input, interpolated and convolved tensors together).
 */
import type { ClipTextConfig, FluxConfig, T5EncoderConfig, UNetConfig, VaeConfig } from './components';
import type { Message } from '../types';
import { unetSkips } from './components';

/** Where a phase peaks, as a message code with its numbers (core-zh words it in Chinese). */
export type PeakPlace = Required<Pick<Message, 'code' | 'params' | 'text'>>;
const place = (code: string, params: Record<string, number>, text: string): PeakPlace => ({ code: `diffusion.at.${code}`, params, text });
export const NOWHERE = place('none', {}, 'no activations');

/** Live elements per image at a phase's peak: in the compute dtype and in fp32, and where it happens. */
export interface LivePeak {
  elements: number;
  fp32: number;
  /** the block that peaks */
  where: PeakPlace;
}

/** Attention kernel of diffusers' Attention modules: SDPA (AttnProcessor2_0, the default) or eager (AttnProcessor). */
export type AttnKernel = 'sdpa' | 'eager';

const bytesOf = (p: LivePeak, e: number) => p.elements * e + p.fp32 * 4;

/** The larger of two peaks at element size e. */
function larger(a: LivePeak, b: LivePeak, e: number): LivePeak {
  return bytesOf(b, e) > bytesOf(a, e) ? b : a;
}

/** ResnetBlock2D working set over n pixels (see the header), without the caller's other tensors. */
export function resnetLive(cin: number, cout: number, n: number): number {
  return n * Math.max(3 * cin, 2 * cin + cout, cin + (cin !== cout ? 4 : 3) * cout);
}

/** One BasicTransformerBlock over n tokens of c channels: the GEGLU feed-forward or, eager, the self-attention scores. */
function transformerLive(c: number, heads: number, n: number, attn: AttnKernel): LivePeak {
  const ff: LivePeak = { elements: 21 * c * n, fp32: 0, where: place('ff', {}, 'GEGLU feed-forward') };
  // residual, block input, norm1, q, k, v, then scores + softmax per head
  const eager: LivePeak = { elements: 6 * c * n + 2 * heads * n * n, fp32: 0, where: place('eager', {}, 'eager self-attention scores') };
  return attn === 'eager' && 2 * heads * n * n + 6 * c * n > 21 * c * n ? eager : ff;
}

/** Pixels per image at each level: side, then ⌈side / 2⌉ per Downsample2D (stride 2, padding 1). */
function levelPixels(side: number, levels: number): number[] {
  const out: number[] = [];
  let s = side;
  for (let i = 0; i < levels; i++) {
    out.push(s * s);
    s = Math.ceil(s / 2);
  }
  return out;
}

/** UNet2DConditionModel: the mid block and the up path, skip tensors held as the forward holds them. */
export function unetPeak(u: UNetConfig, latentSide: number, attn: AttnKernel, e: number): LivePeak {
  const ch = u.blockOutChannels;
  const n = ch.length;
  const px = levelPixels(latentSide, n);
  const at = (l: number) => px[l] ?? 0;
  const skips = unetSkips(u).map((s) => ({ channels: s.channels, elements: s.channels * at(s.level) }));
  const sum = (xs: readonly { elements: number }[]) => xs.reduce((a, b) => a + b.elements, 0);
  const last = ch[n - 1] ?? 0;
  let best: LivePeak = { elements: 0, fp32: 0, where: NOWHERE };
  const offer = (elements: number, where: PeakPlace) => (best = larger(best, { elements, fp32: 0, where }, e));
  // mid block: resnet, transformer, resnet over the deepest level, every skip held
  const deep = at(n - 1);
  const allSkips = sum(skips);
  offer(allSkips + resnetLive(last, last, deep), place('unet-mid-resnet', { ch: last, pixels: deep }, `UNet mid block, resnet (${last} channels over ${deep} pixels)`));
  offer(
    allSkips + last * deep + transformerLive(last, u.heads[n - 1] ?? 1, deep, attn).elements,
    place('unet-mid-transformer', { ch: last, tokens: deep }, `UNet mid block, transformer (${last} channels over ${deep} tokens)`),
  );
  let prev = last;
  let sample = last * deep;
  for (let i = 0; i < n; i++) {
    const level = n - 1 - i;
    const c = ch[level] ?? 0;
    const npx = at(level);
    const mine = skips.splice(skips.length - (u.layersPerBlock + 1));
    const held = sample + sum(mine);
    for (let j = 0; j <= u.layersPerBlock; j++) {
      const cin = (j === 0 ? prev : c) + (mine[mine.length - 1 - j]?.channels ?? 0);
      offer(held + resnetLive(cin, c, npx), place('unet-up-resnet', { block: i, resnet: j, cin, cout: c, pixels: npx }, `UNet up block ${i}, resnet ${j} (${cin} → ${c} channels over ${npx} pixels)`));
      if (u.crossAttn[level]) {
        const t = transformerLive(c, u.heads[level] ?? 1, npx, attn);
        offer(
          held + t.elements,
          place(
            `unet-up-transformer-${t.where.code.endsWith('eager') ? 'eager' : 'ff'}`,
            { block: i, index: j, ch: c, tokens: npx },
            `UNet up block ${i}, transformer ${j} (${c} channels over ${npx} tokens): ${t.where.text}`,
          ),
        );
      }
    }
    if (i < n - 1) {
      const up = at(level - 1);
      offer(held + c * npx + 2 * c * up, place('unet-upsample', { block: i, ch: c, pixels: up }, `UNet up block ${i}, Upsample2D (${c} channels to ${up} pixels)`));
      sample = c * up;
    }
    prev = c;
  }
  return best;
}

/**
 * AutoencoderKL decode: the Decoder's mid block (its attention with the VAE's `upcast_softmax=True`:
 * eager scores and probabilities in fp32, one head over every latent pixel) and its up blocks.
 */
export function vaeDecodePeak(v: VaeConfig, latentSide: number, attn: AttnKernel, e: number): LivePeak {
  const ch = [...v.blockOutChannels].reverse();
  const n = ch.length;
  const last = ch[0] ?? 0;
  let best: LivePeak = { elements: 0, fp32: 0, where: NOWHERE };
  const offer = (elements: number, fp32: number, where: PeakPlace) => (best = larger(best, { elements, fp32, where }, e));
  let npx = latentSide * latentSide;
  offer(resnetLive(last, last, npx), 0, place('vae-mid-resnet', { ch: last, pixels: npx }, `VAE decoder mid block, resnet (${last} channels over ${npx} pixels)`));
  // residual (resnet output, held by the caller too), group norm, q, k, v, SDPA output, to_out
  if (attn === 'eager') offer(5 * last * npx, 2 * npx * npx, place('vae-mid-attention-eager', { tokens: npx }, `VAE decoder mid attention, eager: fp32 scores and softmax over ${npx} × ${npx}`));
  else offer(7 * last * npx, 0, place('vae-mid-attention', { tokens: npx }, `VAE decoder mid attention (SDPA over ${npx} tokens)`));
  let prev = last;
  for (let i = 0; i < n; i++) {
    const c = ch[i] ?? 0;
    for (let j = 0; j <= v.layersPerBlock; j++) {
      const cin = j === 0 ? prev : c;
      offer(
        (j === 0 ? 0 : prev * npx) + resnetLive(cin, c, npx),
        0,
        place('vae-up-resnet', { block: i, resnet: j, cin, cout: c, pixels: npx }, `VAE decoder up block ${i}, resnet ${j} (${cin} → ${c} channels over ${npx} pixels)`),
      );
    }
    if (i < n - 1) {
      offer(prev * npx + c * npx + 2 * c * 4 * npx, 0, place('vae-upsample', { block: i, ch: c, pixels: 4 * npx }, `VAE decoder up block ${i}, Upsample2D (${c} channels to ${4 * npx} pixels)`));
      npx *= 4;
    }
    prev = c;
  }
  return best;
}

/**
 * FluxTransformer2DModel: a single-stream block (FluxSingleTransformerBlock.forward) over image +
 * text tokens, at the rotary embedding of k: the previous block's output and the concatenated
 * residual, the norm output, the MLP branch after GELU (4d), q, k and v, and apply_rotary_emb's
 * temporaries (x.float()·cos and x_rotated.float()·sin in fp32, x_rotated: 7d in dtype units). The
 * double-stream blocks hold less per token (two GELU feed-forwards of one stream each). Flux's
 * attention processor calls SDPA whatever `attn` says.
 */
export function fluxPeak(f: FluxConfig, tokens: number): LivePeak {
  const d = f.heads * f.headDim;
  return {
    elements: 11 * d * tokens,
    fp32: 3 * d * tokens,
    where: place('flux-single', { tokens, inner: d }, `Flux single-stream block, at the rotary embedding of k (${tokens} image + text tokens × ${d})`),
  };
}

/**
 * A CLIP text encoder layer (transformers CLIPEncoderLayer, SDPA attention): at the MLP, the
 * residual, the LayerNorm output, fc1 and the activation (quick_gelu x·sigmoid(1.702x) holds one
 * more); with output_hidden_states every layer's output is kept.
 */
export function clipPeak(c: ClipTextConfig, tokens: number, keepsHiddenStates: boolean): LivePeak {
  const mlp = 2 * c.hidden + (c.quickGelu ? 3 : 2) * c.ffn;
  const attnLive = 6 * c.hidden;
  const kept = keepsHiddenStates ? (c.layers + 1) * c.hidden : 0;
  return {
    elements: (Math.max(mlp, attnLive) + kept) * tokens,
    fp32: 0,
    where: keepsHiddenStates
      ? place('clip-mlp-kept', { tokens }, `CLIP layer MLP over ${tokens} tokens, every hidden state kept`)
      : place('clip-mlp', { tokens }, `CLIP layer MLP over ${tokens} tokens`),
  };
}

/**
 * A T5 encoder layer (transformers T5Attention, eager): input, normed input, q, k, v, the scores
 * and the position bias (dtype), `softmax(scores.float())` (fp32 input and output); or the gated
 * feed-forward (wi_0 after GELU, wi_1, their product).
 */
export function t5Peak(t: T5EncoderConfig, tokens: number, e: number): LivePeak {
  const inner = t.heads * t.dKv;
  const attn: LivePeak = {
    elements: (2 * t.dModel + 3 * inner) * tokens + 2 * t.heads * tokens * tokens,
    fp32: 2 * t.heads * tokens * tokens,
    where: place('t5-softmax', { heads: t.heads, tokens }, `T5 attention softmax (${t.heads} heads × ${tokens}²)`),
  };
  const ff: LivePeak = { elements: (2 * t.dModel + 3 * t.dFf) * tokens, fp32: 0, where: place('t5-ff', { tokens }, `T5 gated feed-forward over ${tokens} tokens`) };
  return larger(ff, attn, e);
}

export { bytesOf as liveBytes };
