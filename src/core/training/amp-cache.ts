/**
 * The 16-bit weight copies of AMP (fp32 parameters, torch.autocast) in a full fine-tune: when they
 * exist, not a persistent 2 B per parameter.
 *
 * Autocast casts a Linear's fp32 weight to 16-bit for its matmul (aten/src/ATen/autocast_mode.cpp
 * `cached_cast`: `linear` is on the lower-precision list). Casts of leaf tensors that require grad
 * are kept in autocast's cache until the outermost autocast region exits, where torch.autocast's
 * `__exit__` calls `torch.clear_autocast_cache()` (torch/amp/autocast_mode.py). HF Trainer runs the
 * whole model forward inside that region (accelerate `prepare_model` wraps `model.forward` in
 * autocast), the loss included, so:
 * - at the end of forward every Linear's copy exists (blocks and LM head; the embedding is looked
 *   up in fp32, `embedding` is on no autocast list);
 * - after forward only the copies autograd saved survive: mm saves its weight operand for the
 *   gradient of its input. Without checkpointing every Linear's forward was recorded, so all copies
 *   stay until their layer's backward; under full activation checkpointing the layers' forward ran
 *   without saving (torch/utils/checkpoint.py non-reentrant: only the layer input is kept), so only
 *   the LM head's copy (outside the checkpointed blocks) survives, until the head's backward;
 * - each checkpointed layer's recompute runs under the autocast state saved at forward time
 *   (checkpoint.py: `torch.autocast(**device_autocast_kwargs)` around the recompute), a region of
 *   its own: that layer's copies exist from its recompute to the end of its backward;
 * - the optimizer step runs outside autocast: no copies.
 *
 * Measured on our H200 (tools/measure/measure_trainer.py --trace t029: Qwen2.5-0.5B, AMP bf16,
 * full checkpointing): at the peak, in the loss's backward, the only 16-bit weight copy alive is the
 * LM head's (2 blocks, 0.26 GiB) of the 0.94 GiB made in forward.
 *
 * Modelled for plain torch AMP on one model replica (ZeRO 0, no pipeline split); DeepSpeed and FSDP
 * keep 16-bit parameters of their own (sharding.ts).
 */
import type { ModelArch, ParamBreakdown, Scenario } from '../types';
import { hasMasterCopy } from './optimizer';

export interface AmpCopies {
  /** every Linear's 16-bit copy: the forward's end */
  all: number;
  /** the LM head's copy: alive until the head's backward */
  head: number;
  /** one block's copies: a checkpointed layer from its recompute to its backward */
  layer: number;
  /** full checkpointing: the blocks' copies are freed when forward ends */
  checkpointed: boolean;
}

/**
 * The 16-bit copies of an AMP full fine-tune, or null where they are persistent weights (other
 * recipes). `lmHead`: the model ends in a V×h LM head (not an encoder's small task head).
 */
export function ampWeightCopies(s: Scenario, arch: ModelArch, params: ParamBreakdown, copyBytes: number, lmHead = true): AmpCopies | null {
  if (s.mode !== 'training' || s.method !== 'full' || !hasMasterCopy(s.precision) || s.zero !== 0 || s.pp !== 1) return null;
  const tp = Math.max(1, s.tp);
  const head = lmHead ? (arch.vocab * arch.hidden * copyBytes) / tp : 0;
  const blocks = (params.blockLinear * copyBytes) / tp;
  return { all: blocks + head, head, layer: blocks / Math.max(1, arch.layers), checkpointed: s.gradCkpt === 'full' };
}
