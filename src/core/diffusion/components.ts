/**
 * The components of a diffusers text-to-image pipeline, as their config.json files spell them,
 * and their parameter counts derived from those configs. Each count walks the module tree of the
 * diffusers / transformers class that reads the config:
 * - UNet2DConditionModel: diffusers `models/unets/unet_2d_condition.py` (down / mid / up blocks from
 *   `unet_2d_blocks.py`, ResnetBlock2D from `models/resnet.py`, Transformer2DModel and
 *   BasicTransformerBlock from `models/transformers/transformer_2d.py`, `models/attention.py`);
 * - AutoencoderKL: `models/autoencoders/autoencoder_kl.py` and `vae.py` (Encoder, Decoder);
 * - FluxTransformer2DModel: `models/transformers/transformer_flux.py`;
 * - CLIPTextModel(WithProjection): transformers `models/clip/modeling_clip.py`;
 * - T5EncoderModel: transformers `models/t5/modeling_t5.py` (gated-GELU v1.1 layout).
 */

/** UNet2DConditionModel config fields that set its shape (diffusers names, camel-cased). */
export interface UNetConfig {
  kind: 'unet';
  inChannels: number;
  outChannels: number;
  blockOutChannels: readonly number[];
  layersPerBlock: number;
  /** per level: the down block is CrossAttnDownBlock2D (true) or DownBlock2D (false); the up path mirrors it */
  crossAttn: readonly boolean[];
  /** transformer_layers_per_block, per level (the mid block uses the last) */
  transformerLayers: readonly number[];
  /** heads per level: diffusers reads `attention_head_dim` as the head count when num_attention_heads is absent */
  heads: readonly number[];
  crossAttentionDim: number;
  /** SDXL `addition_embed_type: "text_time"`: projection_class_embeddings_input_dim of add_embedding (0: none) */
  additionEmbedInput: number;
}

/** AutoencoderKL config fields. */
export interface VaeConfig {
  kind: 'vae';
  inChannels: number;
  outChannels: number;
  latentChannels: number;
  blockOutChannels: readonly number[];
  layersPerBlock: number;
  /** use_quant_conv / use_post_quant_conv (false for Flux's VAE) */
  quantConv: boolean;
  /** config force_upcast: the SDXL pipeline decodes an fp16 VAE in fp32 */
  forceUpcast: boolean;
  scalingFactor: number;
}

/** FluxTransformer2DModel config fields. */
export interface FluxConfig {
  kind: 'flux';
  inChannels: number;
  numLayers: number;
  numSingleLayers: number;
  heads: number;
  headDim: number;
  jointAttentionDim: number;
  pooledProjectionDim: number;
  guidanceEmbeds: boolean;
}

/** CLIPTextModel / CLIPTextModelWithProjection config fields. */
export interface ClipTextConfig {
  kind: 'clip';
  hidden: number;
  layers: number;
  heads: number;
  ffn: number;
  vocab: number;
  maxPositions: number;
  /** CLIPTextModelWithProjection: text_projection (hidden → projection_dim, no bias); 0 without */
  projectionDim: number;
  /** hidden_act quick_gelu (x·sigmoid(1.702x): one more temporary) */
  quickGelu: boolean;
}

/** T5EncoderModel (v1.1: gated GELU, untied, relative position buckets) config fields. */
export interface T5EncoderConfig {
  kind: 't5';
  dModel: number;
  dFf: number;
  dKv: number;
  heads: number;
  layers: number;
  vocab: number;
  relBuckets: number;
}

export type ComponentConfig = UNetConfig | VaeConfig | FluxConfig | ClipTextConfig | T5EncoderConfig;

/** nn.Conv2d(cin, cout, k) with bias. */
const conv = (cin: number, cout: number, k: number) => cin * cout * k * k + cout;
/** nn.Linear(din, dout), with or without bias. */
const linear = (din: number, dout: number, bias = true) => din * dout + (bias ? dout : 0);
/** GroupNorm / LayerNorm with affine weight and bias. */
const norm = (c: number) => 2 * c;

