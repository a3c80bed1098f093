/**
 * Vision towers of multimodal configs (`vision_config`), counted so a preset's total matches
 * the published one (docs/reference/formulas.md §1.4: "Vision towers must be counted separately"),
 * and described as they run (types.ts VisionTower) for the image tokens and the encoder's forward.
 * Supported, each from its HF modeling file:
 * - SigLIP (`siglip_vision_model`, modeling_siglip.py): Conv2d patch embedding with bias, learned
 *   positions, pre-norm layers with biased q/k/v/o and fc1/fc2, post LayerNorm, optional
 *   attention-pooling head; Gemma-3's projector (modeling_gemma3.py Gemma3MultiModalProjector:
 *   RMSNorm of the vision width + a vision×text matrix), `mm_tokens_per_image` tokens per image.
 *   Checked: Gemma-3 4B/12B/27B totals (keras-hub counts, which include the tower) match exactly.
 * - CLIP (`clip_vision_model`, modeling_clip.py CLIPVisionTransformer): Conv2d patch embedding
 *   without bias, a class embedding, positions for patches + 1, pre- and post-LayerNorm, the same
 *   layers; LLaVA's projector (modeling_llava.py LlavaMultiModalProjector: Linear(h_v, h) + GELU +
 *   Linear(h, h), biased by default). LLaVA calls the tower with output_hidden_states=True and
 *   drops the class token ('default' feature strategy): (image/patch)² tokens per image.
 * - Qwen2-VL (`model_type: qwen2_vl`, modeling_qwen2_vl.py Qwen2VisionTransformerPretrainedModel):
 *   Conv3d patch embedding (temporal 2, no bias), blocks of LayerNorm + fused qkv (bias) + proj +
 *   fc1/fc2 of embed_dim·mlp_ratio, PatchMerger (LayerNorm, Linear(m²E, m²E), GELU, Linear(m²E, h)).
 *   Dynamic resolution (image_processing_qwen2_vl.py smart_resize), attention image by image.
 */
import type { FieldError, VisionTower } from '../types';
import { FieldReader, MAX_DIM, isObject, type Json } from './fields';

/**
 * Qwen2-VL's processor bounds (preprocessor_config.json of the Qwen2-VL checkpoints: min_pixels
 * 3136, max_pixels 12845056; the model card: "the default range for the number of visual tokens
 * per image in the model is 4-16384", i.e. 4·28² to 16384·28² pixels).
 */
const QWEN2_VL_PIXELS = { minPixels: 4 * 28 * 28, maxPixels: 16384 * 28 * 28 };

interface Parsed {
  params: number;
  tower: VisionTower;
}

/** One pre-norm ViT layer with biased q/k/v/o, fc1/fc2 and two LayerNorms (CLIP, SigLIP, Qwen2-VL). */
function vitLayer(h: number, f: number): number {
  return 4 * (h * h + h) + (h * f + f + f * h + h) + 2 * 2 * h;
}

function siglip(r: FieldReader, raw: Json, textHidden: number): Parsed | undefined {
  const h = r.int(['hidden_size']);
  const f = r.int(['intermediate_size']);
  const L = r.int(['num_hidden_layers'], undefined, 1, 10_000);
  const heads = r.int(['num_attention_heads'], 12) ?? 12;
  const patch = r.int(['patch_size']);
  const image = r.int(['image_size']);
  const channels = r.int(['num_channels'], 3) ?? 3;
  if (h === undefined || f === undefined || L === undefined || patch === undefined || image === undefined) return undefined;
  const ln = 2 * h;
  const mlp = h * f + f + f * h + h;
  const embed = channels * patch * patch * h + h + Math.floor(image / patch) ** 2 * h;
  // SiglipMultiheadAttentionPoolingHead: probe, in_proj (3h×h + 3h), out_proj, LayerNorm, MLP.
  const head = r.cfg.vision_use_head === true ? h + 3 * h * h + 3 * h + h * h + h + ln + mlp : 0;
  const gemma = raw.model_type === 'gemma3';
  const projector = gemma ? h + h * textHidden : 0;
  // Gemma3Config mm_tokens_per_image (default 256): the 64×64 patches average-pooled 4×4
  const tokens = typeof raw.mm_tokens_per_image === 'number' && Number.isInteger(raw.mm_tokens_per_image) && raw.mm_tokens_per_image > 0 ? raw.mm_tokens_per_image : 256;
  return {
    params: embed + L * vitLayer(h, f) + ln + head + projector,
    tower: { hidden: h, layers: L, heads, ffn: f, patch, imageSize: image, tokensPerImage: tokens, merge: null, classToken: false, keepsAllHidden: false, perImageAttention: false },
  };
}

