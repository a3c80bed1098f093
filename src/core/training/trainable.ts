/**
 * Which parameters a training method updates (formulas.md §6.1).
 * - full: every parameter;
 * - lora / qlora: PEFT adapters r·(d_in + d_out) per adapted Linear (model/lora.ts);
 * - freeze: the backbone is frozen and only the last block plus the output head train
 *   (the common "train the top" recipe; a tied head trains the shared embedding).
 */
import type { Ctx } from '../estimate-context';
import { ENCODER_ONLY } from '../model/families';
import { loraTrainableParams } from '../model/lora';

export interface Trainable {
  count: number;
  formula: string;
  values: Record<string, number | string>;
  source: string;
  /** encoder-only family (BERT): fine-tuned with a small task head, no vocabulary logits */
  encoderOnly: boolean;
}

export function trainableParams(ctx: Ctx): Trainable {
  const { s, arch, params } = ctx;
  const encoderOnly = ENCODER_ONLY.has(arch.family);
  if (s.method === 'lora' || s.method === 'qlora') {
    const count = loraTrainableParams(arch, s.loraRank, s.loraTargets);
    return {
      count,
      formula: 'Σ_targets L·r·(d_in + d_out)',
      values: { r: s.loraRank, targets: s.loraTargets.join(','), L: arch.layers, P_lora: count },
      source: 'PEFT LoraLayer; Hu et al. 2021 (arXiv 2106.09685)',
      encoderOnly,
    };
  }
  if (s.method === 'freeze') {
    // split=layers (training/layer-split.ts): counted on the GPU holding the head (and, as an
    // approximation, the last block)
    const onHeadGpu = !ctx.stage || ctx.stage.head;
    const head = !onHeadGpu ? 0 : ctx.stage ? (arch.tiedEmbeddings ? arch.vocab * arch.hidden : params.lmHead) : params.lmHead > 0 ? params.lmHead : params.embedding;
    const count = onHeadGpu ? params.perLayer + head : 0;
    return {
      count,
      formula: 'P_last_block + P_head',
      values: { P_last_block: params.perLayer, P_head: head },
      source: 'frozen backbone, last block and head trained',
      encoderOnly,
    };
  }
  return { count: params.total, formula: 'P', values: { P: params.total }, source: 'all parameters', encoderOnly };
}