/** ResnetBlock2D(cin, cout, temb): norm1, conv1, time_emb_proj (when temb > 0), norm2, conv2, 1×1 conv_shortcut when cin ≠ cout. */
export function resnetParams(cin: number, cout: number, temb: number): number {
  return norm(cin) + conv(cin, cout, 3) + (temb > 0 ? linear(temb, cout) : 0) + norm(cout) + conv(cout, cout, 3) + (cin !== cout ? conv(cin, cout, 1) : 0);
}

/**
 * Transformer2DModel over `c` channels with `layers` BasicTransformerBlocks (inner dim = c: heads ×
 * c/heads): GroupNorm, proj_in and proj_out (1×1 conv or Linear, same count); per block three
 * LayerNorms, self-attention (q, k, v without bias, out with bias), cross-attention (k, v from the
 * text width) and the GEGLU feed-forward (c → 8c with bias, 4c → c with bias).
 */
export function transformer2dParams(c: number, layers: number, crossDim: number): number {
  const block = 3 * norm(c) + (3 * c * c + linear(c, c)) + (c * c + 2 * crossDim * c + linear(c, c)) + linear(c, 8 * c) + linear(4 * c, c);
  return norm(c) + 2 * linear(c, c) + layers * block;
}

/** The skip tensors the UNet's down path hands to the up path: channels and level (0 = latent size), in order. */
export function unetSkips(u: UNetConfig): { channels: number; level: number }[] {
  const out = [{ channels: u.blockOutChannels[0] ?? 0, level: 0 }];
  u.blockOutChannels.forEach((c, i) => {
    for (let j = 0; j < u.layersPerBlock; j++) out.push({ channels: c, level: i });
    if (i < u.blockOutChannels.length - 1) out.push({ channels: c, level: i + 1 });
  });
  return out;
}

/** UNet2DConditionModel parameters (unet_2d_condition.py __init__, in module order). */
export function unetParams(u: UNetConfig): number {
  const ch = u.blockOutChannels;
  const n = ch.length;
  const c0 = ch[0] ?? 0;
  const temb = 4 * c0;
  let p = conv(u.inChannels, c0, 3) + linear(c0, temb) + linear(temb, temb);
  if (u.additionEmbedInput > 0) p += linear(u.additionEmbedInput, temb) + linear(temb, temb);
  let prev = c0;
  for (let i = 0; i < n; i++) {
    const c = ch[i] ?? 0;
    for (let j = 0; j < u.layersPerBlock; j++) {
      p += resnetParams(j === 0 ? prev : c, c, temb);
      if (u.crossAttn[i]) p += transformer2dParams(c, u.transformerLayers[i] ?? 1, u.crossAttentionDim);
    }
    if (i < n - 1) p += conv(c, c, 3); // Downsample2D
    prev = c;
  }
  const last = ch[n - 1] ?? 0;
  p += 2 * resnetParams(last, last, temb) + transformer2dParams(last, u.transformerLayers[n - 1] ?? 1, u.crossAttentionDim);
  const skips = unetSkips(u).map((s) => s.channels);
  prev = last;
  for (let i = 0; i < n; i++) {
    const level = n - 1 - i;
    const c = ch[level] ?? 0;
    for (let j = 0; j <= u.layersPerBlock; j++) {
      const skip = skips.pop() ?? 0;
      p += resnetParams((j === 0 ? prev : c) + skip, c, temb);
      if (u.crossAttn[level]) p += transformer2dParams(c, u.transformerLayers[level] ?? 1, u.crossAttentionDim);
    }
    if (i < n - 1) p += conv(c, c, 3); // Upsample2D
    prev = c;
  }
  return p + norm(c0) + conv(c0, u.outChannels, 3);
}

/** UNetMidBlock2D without time embedding: resnet, single-head attention with GroupNorm and biased q/k/v/out, resnet. */
function vaeMidParams(c: number): number {
  return 2 * resnetParams(c, c, 0) + norm(c) + 4 * linear(c, c);
}