function clip(r: FieldReader, raw: Json, textHidden: number): Parsed | undefined {
  // CLIPVisionConfig defaults: 768 / 3072 / 12 layers / 12 heads, 224 px, patch 32
  const h = r.int(['hidden_size'], 768) ?? 768;
  const f = r.int(['intermediate_size'], 3072) ?? 3072;
  const L = r.int(['num_hidden_layers'], 12, 1, 10_000) ?? 12;
  const heads = r.int(['num_attention_heads'], 12) ?? 12;
  const patch = r.int(['patch_size'], 32) ?? 32;
  const image = r.int(['image_size'], 224) ?? 224;
  const channels = r.int(['num_channels'], 3) ?? 3;
  const n = Math.floor(image / patch) ** 2;
  const embed = channels * patch * patch * h + h + (n + 1) * h;
  const tower = embed + 2 * h + L * vitLayer(h, f) + 2 * h;
  const bias = raw.multimodal_projector_bias !== false;
  const projector = h * textHidden + textHidden * textHidden + (bias ? 2 * textHidden : 0);
  const full = raw.vision_feature_select_strategy === 'full';
  return {
    params: tower + projector,
    tower: { hidden: h, layers: L, heads, ffn: f, patch, imageSize: image, tokensPerImage: full ? n + 1 : n, merge: null, classToken: true, keepsAllHidden: true, perImageAttention: false },
  };
}

function qwen2vl(r: FieldReader, textHidden: number): Parsed | undefined {
  const E = r.int(['embed_dim']);
  const L = r.int(['depth'], undefined, 1, 10_000);
  const heads = r.int(['num_heads']);
  const ratio = r.cfg.mlp_ratio;
  const patch = r.int(['patch_size'], 14) ?? 14;
  const m = r.int(['spatial_merge_size'], 2) ?? 2;
  const t = r.int(['temporal_patch_size'], 2) ?? 2;
  const channels = r.int(['in_chans', 'in_channels'], 3) ?? 3;
  const out = r.int(['hidden_size'], textHidden) ?? textHidden;
  if (E === undefined || L === undefined || heads === undefined) return undefined;
  // VisionMlp width int(embed_dim · mlp_ratio) (Qwen2VLVisionBlock)
  const f = typeof ratio === 'number' && ratio > 0 ? Math.floor(E * ratio) : 0;
  if (f < 1 || f > MAX_DIM) {
    r.fail('mlp_ratio', 'not-integer', `expected a positive number with embed_dim × mlp_ratio from 1 to ${MAX_DIM}`);
    return undefined;
  }
  const merged = E * m * m;
  const merger = 2 * E + merged * merged + merged + merged * out + out;
  return {
    params: channels * t * patch * patch * E + L * vitLayer(E, f) + merger,
    tower: {
      hidden: E,
      layers: L,
      heads,
      ffn: f,
      patch,
      imageSize: null,
      tokensPerImage: null,
      merge: { side: m, ...QWEN2_VL_PIXELS },
      classToken: false,
      keepsAllHidden: false,
      perImageAttention: true,
    },
  };
}

/**
 * The vision tower (parameters of tower + projector, and its shape), or undefined when the config
 * has none we model. Errors are keyed `vision_config.<field>`.
 */
export function parseVisionTower(raw: Json, textHidden: number, errors: FieldError[]): Parsed | undefined {
  const v = raw.vision_config;
  if (!isObject(v)) return undefined;
  const r = new FieldReader(v);
  const kind = v.model_type ?? (raw.model_type === 'qwen2_vl' ? 'qwen2_vl' : undefined);
  const parsed = kind === 'siglip_vision_model' ? siglip(r, raw, textHidden) : kind === 'clip_vision_model' ? clip(r, raw, textHidden) : kind === 'qwen2_vl' ? qwen2vl(r, textHidden) : undefined;
  for (const e of r.errors) errors.push({ ...e, key: `vision_config.${e.key}`, message: `vision_config.${e.message}` });
  return r.errors.length > 0 ? undefined : parsed;
}
