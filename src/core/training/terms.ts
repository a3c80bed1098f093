/**
 * Training terms per GPU (formulas.md §4–§6, §8) and the peak of what is live together.
 *
 * Timeline of one optimizer step (PyTorch, `zero_grad(set_to_none=True)`, the default since 2.0):
 * - end of forward: persistent states + saved activations + the loss's logits peak;
 * - start of backward: activations + logits held into backward (+ LM-head gradient);
 * - end of backward / optimizer step: persistent states + all gradients (activations freed).
 * Persistent = weights, adapters, fp32 master, optimizer states (present from step 2 on) and the
 * DDP / ZeRO communication buckets.
 *
 * Gradients become persistent too when they outlive one backward pass:
 * - gradient accumulation (N > 1 micro-batches per step): backward of micro-step k adds into the
 *   `.grad` tensors left by micro-steps 1…k−1, so from micro-step 2 on the forward and backward run
 *   with every trainable gradient allocated (HF Trainer / accelerate `gradient_accumulation_steps`;
 *   DeepSpeed keeps its (ZeRO-2: partitioned) gradient buffer across micro-steps alike);
 * - `zero_grad(set_to_none=False)`, PyTorch's default before 2.0 (torch/optim/optimizer.py; the
 *   2.0 release notes list the switch of the default to True): gradients are zero-filled, not freed,
 *   so from step 2 on they are live during the forward pass;
 * - pipeline parallelism (pp > 1): a pipeline step is itself a run of micro-batches whose gradients
 *   accumulate until the flush (Narayanan et al. 2021, arXiv 2104.04473 §2.2, 1F1B schedule), so
 *   later micro-batches run forward while earlier ones' gradients are held.
 * Then the peak is persistent states + gradients + max(activations + logits, step temporaries).
 */
import type { Built, Ctx, TrainingPhases } from '../estimate-context';
import { term, workspaceTerm } from '../estimate-context';
import { CUBLAS_WORKSPACE_BYTES, TRAINING_CUBLAS_HANDLES, type TensorGroup } from '../runtime';
import { blockKinds, linearElements, mlpWidth } from '../model/tensors';
import { FAMILIES } from '../model/families';
import type { Message, Term } from '../types';
import { activationBytes, ampCastCopies, inputSavedAsIs, qkNormPerToken, sdpaMaskedShare, type ActDtypes, type ActivationOptions, type ActivationTotal } from './activations';
import { loraHeadPerToken, loraLayerActivation, type LoraSaves } from './lora-activations';
import { loraLayerForward, loraLayerPlan } from './lora-forward';
import { planExcess, planPeak, type LayerPlans } from './layer-plan';
import { fullLayerPlans, fullLayerShape } from './full-forward';
import { inBackwardStep, largestTrainableElements } from './in-backward';
import { layerBackward, perLayerGradient } from './layer-backward';
import { ampWeightCopies } from './amp-cache';
import { NO_TIED_GRAD, tiedGradient, tiedSumMoment, tiedWaiting } from './tied-grad';
import { resolveLogitsPath } from '../logits-path';
import { chatglmLossBytes, lossBytes, lossOf, type LossBytes, type LossEvent } from './loss';
import { adamStepTemp, adapterStateBytes, modelStateBytes } from './optimizer';
import { kbitUpcasts, upcastBytes } from './kbit-prep';
import { savedModules } from './modules-to-save';
import { baseKernel, baseSaves, bnbEffectiveCompute, dequantTemps } from './quant-base';
import { addStateExprs, evaluateStates, paramsPerGpu, shardStateExprs } from './sharding';
import { add, div, evaluate, max, min, mul, sub, sym, type Expr } from '../formula';
import { trainableParams } from './trainable';
import { autocastActive } from './autocast';
import { fusedQkvViewWidth } from './fused-views';
import { deepspeedBuffers, type DsBuffers } from './zero-deepspeed';

/** FSDP accounting (zero-impl=fsdp) for ZeRO-1/2: a 5e8-element reduce bucket at most the model's size. */
export const FSDP_REDUCE_BUCKET = 5e8;

/**
 * Activation dtypes: fp32 training keeps everything in 4 B; AMP computes matmuls in 16-bit
 * but keeps fp32 parameters, so the residual stream and (autocast) softmax stay fp32;
 * pure 16-bit training is 2 B throughout, but for what autocast's fp32-list ops (softmax without
 * a dtype, pow) output when the Trainer's autocast is on (autocast.ts autocastActive).
 * Under AMP the stream is as wide as the parameters it flows through: adapters on a frozen 16-bit
 * or quantized base (weights ≠ fp32) leave it in the base's 16-bit dtype — the embedding's output
 * is 16-bit and every Linear (the fp32 adapters too) returns 16-bit under autocast — so such a run
 * is a 16-bit model under autocast (measured: Llama-2-7B LoRA, fp16 weights, Trainer fp16=True,
 * t041–t043). prepare_model_for_kbit_training's fp32 embedding widens it again (kbit-prep.ts).
 */
export function trainingDtypes(ctx: Ctx): ActDtypes {
  const { precision: p, method, weights } = ctx.s;
  if (p === 'fp32') return { e: 4, eRes: 4, eF32: 4 };
  const frozen16 = (method === 'lora' || method === 'qlora') && weights !== 'fp32' && weights !== 'fp64';
  if (p === 'amp-fp16' || p === 'amp-bf16') return { e: 2, eRes: frozen16 ? 2 : 4, eF32: 4 };
  return { e: 2, eRes: 2, eF32: autocastActive(ctx.s) ? 4 : 2 };
}

