/**
 * PEFT `modules_to_save` (LoraConfig; `lora-save=embed,head`): the embedding and/or LM head trained
 * in full next to the adapters, as recipes that teach new tokens do ("LoRA (emb)").
 * peft/src/peft/utils/other.py `ModulesToSaveWrapper.update`: `self.modules_to_save[adapter_name] =
 * copy.deepcopy(self.original_module)`, then `self.original_module.requires_grad_(False)` — the
 * original stays on the GPU frozen and a trainable copy is added, in the original's dtype: PEFT's
 * `cast_adapter_dtype` (tuners_utils.py) upcasts only parameters of `BaseTunerLayer` modules, and
 * the wrapper (an `AuxiliaryTrainingWrapper`, a plain nn.Module) is not one. So the copy, its
 * gradient and its torch.optim states (kept in the parameter dtype) are 16-bit on a 16-bit model,
 * fp32 after prepare_model_for_kbit_training (kbit-prep.ts) or on an fp32 base. A tied model's
 * head is its embedding (the wrapper's `tied_module` branch shares that one weight): one matrix.
 * What it changes in autograd: a trainable head's `linear` now needs its input for the weight
 * gradient (derivatives.yaml `mm`: mat2's gradient needs self), so the final norm output is saved —
 * its autocast 16-bit copy under AMP, else the tensor itself; a trainable embedding saves only the
 * token ids (`embedding_dense_backward`).
 */
import type { Ctx } from '../estimate-context';
import type { LoraSave } from '../types';
import { optimizerBytesPerParam, type ModelStateBytes } from './optimizer';

export interface SavedModules {
  /** trainable parameters of the copies (V·h per matrix) */
  params: number;
  /** bytes per element of the copies (the original module's dtype) */
  w: number;
  per: ModelStateBytes;
  /** the LM head is trained: its input is saved */
  head: boolean;
}

export const trainsEmbed = (v: LoraSave) => v === 'embed' || v === 'embed,head';
export const trainsHead = (v: LoraSave) => v === 'head' || v === 'embed,head';

/** `upcast`: prepare_model_for_kbit_training made the module fp32. */
export function savedModules(ctx: Ctx, upcast: boolean): SavedModules | null {
  const { s, params } = ctx;
  if ((s.method !== 'lora' && s.method !== 'qlora') || s.loraSave === 'none') return null;
  const embed = trainsEmbed(s.loraSave);
  const head = trainsHead(s.loraSave);
  const tied = ctx.arch.tiedEmbeddings;
  const count = tied ? params.embedding : (embed ? params.embedding : 0) + (head ? params.lmHead : 0);
  // quantized formats keep the embedding and head in 16-bit; a dense base in its own width
  const w = upcast || s.weights === 'fp32' ? 4 : 2;
  return {
    params: count,
    w,
    head,
    per: {
      weights: w,
      gradients: w,
      master: 0,
      optimizer: optimizerBytesPerParam(s.optimizer, w === 4 ? 'fp32' : 'bf16', ctx.arch.hidden),
      source: 'PEFT ModulesToSaveWrapper (deepcopy of the original module, in its dtype)',
    },
  };
}