/** AutoencoderKL parameters: Encoder (double_z), Decoder, quant_conv and post_quant_conv when used. */
export function vaeParams(v: VaeConfig): number {
  const ch = v.blockOutChannels;
  const n = ch.length;
  const first = ch[0] ?? 0;
  const last = ch[n - 1] ?? 0;
  let enc = conv(v.inChannels, first, 3);
  let prev = first;
  ch.forEach((c, i) => {
    for (let j = 0; j < v.layersPerBlock; j++) enc += resnetParams(j === 0 ? prev : c, c, 0);
    if (i < n - 1) enc += conv(c, c, 3);
    prev = c;
  });
  enc += vaeMidParams(last) + norm(last) + conv(last, 2 * v.latentChannels, 3);
  let dec = conv(v.latentChannels, last, 3) + vaeMidParams(last);
  prev = last;
  for (let i = 0; i < n; i++) {
    const c = ch[n - 1 - i] ?? 0;
    for (let j = 0; j <= v.layersPerBlock; j++) dec += resnetParams(j === 0 ? prev : c, c, 0);
    if (i < n - 1) dec += conv(c, c, 3);
    prev = c;
  }
  dec += norm(first) + conv(first, v.outChannels, 3);
  const quant = v.quantConv ? conv(2 * v.latentChannels, 2 * v.latentChannels, 1) + conv(v.latentChannels, v.latentChannels, 1) : 0;
  return enc + dec + quant;
}

/**
 * FluxTransformer2DModel parameters (d = heads × head_dim): x_embedder, the timestep (and guidance)
 * TimestepEmbedding(256, d), the pooled-text PixArtAlphaTextProjection, context_embedder; each
 * double-stream block: two AdaLayerNormZero (d → 6d), q/k/v and added q/k/v (with bias), four
 * RMSNorm(head_dim) weights, to_out and to_add_out, two GELU feed-forwards (d → 4d → d); each
 * single-stream block: AdaLayerNormZeroSingle (d → 3d), q/k/v, two RMSNorm weights, proj_mlp (d → 4d),
 * proj_out (5d → d); norm_out (d → 2d) and proj_out (d → in_channels).
 */
export function fluxParams(f: FluxConfig): number {
  const d = f.heads * f.headDim;
  const timestep = linear(256, d) + linear(d, d);
  const embed = linear(f.inChannels, d) + timestep * (f.guidanceEmbeds ? 2 : 1) + linear(f.pooledProjectionDim, d) + linear(d, d) + linear(f.jointAttentionDim, d);
  const double = 2 * linear(d, 6 * d) + 8 * linear(d, d) + 4 * f.headDim + 2 * (linear(d, 4 * d) + linear(4 * d, d));
  const single = linear(d, 3 * d) + 3 * linear(d, d) + 2 * f.headDim + linear(d, 4 * d) + linear(5 * d, d);
  return embed + f.numLayers * double + f.numSingleLayers * single + linear(d, 2 * d) + linear(d, f.inChannels);
}

/** CLIP text transformer: token and position embeddings, pre-LN blocks (attention with biases, fc1/fc2), final LayerNorm, optional projection. */
export function clipTextParams(c: ClipTextConfig): number {
  const h = c.hidden;
  const block = 2 * norm(h) + 4 * linear(h, h) + linear(h, c.ffn) + linear(c.ffn, h);
  return (c.vocab + c.maxPositions) * h + c.layers * block + norm(h) + (c.projectionDim > 0 ? h * c.projectionDim : 0);
}

/** T5 v1.1 encoder: shared embedding, per block q/k/v/o without bias, wi_0/wi_1/wo, two RMS LayerNorm weights; relative bias in block 0; final norm. */
export function t5EncoderParams(t: T5EncoderConfig): number {
  const inner = t.heads * t.dKv;
  const block = 4 * t.dModel * inner + 3 * t.dModel * t.dFf + 2 * t.dModel;
  return t.vocab * t.dModel + t.layers * block + t.relBuckets * t.heads + t.dModel;
}

/** Parameters of any component. */
export function componentParams(c: ComponentConfig): number {
  switch (c.kind) {
    case 'unet':
      return unetParams(c);
    case 'vae':
      return vaeParams(c);
    case 'flux':
      return fluxParams(c);
    case 'clip':
      return clipTextParams(c);
    case 't5':
      return t5EncoderParams(c);
  }
}