export function buildTraining(ctx: Ctx): Built {
  const { s, arch, params } = ctx;
  const notes: Message[] = [];
  // split=layers is one process over the GPUs (training/layer-split.ts): no data parallelism
  const dp = ctx.stage ? 1 : Math.max(1, Math.floor(s.gpus / (s.tp * s.pp)));
  const stage = ctx.stage ?? { embedding: true, head: true };
  // prepare_model_for_kbit_training: fp32 embeddings make the residual stream fp32 (kbit-prep.ts)
  const upcast = kbitUpcasts(s);
  const dt = upcast ? { ...trainingDtypes(ctx), eRes: 4 } : trainingDtypes(ctx);
  const e = dt.e;
  const autocast = autocastActive(s);
  const full = s.method === 'full';
  const shareOnGpu = paramsPerGpu(params, s.tp, s.pp) / Math.max(1, params.total);
  const trainable = trainableParams(ctx);
  const adapters = s.method === 'lora' || s.method === 'qlora';
  const per = adapters ? adapterStateBytes(s.precision, s.optimizer, s.zero > 0, arch.hidden, s.adapterDtype) : modelStateBytes(s.precision, s.optimizer, s.zero > 0, arch.hidden);
  const trainOnGpu = full ? paramsPerGpu(params, s.tp, s.pp) : trainable.count * shareOnGpu;
  // PEFT modules_to_save: trainable copies of the embedding / head, states in their own dtype
  const saved = savedModules(ctx, upcast);
  const savedOnGpu = saved ? saved.params * shareOnGpu : 0;
  const stateExprs = addStateExprs(
    shardStateExprs(sym('P_train', trainOnGpu), per, s.zero, dp, s.offload),
    saved ? shardStateExprs(sym('P_save', savedOnGpu), saved.per, s.zero, dp, s.offload, '_save') : null,
  );
  const states = evaluateStates(stateExprs);
  // frozen base (LoRA / QLoRA / freeze) in its storage format; ZeRO-3 shards it too
  const upcastWeights = upcast ? upcastBytes(params) : 0;
  const baseExpr = frozenBaseExpr(ctx, upcastWeights, dp);
  const baseWeights = full ? 0 : evaluate(baseExpr);
  // AMP's 16-bit weight copies live in autocast's cache, not between steps (amp-cache.ts)
  // (one GPU's whole model: split=layers keeps the old count)
  const amp = full && !ctx.stage ? ampWeightCopies(s, arch, params, e, !trainable.encoderOnly) : null;
  const stepWeights = full && !amp ? states.weights : 0;
  const copies = amp ?? { all: 0, head: 0, layer: 0, checkpointed: false };
  // LoRA adapters are extra tensors; a freeze recipe trains tensors already in the base weights
  const adapterWeights = adapters ? states.weights : 0;
  // freeze: nothing below the trained last block needs gradients, so autograd saves only that
  // block's activations (frozen layers' inputs do not require grad)
  const savedArch = s.method === 'freeze' ? { ...arch, layers: 1, encoderDecoder: undefined } : arch;
  const compiled = s.compile === 'inductor';
  // padded batches (samples of varied length, b > 1) and sliding windows make SDPA take a mask (activations.ts sdpaMaskedShare)
  const maskedShare = sdpaMaskedShare(arch, s.seq, s.attn, s.lengths === 'varied' && s.lenSpread > 0 && s.batch > 1);
  const lora = adapters && !arch.mla ? loraSaves(ctx, dt, per.weights) : null;
  const actsAll = activationBytes(savedArch, s.seq, s.batch, dt, s.attn, s.gradCkpt, s.tp, {
    compiled,
    offload: s.actOffload === 'cpu',
    maskedShare,
    ...(lora ? frozenBaseSaves(ctx, dt, lora, saved?.head === true, maskedShare) : {}),
  });
  // one layer's forward tensors, in order, for the replay (dense layers, eager): LoRA's adapted
  // Linears (lora-forward.ts), a full fine-tune's Llama-style layer (full-forward.ts)
  const laid = s.method === 'full' && !compiled ? fullLayerShape(arch, { tokens: s.seq * s.batch, seq: s.seq, tp: s.tp, dt, attn: s.attn, autocast, maskedShare, weightCopies: amp !== null }) : null;
  const layerPlan =
    lora && !compiled && !arch.moe ? loraPlans(ctx, dt, lora, actsAll, maskedShare) : s.method === 'full' && !compiled ? fullLayerPlans(laid, actsAll, s.gradCkpt === 'full', copies.layer) : null;
  // the attention mask the model's forward builds once before its layers and hands every layer
  // (attentionMask), where a layer is laid out. Model.forward drops it when it returns (before the
  // loss); under full checkpointing each layer's recompute function (a `partial` holding it as a
  // kwarg, GradientCheckpointingLayer.__call__) keeps it until layer 0's backward is done
  const mask = layerPlan ? attentionMask(s, arch, maskedShare, dt.eRes) : null;
  // what the layers read: the bool mask, or eager's additive copy (the bool freed once it is made)
  const attnMask = mask ? mask.count * (mask.float || mask.bool) : 0;
  const heldMask = s.gradCkpt === 'full' ? attnMask : 0;
  // the final norm and LM head's saved inputs, logits and loss live on the GPU holding the head
  const acts = stage.head ? actsAll : { ...actsAll, bytes: actsAll.bytes - actsAll.head, head: 0 };
  const encoder = trainable.encoderOnly;
  const headCopy = arch.normHead ? 'norm-head' : autocast && (upcast || (saved?.head === true && saved.w === 4)) ? 'autocast' : null;
  const logits = !stage.head ? NO_LOSS : encoder ? taskHeadLogits(s.batch) : headLoss(ctx, e, upcast && !autocast ? 4 : e, headCopy);
  // a quantized base's dequantization temporaries at its largest Linear (quant-base.ts), in the
  // dtype a 4-bit Linear computes in: its input's own when fp32 or bf16 (bnbEffectiveCompute)
  const fp16Input = dt.eRes === 2 && s.precision === 'fp16';
  const bnbCompute = bnbEffectiveCompute(s.bnbCompute, dt.eRes, fp16Input);
  const deq =
    adapters && arch.layers > 0
      ? dequantTemps(arch, {
          w: s.weights,
          compute: bnbCompute,
          n: params.largestLinear,
          inputBytes: dt.eRes,
          fp16Input,
          batch: s.batch,
          tokens: s.batch * s.seq,
        })
      : null;
  const dequant = deq ? Math.max(deq.forward, deq.backward) : 0;
  // DeepSpeed ZeRO (zero-deepspeed.ts): reduce buckets, ZeRO-3 fetching, step-time gradient copies
  const ds: DsBuffers | null =
    s.zero > 0 && s.zeroImpl === 'deepspeed' ? deepspeedBuffers(ctx, trainOnGpu, dp, per.gradients, full ? per.weights : ctx.weights.total / Math.max(1, params.total)) : null;
  // FSDP FULL_SHARD: the current unit (one block) gathered whole plus the prefetched next one, in the
  // working-weight dtype (formulas.md §4.2)
  const fsdp = s.zero > 0 && s.zeroImpl === 'fsdp';
  const fsdpGathered = fsdp && s.zero === 3 && dp > 1 ? div(mul(2, sym('w', per.weights), sym('unit', params.perLayer)), sym('t', s.tp)) : 0;
  const gathered = ds ? ds.gathered : evaluate(fsdpGathered);
  const commExpr =
    s.zero === 0 && dp > 1
      ? stateExprs.gradients
      : fsdp && (s.zero === 1 || s.zero === 2) && dp > 1 && s.offload === 'none'
        ? mul(min(sym('bucket', FSDP_REDUCE_BUCKET), sym('P_train', trainOnGpu)), sym('g', per.gradients))
        : 0;
  const comm = evaluate(commExpr);
  // bitsandbytes paged state is cudaMallocManaged memory (bitsandbytes functional.py get_paged),
  // outside PyTorch's caching allocator: on the device, not in torch.cuda.max_memory_allocated
  const paged = s.optimizer.startsWith('paged') && s.offload === 'none';
  const persistent = baseWeights + stepWeights + adapterWeights + states.master + (paged ? 0 : states.optimizer) + comm + (ds ? ds.persistent : 0) + TRAINING_CUBLAS_HANDLES * CUBLAS_WORKSPACE_BYTES;
  // the head's gradient exists from the start of backward (full fine-tune, or a trained head copy)
  // (split=layers: on the GPU holding the head's weight — the embedding's when tied)
  const headWeightHere = arch.tiedEmbeddings ? stage.embedding : stage.head;
  const headGrad = !headWeightHere ? 0 : full ? (arch.vocab * arch.hidden * per.gradients) / s.tp : saved && (saved.head || arch.tiedEmbeddings) ? (arch.vocab * arch.hidden * saved.w) / s.tp : 0;
  // 1F1B: the first stage holds p micro-batches × L/p layers (≈ all L layers' activations), the
  // last stage one micro-batch of L/p layers plus the logits; take the more loaded stage.
  // full checkpointing: the recomputed layer exists only after the loss and LM-head backward
  // have freed the logits and the head's input (layer-backward.ts), never next to them
  const withLogits = (extra: number) => (s.pp > 1 ? Math.max(acts.bytes, acts.bytes / s.pp + extra) : acts.bytes - acts.recompute + extra);
  // a dequantized weight lives only inside its Linear (bitsandbytes MatMul4Bit.forward / backward):
  // inside the layers (atLayers), not at the loss — the LM head stays unquantized
  // a laid-out layer's forward temporaries (layer-plan.ts) on top of the layers' saves before the
  // loss, the blocks' AMP copies made by then (the LM head's comes after the last layer; the last
  // layer's own are in its plan where it makes them)
  // (the model's mask is dropped when its forward returns, after the final norm's saves: that
  // moment, before the loss, holds every saved tensor and the mask)
  const atForward =
    Math.max(
      withLogits(logits.peak) + copies.all + heldMask,
      withLogits(0) + copies.all + attnMask,
      layerPlan ? forwardMoment(acts, layerPlan) + copies.all - copies.head - layerPlan.cached + attnMask : 0,
    ) + gathered;
  // optimizer step in backward: the largest gradient (≥ the head's) and its one-tensor step temporary
  const inBwd = s.optimStep === 'in-backward' ? inBackwardStep(ctx, per, dp) : null;
  const atBackward =
    withLogits(Math.max(logits.backward, logits.headBackward + (inBwd ? inBwd.gradient + inBwd.temp : headGrad))) +
    heldMask +
    gathered +
    (ds ? ds.backward : 0) +
    (copies.checkpointed ? copies.head : copies.all);
  // DeepSpeed (ZeRO ≥ 1) steps with fused kernels; bitsandbytes 8-bit steps per tensor.
  // bitsandbytes optimizers (8-bit and paged) update each tensor in its own kernel: no foreach list
  const torchAdam = s.optimizer === 'adamw' && s.zero === 0 && s.offload === 'none';
  // stepped in backward: one tensor's temporary at a time (inBwd.temp), no step over the whole list
  const foreachTemp = torchAdam && !inBwd ? adamStepTemp(s.optimImpl, states.optimizer / 2, largestTrainableElements(ctx, dp) * (states.optimizer / 2 / Math.max(1, trainOnGpu + savedOnGpu))) : 0;
  // DeepSpeed ZeRO-3 keeps its gradient partition buffer allocated from initialisation on
  const gradsHeld = !inBwd && (s.gradAccum > 1 || s.gradZero === 'zeros' || s.pp > 1 || (ds?.gradsPersistent ?? false));
  const gradsNow = gradsHeld ? 0 : states.gradients;
  // DeepSpeed step: its fp32 copy sits beside the 16-bit partition (ZeRO-1's full gradients are
  // reduced to that partition first); ZeRO-1/2 reduce buffers live to the end of backward
  const atStep = inBwd ? 0 : ds ? Math.max(gradsNow, (gradsHeld ? 0 : ds.gradPartition) + ds.step) + foreachTemp : gradsNow + foreachTemp;
  const atEndOfBackward = ds ? gradsNow + ds.backward : 0;
  const held = gradsHeld ? states.gradients : 0;
  // the embedding's gradient comes after the layers' (untied; a tied one is the head's)
  const embedGrad = full && stage.embedding ? (Math.max(0, params.embedding - (arch.tiedEmbeddings ? arch.vocab * arch.hidden : 0)) * per.gradients) / s.tp : 0;
  const blocks = arch.layers + (arch.encoderDecoder?.decoderLayers ?? 0);
  // a recomputed layer's temporaries come before its gradients, like a dequantized weight, and so
  // do the gradients its backward holds (a composed activation's, SDPA's math kernel's: backwardTemp)
  const inLayer = Math.max(dequant, s.gradCkpt === 'full' && layerPlan ? planExcess(layerPlan.keep) : 0, acts.backwardTemp);
  const layers = layerBackward(acts, blocks, gradsHeld || inBwd ? 0 : states.gradients, headGrad, embedGrad, inLayer, {
    first: copies.checkpointed ? copies.layer : copies.all - copies.head,
    last: copies.layer,
  });
  // tied embeddings: the head's gradient waits for the embedding's, then both are summed out of
  // place (tied-grad.ts); with held gradients the waiting one is live through the layers too
  // (an encoder-only classifier has no LM head: its embedding gets one gradient)
  const tiedGrad = !ctx.stage && !trainable.encoderOnly ? tiedGradient(s, arch, per.gradients, dt.e) : NO_TIED_GRAD;
  const atLayers = s.pp > 1 ? 0 : layers.peak + heldMask + gathered + (ds ? ds.backward : 0) + tiedWaiting(tiedGrad, gradsHeld);
  const atEmbedding = tiedSumMoment(tiedGrad, gradsNow, gradsHeld);
  const allocatedBytes = persistent + held + Math.max(atForward, atBackward, atLayers, atStep, atEndOfBackward, atEmbedding);
  const terms: Term[] = [];
  if (full) {
    terms.push(
      term(
        ctx,
        'weights',
        stateExprs.weights,
        {
          values: { zero: s.zero },
          source: per.source + (amp ? "; the 16-bit copies live in autocast's cache during forward, then only where autograd saved them (training/amp-cache.ts)" : ''),
          confidence: 'exact',
        },
        'allocated',
        false,
      ),
    );
  } else {
    terms.push(
      term(ctx, 'weights', baseExpr, {
        values: { format: s.weights, ...(upcast ? { upcast: 'prepare_model_for_kbit_training: non-Linear parameters to fp32' } : {}) },
        source: ctx.weights.derivation.source + (upcast ? '; peft utils/other.py prepare_model_for_kbit_training' : ''),
        confidence: ctx.weights.derivation.confidence,
      }),
    );
    if (adapterWeights > 0) {
      terms.push(
        term(ctx, 'lora-adapters', stateExprs.weights, {
          values: { P_train_count: trainable.formula, ...trainable.values, adapter_dtype: s.adapterDtype, ...(saved ? { lora_save: s.loraSave } : {}) },
          source: trainable.source,
          confidence: 'exact',
        }),
      );
    }
  }
  terms.push(
    term(
      ctx,
      'gradients',
      inBwd ? mul(sym('P_max', inBwd.elements), sym('g', per.gradients)) : stateExprs.gradients,
      inBwd
        ? {
            values: { freed: 'each gradient freed by its post-accumulate-grad hook after its step', step_temp: inBwd.temp },
            source: 'torchtune training/memory.py register_optim_in_bwd_hooks (register_post_accumulate_grad_hook)',
            confidence: 'derived',
          }
        : {
            values: { zero: s.zero, offload: s.offload, held: gradsHeld ? 'yes' : 'no', ...(tiedGrad.bytes > 0 ? { tied_sum: atEmbedding - (gradsHeld ? 0 : gradsNow) } : {}) },
            source:
              per.source + (tiedGrad.bytes > 0 ? "; tied embedding: its gradient and the head's summed at its backward, torch/csrc/autograd/input_buffer.cpp accumulate (training/tied-grad.ts)" : ''),
            confidence: 'exact',
          },
      'allocated',
      !full,
    ),
  );
  terms.push(
    term(
      ctx,
      'optimizer',
      stateExprs.optimizer,
      {
        values: { optimizer: s.optimizer, offload: s.offload, impl: s.optimImpl, step_temp: foreachTemp },
        source: paged ? "formulas.md §4.1; bitsandbytes paged state: cudaMallocManaged, outside torch's allocator (device total only)" : 'formulas.md §4.1 (optimizer state bytes)',
        confidence: s.optimizer === 'adafactor' ? 'derived' : 'exact',
      },
      paged ? 'device' : 'allocated',
      !full,
    ),
  );
  if (states.master > 0) {
    terms.push(
      term(
        ctx,
        'master-weights',
        stateExprs.master,
        {
          source: 'fp32 master copy under AMP (ZeRO paper §3.1)',
          confidence: 'exact',
        },
        'allocated',
        !full,
      ),
    );
  }
  terms.push(
    term(ctx, 'activations', acts.expr, {
      values: {
        A_layer_counts: acts.layerFormula,
        a: arch.heads,
        g_kv: arch.kvHeads,
        d: arch.headDim,
        f: arch.ffn,
        t: s.tp,
        attn: s.attn,
        ckpt: s.gradCkpt,
        style: acts.style,
        c: ampCastCopies(arch, dt) / Math.max(1, arch.hidden),
        compile: s.compile,
        offload: s.actOffload,
        ...(adapters ? { targets: s.loraTargets.join(','), r: s.loraRank, lora_dropout: s.loraDropout } : {}),
      },
      source:
        (acts.style === 'gpt' ? 'Korthikanti et al. 2022, arXiv 2205.05198 §4 (formulas.md §5.1)' : 'formulas.md §5.3 (Llama-style re-derivation of Korthikanti)') +
        (adapters ? '; frozen base: torch derivatives.yaml mm / gen_variable_type.py guard_for, PEFT lora.Linear.forward' : '') +
        (compiled ? '; torch/_functorch/partitioners.py min-cut partitioner' : '') +
        (s.actOffload === 'cpu' ? '; torchtune training/_activation_offloading.py' : ''),
      confidence: 'derived',
    }),
  );
  terms.push(
    term(ctx, 'logits', max(logits.exprs.peak, logits.exprs.backward), {
      values: { moments: logits.formula, held: logits.held, chunks: s.lossChunks, compile: s.compile, path: s.logitsPath },
      source: logits.source,
      confidence: 'derived',
    }),
  );
  if (deq && dequant > 0) {
    terms.push(
      term(ctx, 'dequant-buffer', max(sym('forward', deq.forward), sym('backward', deq.backward)), {
        values: { temporaries: deq.formula, largest: params.largestLinear, format: s.weights, compute: bnbCompute, b: s.batch },
        source: `${deq.source}; formulas.md §6.2`,
        confidence: 'derived',
      }),
    );
  }
  if (ds) terms.push(...ds.terms);
  else if (comm + gathered > 0) {
    terms.push(
      term(ctx, 'comm-buffers', add(commExpr, fsdpGathered), {
        values: { buffers: s.zero === 0 ? 'DDP gradient buckets (no gradient_as_bucket_view)' : s.zero === 3 ? '2 units gathered (current + prefetch)' : 'reduce bucket', zero: s.zero },
        source: 'formulas.md §4.2 (PyTorch PR #41954; FSDP FULL_SHARD prefetch)',
        confidence: 'heuristic',
      }),
    );
  }
  terms.push(workspaceTerm(ctx, TRAINING_CUBLAS_HANDLES));
  if (s.optimizer.startsWith('paged')) {
    notes.push({ code: 'training.paged', text: 'Paged optimizer state lives in CUDA unified memory and may spill to host RAM under pressure.' });
  }
  if (inBwd) {
    notes.push({
      code: 'training.optim-in-backward',
      params: { gradient: inBwd.gradient },
      text: 'Optimizer step in backward: each gradient is freed as soon as its parameter has stepped, so only the largest one is live; the peak is persistent states + activations + loss buffers + that gradient, at the start of backward.',
    });
  } else if (gradsHeld) {
    notes.push({
      code: 'training.grads-held',
      params: { gradAccum: s.gradAccum, gradZero: s.gradZero, pp: s.pp, gradients: states.gradients },
      text: "Gradients stay allocated between backward passes (gradient accumulation, pipeline micro-batches, zero_grad(set_to_none=False) or DeepSpeed ZeRO-3's gradient partition buffer): the peak is persistent states + gradients + activations.",
    });
  } else {
    notes.push({
      code: 'training.peak-not-sum',
      params: { forward: atForward, backward: atBackward, layers: atLayers, step: atStep, ...(tiedGrad.bytes > 0 ? { embedding: atEmbedding } : {}) },
      text: 'Gradients appear as activations are freed: the peak is persistent states + max(activations + logits, gradients), not the sum of all terms.',
    });
  }
  // saved activations are mostly s·b·h- or s·b·f-sized tensors: count them in s·b·h units
  const sbh = s.seq * s.batch * arch.hidden * e;
  const live: TensorGroup[] = [{ bytes: sbh, count: Math.ceil(acts.bytes / Math.max(1, sbh)) }];
  const phases: TrainingPhases = {
    weights: baseWeights + stepWeights,
    adapters: adapterWeights,
    master: states.master,
    optimizer: paged ? 0 : states.optimizer,
    comm,
    workspace: CUBLAS_WORKSPACE_BYTES,
    gradients: inBwd ? 0 : states.gradients,
    // held gradients of sharded, pipelined and device_map stages are setup buffers; one plain PyTorch
    // process keeps AccumulateGrad's (set_to_none=False) or frees them after each optimizer step
    gradsLife: !gradsHeld ? 'step' : s.zero > 0 || s.pp > 1 || ds || ctx.stage ? 'setup' : s.gradZero === 'zeros' ? 'kept' : 'step',
    headGrad,
    layers: blocks,
    embedGrad,
    tiedGrad,
    ampCopies: amp,
    // held gradients too are made layer by layer, by the first micro-step's backward (gradsLife)
    layerGrad: inBwd ? 0 : perLayerGradient(states.gradients, headGrad, embedGrad, blocks),
    inBackward: inBwd,
    acts,
    layerPlan,
    ...(mask ? { attnMask: mask } : {}),
    logits,
    gathered,
    dequant,
    stepTemp: foreachTemp,
    atForward,
    atBackward,
    atLayers,
    atStep,
  };
  // a full fine-tune's weights term counts its working dtype (per.weights), not the loaded format
  const weightShare = full && !ctx.stage ? states.weights / Math.max(1e-9, per.weights) / Math.max(1, params.total) : undefined;
  return {
    terms,
    allocatedBytes,
    live,
    torchAllocator: true,
    trainable: trainable.count + (saved?.params ?? 0),
    notes,
    outsideAllocatorBytes: paged ? states.optimizer : 0,
    phases,
    ...(weightShare !== undefined ? { weightShare } : {}),
  };
}

