/**
 * Training a model loaded with `device_map="auto"` (split=layers): naive model parallelism.
 *
 * transformers' Trainer sees `hf_device_map` spanning several GPUs and sets `is_model_parallel`
 * (trainer.py `Trainer.__init__`): it neither moves the model nor wraps it in DDP — one process,
 * every GPU holding its own modules. accelerate refuses to prepare such a model for distributed
 * training (accelerator.py `prepare_model`: "You can't train a model that has been loaded with
 * `device_map='auto'` in any distributed mode"), so ZeRO / FSDP do not combine with it.
 * The placement is the inference one (inference/device-map.ts): `infer_auto_device_map` with
 * `get_balanced_memory` budgets counts parameter bytes only — it knows nothing of gradients,
 * optimizer states or activations, so training uses the same layers per GPU.
 * On GPU g: its modules' weights; their gradients, fp32 master and optimizer states (parameters
 * live where their module does, `torch.zeros_like` in the optimizer's `_init_group` keeps the
 * device, and foreach steps group tensors by device: torch/optim/optimizer.py
 * `_group_tensors_by_device_and_dtype`); the saved tensors of its layers (accelerate's
 * AlignDevicesHook moves each block's input to the block's GPU, so what a block saves lives
 * there); the embedding on GPU 0; the final norm, LM head, logits and loss on the last GPU. Only
 * one GPU computes at a time, so each GPU's peak is the single-GPU closed form over its modules
 * (training/terms.ts with `ctx.stage`); the estimate reports the largest.
 */
import type { Built, Ctx } from '../estimate-context';
import type { ParamBreakdown } from '../types';
import { layerSplitNote, layerSplitOffloadNotes } from '../inference/transformers';
import { buildTraining } from './terms';

/** The per-GPU training builds of a layer split, the most-loaded one first in the result. */
export function buildTrainingSplit(ctx: Ctx): Built {
  const split = ctx.split;
  if (!split) return buildTraining(ctx);
  const L = Math.max(1, ctx.arch.layers);
  const p = ctx.params;
  const w = ctx.weights;
  let best: Built | null = null;
  let trainable = 0;
  const perGpu: number[] = [];
  // GPUs holding the same modules (middle GPUs with as many blocks) cost one build
  const seen = new Map<string, Built>();
  split.perGpu.forEach((weights, g) => {
    const n = split.layersPerGpu[g]!; // one entry per GPU, as perGpu (layerSplit)
    const embedding = g === 0;
    const head = g === split.lastGpu;
    const key = `${n}:${embedding}:${head}:${weights}`;
    const again = seen.get(key);
    if (again) {
      perGpu.push(again.allocatedBytes);
      trainable += again.trainable;
      return;
    }
    const f = n / L;
    const params: ParamBreakdown = {
      ...p,
      embedding: embedding ? p.embedding : 0,
      lmHead: head ? p.lmHead : 0,
      blockLinear: p.blockLinear * f,
      other: p.other * f,
      total: (embedding ? p.embedding : 0) + (head ? p.lmHead : 0) + (p.blockLinear + p.other) * f,
      active: p.active * f,
    };
    const parts = { ...w, total: weights, blocks: w.blocks * f, embedding: embedding ? w.embedding : 0, head: head ? w.head : 0 };
    const built = buildTraining({ ...ctx, arch: { ...ctx.arch, layers: n }, params, weights: parts, stage: { embedding, head } });
    seen.set(key, built);
    perGpu.push(built.allocatedBytes);
    trainable += built.trainable;
    if (!best || built.allocatedBytes > best.allocatedBytes) best = built;
  });
  const top = best as unknown as Built;
  return { ...top, trainable, perGpu, notes: [...top.notes, layerSplitNote(split, perGpu), ...layerSplitOffloadNotes(split)] };
}
