/**
 * Vision towers of multimodal configs (`vision_config`), counted so a preset's total matches
 * the published one (docs/reference/formulas.md §1.4: "Vision towers must be counted separately").
 * Supported: SigLIP (`siglip_vision_model`, HF `modeling_siglip.py`: Conv2d patch embedding
 * with bias, learned positions, pre-norm encoder layers with biased q/k/v/o and fc1/fc2,
 * post LayerNorm, optional attention-pooling head) and Gemma-3's projector (`modeling_gemma3.py`
 * Gemma3MultiModalProjector: RMSNorm of the vision width + a vision×text projection matrix).
 * Checked: Gemma-3 4B/12B/27B totals (keras-hub counts, which include the tower) match exactly.
 */
import type { FieldError } from '../types';
import { FieldReader, isObject, type Json } from './fields';

function siglip(r: FieldReader): number | undefined {
  const h = r.int(['hidden_size']);
  const f = r.int(['intermediate_size']);
  const L = r.int(['num_hidden_layers'], undefined, 1, 10_000);
  const patch = r.int(['patch_size']);
  const image = r.int(['image_size']);
  const channels = r.int(['num_channels'], 3) ?? 3;
  if (h === undefined || f === undefined || L === undefined || patch === undefined || image === undefined) return undefined;
  const ln = 2 * h;
  const mlp = h * f + f + f * h + h;
  const layer = 4 * (h * h + h) + mlp + 2 * ln;
  const embed = channels * patch * patch * h + h + Math.floor(image / patch) ** 2 * h;
  // SiglipMultiheadAttentionPoolingHead: probe, in_proj (3h×h + 3h), out_proj, LayerNorm, MLP.
  const head = r.cfg.vision_use_head === true ? h + 3 * h * h + 3 * h + h * h + h + ln + mlp : 0;
  return embed + L * layer + ln + head;
}

/**
 * Parameters of the vision tower plus projector, or undefined when the config has none we model.
 * Errors are keyed `vision_config.<field>`.
 */
export function parseVisionTower(raw: Json, textHidden: number, errors: FieldError[]): number | undefined {
  const v = raw.vision_config;
  if (!isObject(v) || v.model_type !== 'siglip_vision_model') return undefined;
  const r = new FieldReader(v);
  const tower = siglip(r);
  for (const e of r.errors) errors.push({ ...e, key: `vision_config.${e.key}`, message: `vision_config.${e.message}` });
  if (tower === undefined) return undefined;
  const hv = v.hidden_size as number;
  const projector = raw.model_type === 'gemma3' ? hv + hv * textHidden : 0;
  return tower + projector;
}