/**
 * The masks transformers' model forward builds once for all its layers (masking_utils.py
 * `create_causal_mask`), in bytes each: SDPA with a mask in every layer (padded batches, a window
 * every layer slides) gets the bool (b, 1, s, s) from `sdpa_mask`; eager attention gets
 * `eager_mask`, that bool mask made additive by `torch.where(mask, 0.0, min_dtype)` in the
 * embedding's dtype (e_res), always, the bool freed once it is made. Otherwise (SDPA `is_causal`,
 * flash) no mask. A model with both full and sliding layers (Gemma-2 / 3: `layer_types`) builds
 * one of each (`causal_mask_mapping`, e.g. modeling_gemma2.py Gemma2Model.forward), both
 * materialised under eager and with padding; a window on only some layers without padding (one
 * mask, some layers) is not laid out. Baichuan-13B's own file builds its mask whatever the attention
 * (Baichuan2-13B-Chat modeling_baichuan.py `BaichuanModel.forward`): the inverted padding mask plus
 * `get_alibi_mask`'s heads × s × s table, made in the embedding's dtype at every training forward
 * (`_buffered_future_mask(...).to(tensor)`), one [b, a, s, s] tensor handed to every layer.
 */
function attentionMask(s: Ctx['s'], arch: Ctx['arch'], maskedShare: number, eRes: number): { bool: number; float: number; count: number } | null {
  // a family whose layers build their own square masks gets none from its model (families.ts layerMasks)
  if (FAMILIES[arch.family]?.layerMasks) return null;
  const square = s.batch * s.seq * s.seq;
  if (arch.family === 'baichuan' && arch.alibi) return { bool: 0, float: square * arch.heads * eRes, count: 1 };
  const sw = arch.slidingWindow;
  const count = sw && sw.layers > 0 && sw.layers < arch.layers ? 2 : 1;
  if (s.attn === 'eager') return { bool: square, float: square * eRes, count };
  return s.attn === 'sdpa' && maskedShare >= 1 ? { bool: square, float: 0, count } : null;
}

