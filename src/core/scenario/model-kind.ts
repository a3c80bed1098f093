/**
 * Which models read a key (schema FieldSpec.models): encoder-only embedding models (BERT, XLM-R:
 * model/families.ts ENCODER_ONLY) run one forward and generate nothing, so generation keys (gen,
 * the KV cache's format) mean nothing for them; image keys mean something only for a model with a
 * vision tower (types.ts VisionTower). The parser's warning and the form's hiding both ask here.
 */
import { ENCODER_ONLY } from '../model/families';
import type { RuleArch } from './conflicts';
import type { ModelKind } from './schema';

/** True when the model reads keys of `kind`; an unknown model (null) reads everything. */
export function modelReads(kind: ModelKind, arch: RuleArch): boolean {
  if (arch === null) return true;
  if (kind === 'generate') return !ENCODER_ONLY.has(arch.family ?? '');
  return arch.vision !== undefined;
}

/** What the model is, for the warning: "an encoder-only model (bert)" or "a text-only model (llama)". */
export function modelKindWords(kind: ModelKind, arch: RuleArch): string {
  const family = arch?.family ?? 'custom';
  return kind === 'generate' ? `an encoder-only model (${family}), which generates nothing` : `a model without a vision tower (${family})`;
}