/**
 * How the adapters are built and run (lora-activations.ts LoraSaves). The adapter parameter's
 * element size is 4 under AMP (fp32 parameters; `weights` there is autocast's 16-bit copy) and the
 * stored weight otherwise (4 for PEFT's fp32 upcast, 2 for 16-bit adapters).
 */
function loraSaves(ctx: Ctx, dt: ActDtypes, adapterBytes: number): LoraSaves {
  const { s } = ctx;
  const amp = s.precision === 'amp-fp16' || s.precision === 'amp-bf16';
  const autocast = autocastActive(s);
  const base = baseSaves(baseKernel(s.weights), s.bnbVersion === 'legacy' ? s.bnbCompute : null);
  // kbit-prep: the MLP and the down input are fp32; attention saves 16-bit casts under autocast or flash, else fp32
  const upcast = kbitUpcasts(s) ? { attn: autocast || s.attn === 'flash' ? dt.e : 4 } : undefined;
  return {
    targets: s.loraTargets,
    rank: s.loraRank,
    dropout: s.loraDropout,
    adapterBytes: amp ? 4 : adapterBytes,
    autocast,
    base,
    fp16: s.precision === 'fp16' || s.precision === 'amp-fp16',
    ...(upcast ? { upcast } : {}),
    ...(base.weight16 ? { savedWeights: savedWeights16(ctx) } : {}),
  };
}

/**
 * One LoRA layer's forward, in order (lora-forward.ts loraLayerPlan): `keep` lays out the saved
 * inventory the replay keeps per layer (the recomputed one under full checkpointing),
 * `checkpointed` the adapters' tensors a checkpointed forward makes and frees.
 */
function loraPlans(ctx: Ctx, dt: ActDtypes, lora: LoraSaves, acts: ActivationTotal, maskedShare: number): LayerPlans {
  const { s, arch } = ctx;
  const t = Math.max(1, s.tp);
  const sb = s.seq * s.batch;
  const { hidden: h, heads: a, kvHeads: g, headDim: d } = arch;
  const linears = loraLayerForward(arch, sb, s.tp, lora.targets, lora.rank, lora.dropout, {
    e: dt.e,
    hiddenIn: dt.eRes,
    attnIn: lora.upcast?.attn ?? dt.e,
    mlpIn: lora.upcast ? 4 : dt.e,
    adapterBytes: lora.adapterBytes,
    autocast: lora.autocast,
  });
  const full = s.gradCkpt === 'full';
  // a recompute's first norm saves the checkpoint's fp32 input itself (activations.ts inputSavedAsIs)
  const asIs = full && acts.style === 'llama' && inputSavedAsIs(acts.style, false, dt) ? 1 : 0;
  // eager attention in a 16-bit model, heads whole on each rank: its score tensors laid out
  // (eager-scores.ts); its matmuls save q's copy and K and V at all heads (savedKvWidth)
  const eager = s.attn === 'eager' && dt.e === 2 && dt.eRes === 2 && !lora.upcast && !arch.mla && a % t === 0;
  const saves = {
    norm: sb * h * 4,
    norms: acts.fp32Hidden - asIs,
    // v kept as a slice of a fused qkv output holds the whole output (fused-views.ts)
    // Qwen3 / Gemma-3: the q and k norms' fp32 input copies come before the rotated q, k (qkNormPerToken)
    attn: [
      ...(qkNormPerToken(arch, dt.e, false, false) > 0 ? [a * d * 4, g * d * 4] : []),
      ...(eager ? [a * d, a * d, a * d] : [a * d, g * d, g * d + fusedQkvViewWidth(arch, s.attn, s.batch, maskedShare), a * d]).map((w) => w * dt.e),
    ].map((w) => (sb * w) / t),
    mlp: (sb * mlpWidth(arch, false) * dt.e) / t,
    mlps: arch.gatedMlp ? 3 : 1,
    ...(eager ? { eager: { scores: s.batch * (a / t) * s.seq * s.seq * dt.e, output: (sb * a * d * dt.e) / t, softcap: arch.attnSoftcap === true, upcast: s.precision !== 'fp16' } } : {}),
  };
  const perLayer = full ? acts.recompute : (acts.bytes - acts.head - acts.recompute) / Math.max(1, acts.layersOnGpu);
  return { keep: loraLayerPlan(linears, perLayer, saves, true), checkpointed: full ? loraLayerPlan(linears, 0, saves, false) : null, input: 0, cached: 0 };
}

/**
 * The last layer's forward in the replay: what the layers before it keep (their saves, or their
 * checkpoint inputs) and its own plan's peak, the input handed to it included.
 */
function forwardMoment(acts: ActivationTotal, plan: LayerPlans): number {
  const layers = acts.bytes - acts.head - acts.recompute;
  const L = Math.max(1, acts.layersOnGpu);
  return (layers * (L - 1)) / L + (plan.checkpointed ? planPeak(plan.checkpointed) : planPeak(plan.keep, plan.input));
}

/** Saved-activation inventory with a frozen base (lora-activations.ts). */
function frozenBaseSaves(ctx: Ctx, dt: ActDtypes, lora: LoraSaves, trainedHead: boolean, maskedShare: number): Pick<ActivationOptions, 'layer' | 'headPerToken'> {
  const { s, arch } = ctx;
  const compiled = s.compile === 'inductor';
  const autocast = autocastActive(s);
  return {
    layer: (moeLayer) => loraLayerActivation(arch, s.seq, s.batch, dt, s.attn, s.tp, moeLayer, compiled, lora, maskedShare),
    // a trained head (modules_to_save) saves its input: autocast's 16-bit copy, else the norm output (fp32 after kbit-prep)
    headPerToken: loraHeadPerToken(arch, dt, compiled) + (trainedHead ? arch.hidden * (!autocast && kbitUpcasts(s) ? 4 : dt.e) : 0),
  };
}

/** 16-bit dequantized weights one dense / MoE layer keeps saved (GPTQ torch path: 2 B per weight). */
function savedWeights16(ctx: Ctx): { dense: number; moe: number } {
  const out = { dense: 0, moe: 0 };
  for (const kind of blockKinds(ctx.arch)) {
    if (kind.kind === 'dense' || kind.kind === 'moe') out[kind.kind] = 2 * linearElements(kind);
  }
  return out;
}

/**
 * LM-head logits and loss. `eLogits`: the logits' element size (fp32 from an fp32 head without
 * autocast, kbit-prep.ts); `headCopy`: a copy of the head's weight that its matmul saves for the
 * gradient of its input, live from the logits to the head's backward — autocast's 16-bit copy of
 * an fp32 frozen head, or Baichuan2's NormHead, whose training forward multiplies by
 * `F.normalize(self.weight)`, a new V×h tensor every step (modeling_baichuan.py `NormHead.forward`).
 * Under autocast that tensor is fp32: `F.normalize` is `input / input.norm(p, dim, keepdim=True)
 * .clamp_min(eps).expand_as(input)` (torch/nn/functional.py), autocast runs `norm` with an fp32
 * dtype appended (aten/src/ATen/autocast_mode.cpp, fp32_append_dtype), and the 16-bit weight divided
 * by an fp32 tensor promotes to fp32; `F.linear` then casts it to 16-bit (not cached: no leaf), and
 * that cast is what it saves. For the matmul's moment the fp32 tensor, the cast and the new logits
 * are live together — above the loss's own peak when V·h is large against s·V.
 */
function headLoss(ctx: Ctx, e: number, eLogits: number, headCopy: 'autocast' | 'norm-head' | null): LossBytes {
  const { s, arch } = ctx;
  const path = resolveLogitsPath(s.logitsPath, arch);
  // ChatGLM's own files write their loss their own way (loss.ts chatglmLossBytes)
  const glm = arch.family === 'chatglm' && path === 'remote-code' && s.lossChunks <= 1;
  const plain = glm
    ? chatglmLossBytes(s.seq, s.batch, arch.vocab / s.tp, eLogits)
    : lossBytes(s.seq, s.batch, arch.vocab / s.tp, eLogits, s.lossChunks, s.compile === 'inductor', path, autocastActive(s));
  const loss = arch.logitSoftcap ? softcapped(plain, s.seq, s.batch, arch.vocab / s.tp, eLogits) : plain;
  if (!headCopy) return loss;
  // the copy is saved for the head's backward: live through the loss and head backward too
  const V = sym('V', arch.vocab / s.tp);
  const copy = mul(V, sym('h', arch.hidden), sym('e_cast', e));
  const x = loss.exprs;
  // NormHead under autocast: the fp32 normalised weight and the new logits beside the cast, at the head's matmul
  const fp32Norm = headCopy === 'norm-head' && autocastActive(s) && e < 4;
  const atHead = fp32Norm ? add(copy, mul(V, sym('h', arch.hidden), 4), mul(sym('s', s.seq), sym('b', s.batch), V, sym('e_logits', eLogits))) : 0;
  return lossOf(
    { peak: fp32Norm ? max(add(x.peak, copy), atHead) : add(x.peak, copy), held: add(x.held, copy), backward: add(x.backward, copy), headBackward: add(x.headBackward, copy) },
    headCopy === 'autocast'
      ? `${loss.formula}; + V·h·e_cast (autocast copy of the fp32 LM head, saved for backward)`
      : `${loss.formula}; + V·h·e_cast (NormHead's normalised weight, saved for backward)${fp32Norm ? '; at the head under autocast: max(that, V·h·(e_cast + 4) + s·b·V·e_logits) (the fp32 normalised weight its cast is made from)' : ''}`,
    headCopy === 'autocast' ? `${loss.source}; peft prepare_model_for_kbit_training (fp32 head), torch autocast linear` : `${loss.source}; Baichuan2 modeling_baichuan.py NormHead.forward`,
  );
}

/**
 * Final logit softcapping (Gemma-2: transformers models/gemma2/modeling_gemma2.py
 * Gemma2ForCausalLM.forward, `logits = tanh(logits / c) * c` before the loss): tanh saves its
 * output (derivatives.yaml `tanh: tanh_backward(grad, result)`), one more s·b·V tensor in the
 * logits dtype from the forward until tanh's backward, which runs after the loss backward; the
 * division and the multiplication by the constant save nothing. The LM-head backward comes after it.
 */
function softcapped(loss: LossBytes, seq: number, batch: number, vocab: number, e: number): LossBytes {
  const y = mul(sym('s', seq), sym('b', batch), sym('V', vocab), sym('e', e));
  const x = loss.exprs;
  // in the tensor sequence: tanh's output first (index 0), freed by tanh's backward after the loss's
  const q = loss.sequence;
  const shift = (ev: LossEvent): LossEvent => ('alloc' in ev ? ev : { free: ev.free + 1 });
  const sequence = q && { forward: [{ alloc: evaluate(y) }, ...q.forward.map(shift)], backward: [...q.backward.map(shift), { free: 0 }] };
  return lossOf(
    { peak: add(x.peak, y), held: add(x.held, y), backward: add(x.backward, y), headBackward: x.headBackward },
    `${loss.formula}; + s·b·V·e (tanh output of the final logit softcapping, saved for backward)`,
    `${loss.source}; modeling_gemma2.py Gemma2ForCausalLM.forward (final_logit_softcapping)`,
    sequence,
  );
}

/** Encoder task head (sequence classification): b rows of 2 fp32 logits. */
function taskHeadLogits(batch: number): LossBytes {
  const x = mul(sym('b', batch), sym('labels', 2), 4);
  return lossOf({ peak: x, held: x, backward: x, headBackward: x }, 'task head logits (fp32)', 'task head logits (fp32)');
}

/** No LM head on this GPU (split=layers): no logits, no loss buffers. */
const NO_LOSS: LossBytes = lossOf({ peak: 0, held: 0, backward: 0, headBackward: 0 }, 'no LM head on this GPU', 'accelerate infer_auto_device_map (the head sits on the last GPU)');

/**
 * The frozen base (LoRA / QLoRA / freeze) on one GPU: its storage-format bytes (+ the fp32 upcast of
 * prepare_model_for_kbit_training), the GPU's share of a t × p grid, ÷ N_d under ZeRO-3.
 */
function frozenBaseExpr(ctx: Ctx, upcastWeights: number, dp: number): Expr {
  const { s, params } = ctx;
  // kbit-prep.ts upcastBytes: the non-Linear parameters go from 16-bit to fp32, 2 B more each
  const base = add(sym('W', ctx.weights.total), ...(upcastWeights > 0 ? [mul(2, sub(sym('P', params.total), sym('P_linear', params.blockLinear)))] : []));
  const onGpu = s.tp * s.pp > 1 ? mul(base, div(sym('P_gpu', paramsPerGpu(params, s.tp, s.pp)), sym('P', Math.max(1, params.total)))) : base;
  return s.zero === 3 && dp > 1 ? div(onGpu, sym('N_d', dp)) : onGpu;
}
