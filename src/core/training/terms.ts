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
import { CUBLAS_WORKSPACE_BYTES, type TensorGroup } from '../runtime';
import { bnbDequantBytes } from '../formats/quantized';
import type { Message, Term } from '../types';
import { activationBytes, ampCastCopies, type ActDtypes, type ActivationOptions } from './activations';
import { loraHeadPerToken, loraLayerActivation } from './lora-activations';
import { inBackwardStep, largestTrainableElements } from './in-backward';
import { lossBytes } from './loss';
import { adamStepTemp, adapterStateBytes, modelStateBytes } from './optimizer';
import { paramsPerGpu, shardStates } from './sharding';
import { trainableParams } from './trainable';

/** DeepSpeed ZeRO-1/2 `reduce_bucket_size` default: 5e8 elements (contiguous-gradients IPG buffer). */
export const DEEPSPEED_REDUCE_BUCKET = 5e8;

/**
 * Activation dtypes: fp32 training keeps everything in 4 B; AMP computes matmuls in 16-bit
 * but keeps fp32 parameters, so the residual stream and (autocast) softmax stay fp32;
 * pure 16-bit training is 2 B throughout.
 */
export function trainingDtypes(ctx: Ctx): ActDtypes {
  const p = ctx.s.precision;
  if (p === 'fp32') return { e: 4, eRes: 4, eSoftmax: 4 };
  if (p === 'amp-fp16' || p === 'amp-bf16') return { e: 2, eRes: 4, eSoftmax: 4 };
  return { e: 2, eRes: 2, eSoftmax: 2 };
}

export function buildTraining(ctx: Ctx): Built {
  const { s, arch, params } = ctx;
  const notes: Message[] = [];
  const dp = Math.max(1, Math.floor(s.gpus / (s.tp * s.pp)));
  const dt = trainingDtypes(ctx);
  const e = dt.e;
  const full = s.method === 'full';
  const shareOnGpu = paramsPerGpu(params, s.tp, s.pp) / Math.max(1, params.total);
  const trainable = trainableParams(ctx);
  const adapters = s.method === 'lora' || s.method === 'qlora';
  const per = adapters ? adapterStateBytes(s.precision, s.optimizer, s.zero > 0, arch.hidden, s.adapterDtype) : modelStateBytes(s.precision, s.optimizer, s.zero > 0, arch.hidden);
  const trainOnGpu = full ? paramsPerGpu(params, s.tp, s.pp) : trainable.count * shareOnGpu;
  const states = shardStates(trainOnGpu, per, s.zero, dp, s.offload);
  // frozen base (LoRA / QLoRA / freeze) in its storage format; ZeRO-3 shards it too
  const baseWeights = full ? 0 : (ctx.weights.total * shareOnGpu) / (s.zero === 3 ? dp : 1);
  const stepWeights = full ? states.weights : 0;
  // LoRA adapters are extra tensors; a freeze recipe trains tensors already in the base weights
  const adapterWeights = adapters ? states.weights : 0;
  // freeze: nothing below the trained last block needs gradients, so autograd saves only that
  // block's activations (frozen layers' inputs do not require grad)
  const savedArch = s.method === 'freeze' ? { ...arch, layers: 1, encoderDecoder: undefined } : arch;
  const compiled = s.compile === 'inductor';
  const acts = activationBytes(savedArch, s.seq, s.batch, dt, s.attn, s.gradCkpt, s.tp, { compiled, offload: s.actOffload === 'cpu', ...(adapters && !arch.mla ? frozenBaseSaves(ctx, dt, per.weights) : {}) });
  const encoder = trainable.encoderOnly;
  const logits = encoder
    ? { peak: s.batch * 2 * 4, held: s.batch * 2 * 4, formula: 'b·labels·4 (task head)', source: 'task head logits (fp32)' }
    : lossBytes(s.seq, s.batch, arch.vocab / s.tp, e, s.lossChunks, compiled);
  const dequant = s.method === 'qlora' ? bnbDequantBytes(s.bnbCompute, params.largestLinear) : 0;
  // ZeRO-3 / FSDP: the current unit (one block) gathered whole plus the prefetched next one, in the
  // working-weight dtype (formulas.md §4.2; DeepSpeed's LL = 4·largest_layer for 16-bit)
  const gathered = s.zero === 3 && dp > 1 ? (2 * per.weights * params.perLayer) / s.tp : 0;
  const comm = s.zero === 0 && dp > 1 ? states.gradients
    : (s.zero === 1 || s.zero === 2) && dp > 1 && s.offload === 'none' ? Math.min(DEEPSPEED_REDUCE_BUCKET, trainOnGpu) * per.gradients
      : 0;
  // bitsandbytes paged state is cudaMallocManaged memory (bitsandbytes functional.py get_paged),
  // outside PyTorch's caching allocator: on the device, not in torch.cuda.max_memory_allocated
  const paged = s.optimizer.startsWith('paged') && s.offload === 'none';
  const persistent = baseWeights + stepWeights + adapterWeights + states.master + (paged ? 0 : states.optimizer) + comm + CUBLAS_WORKSPACE_BYTES;
  const headGrad = full ? (arch.vocab * arch.hidden * per.gradients) / s.tp : 0;
  // 1F1B: the first stage holds p micro-batches × L/p layers (≈ all L layers' activations), the
  // last stage one micro-batch of L/p layers plus the logits; take the more loaded stage.
  // full checkpointing: the recomputed layer exists only after the loss and LM-head backward
  // have freed the logits, so it and the loss buffers are never live together
  const withLogits = (extra: number) => (s.pp > 1 ? Math.max(acts.bytes, acts.bytes / s.pp + extra) : acts.bytes - acts.recompute + Math.max(acts.recompute, extra));
  const atForward = withLogits(logits.peak) + gathered + dequant;
  // optimizer step in backward: the largest gradient (≥ the head's) and its one-tensor step temporary
  const inBwd = s.optimStep === 'in-backward' ? inBackwardStep(ctx, per, dp) : null;
  const atBackward = withLogits(logits.held + (inBwd ? inBwd.gradient + inBwd.temp : headGrad)) + gathered + dequant;
  // DeepSpeed (ZeRO ≥ 1) steps with fused kernels; bitsandbytes 8-bit steps per tensor.
  // bitsandbytes optimizers (8-bit and paged) update each tensor in its own kernel: no foreach list
  const torchAdam = s.optimizer === 'adamw' && s.zero === 0 && s.offload === 'none';
  const foreachTemp = torchAdam ? adamStepTemp(s.optimImpl, states.optimizer / 2, largestTrainableElements(ctx, dp) * (states.optimizer / 2 / Math.max(1, trainOnGpu))) : 0;
  const gradsHeld = !inBwd && (s.gradAccum > 1 || s.gradZero === 'zeros' || s.pp > 1);
  const atStep = inBwd ? 0 : gradsHeld ? foreachTemp : states.gradients + foreachTemp;
  const held = gradsHeld ? states.gradients : 0;
  const allocatedBytes = persistent + held + Math.max(atForward, atBackward, atStep);
  const terms: Term[] = [];
  if (full) {
    terms.push(term(ctx, 'weights', states.weights, {
      formula: 'P_gpu·w / (ZeRO-3 ? N_d : 1)', values: { P_gpu: trainOnGpu, w: per.weights, N_d: dp, zero: s.zero },
      source: per.source, confidence: 'exact',
    }, 'allocated', false));
  } else {
    terms.push(term(ctx, 'weights', baseWeights, {
      formula: 'W_base (frozen, storage format)', values: { W: ctx.weights.total, format: s.weights },
      source: ctx.weights.derivation.source, confidence: ctx.weights.derivation.confidence,
    }));
    if (adapterWeights > 0) {
      terms.push(term(ctx, 'lora-adapters', adapterWeights, {
        formula: trainable.formula, values: { ...trainable.values, w: per.weights, adapter_dtype: s.adapterDtype },
        source: trainable.source, confidence: 'exact',
      }));
    }
  }
  terms.push(term(ctx, 'gradients', inBwd ? inBwd.gradient : states.gradients, inBwd ? {
    formula: 'max_i P_i·g (each gradient freed by its post-accumulate-grad hook after its step)', values: { P_max: inBwd.gradient / Math.max(1, per.gradients), g: per.gradients, step_temp: inBwd.temp },
    source: 'torchtune training/memory.py register_optim_in_bwd_hooks (register_post_accumulate_grad_hook)', confidence: 'derived',
  } : {
    formula: 'P_train·g / (ZeRO ≥ 2 ? N_d : 1)', values: { P_train: trainOnGpu, g: per.gradients, N_d: dp, zero: s.zero, offload: s.offload, held: gradsHeld ? 'yes' : 'no' },
    source: per.source, confidence: 'exact',
  }, 'allocated', !full));
  terms.push(term(ctx, 'optimizer', states.optimizer, {
    formula: 'P_train·o / (ZeRO ≥ 1 ? N_d : 1)', values: { P_train: trainOnGpu, o: per.optimizer, optimizer: s.optimizer, N_d: dp, offload: s.offload, impl: s.optimImpl, step_temp: foreachTemp },
    source: paged ? 'formulas.md §4.1; bitsandbytes paged state: cudaMallocManaged, outside torch\'s allocator (device total only)' : 'formulas.md §4.1 (optimizer state bytes)',
    confidence: s.optimizer === 'adafactor' ? 'derived' : 'exact',
  }, paged ? 'device' : 'allocated', !full));
  if (states.master > 0) {
    terms.push(term(ctx, 'master-weights', states.master, {
      formula: 'P_train·4 / (ZeRO ≥ 1 ? N_d : 1)', values: { P_train: trainOnGpu, N_d: dp },
      source: 'fp32 master copy under AMP (ZeRO paper §3.1)', confidence: 'exact',
    }, 'allocated', !full));
  }
  terms.push(term(ctx, 'activations', acts.bytes, {
    formula: acts.formula,
    values: { s: s.seq, b: s.batch, h: arch.hidden, a: arch.heads, g: arch.kvHeads, d: arch.headDim, f: arch.ffn, L: arch.layers, e, e_res: dt.eRes, t: s.tp, attn: s.attn, ckpt: s.gradCkpt, style: acts.style, c: ampCastCopies(arch, dt) / Math.max(1, arch.hidden), compile: s.compile, offload: s.actOffload, ...(adapters ? { targets: s.loraTargets.join(','), r: s.loraRank, lora_dropout: s.loraDropout } : {}) },
    source: (acts.style === 'gpt' ? 'Korthikanti et al. 2022, arXiv 2205.05198 §4 (formulas.md §5.1)' : 'formulas.md §5.3 (Llama-style re-derivation of Korthikanti)')
      + (adapters ? '; frozen base: torch derivatives.yaml mm / gen_variable_type.py guard_for, PEFT lora.Linear.forward' : '')
      + (compiled ? '; torch/_functorch/partitioners.py min-cut partitioner' : '') + (s.actOffload === 'cpu' ? '; torchtune training/_activation_offloading.py' : ''),
    confidence: 'derived',
  }));
  terms.push(term(ctx, 'logits', logits.peak, {
    formula: logits.formula,
    values: { s: s.seq, b: s.batch, V: arch.vocab, e, held: logits.held, chunks: s.lossChunks, compile: s.compile },
    source: logits.source, confidence: 'derived',
  }));
  if (dequant > 0) {
    terms.push(term(ctx, 'dequant-buffer', dequant, {
      formula: s.bnbCompute === 'fp32' ? '(2 + 4)·max(d_in·d_out) (16-bit dequant + fp32 cast)' : '2·max(d_in·d_out)', values: { largest: params.largestLinear, compute: s.bnbCompute },
      source: 'QLoRA (arXiv 2305.14314); formulas.md §6.2', confidence: 'derived',
    }));
  }
  if (comm + gathered > 0) {
    terms.push(term(ctx, 'comm-buffers', comm + gathered, {
      formula: s.zero === 0 ? 'DDP gradient buckets: P_train·g (no gradient_as_bucket_view)' : s.zero === 3 ? '2 units gathered (current + prefetch)·w' : 'reduce bucket min(5e8, P)·g',
      values: { zero: s.zero, N_d: dp, bucket: DEEPSPEED_REDUCE_BUCKET, unit: params.perLayer, w: per.weights },
      source: 'formulas.md §4.2 (PyTorch PR #41954; DeepSpeed config defaults; FSDP prefetch)', confidence: 'heuristic',
    }));
  }
  terms.push(workspaceTerm(ctx));
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
      text: 'Gradients stay allocated between backward passes (gradient accumulation, pipeline micro-batches or zero_grad(set_to_none=False)): the peak is persistent states + gradients + activations.',
    });
  } else {
    notes.push({
      code: 'training.peak-not-sum',
      params: { forward: atForward, backward: atBackward, step: atStep },
      text: 'Gradients appear as activations are freed: the peak is persistent states + max(activations + logits, gradients), not the sum of all terms.',
    });
  }
  // saved activations are mostly s·b·h- or s·b·f-sized tensors: count them in s·b·h units
  const sbh = s.seq * s.batch * arch.hidden * e;
  const live: TensorGroup[] = [{ bytes: sbh, count: Math.ceil(acts.bytes / Math.max(1, sbh)) }];
  const phases: TrainingPhases = {
    weights: baseWeights + stepWeights, adapters: adapterWeights, master: states.master, optimizer: paged ? 0 : states.optimizer, comm, workspace: CUBLAS_WORKSPACE_BYTES,
    gradients: inBwd ? 0 : states.gradients, gradsHeld, headGrad, inBackward: inBwd, acts, logits, gathered, dequant, stepTemp: foreachTemp, atForward, atBackward, atStep,
  };
  return { terms, allocatedBytes, live, torchAllocator: true, trainable: trainable.count, notes, outsideAllocatorBytes: paged ? states.optimizer : 0, phases };
}

/**
 * Saved-activation inventory with a frozen base (lora-activations.ts). The adapter parameter's
 * element size is 4 under AMP (fp32 parameters; `weights` there is autocast's 16-bit copy) and the
 * stored weight otherwise (4 for PEFT's fp32 upcast, 2 for 16-bit adapters).
 */
function frozenBaseSaves(ctx: Ctx, dt: ActDtypes, adapterBytes: number): Pick<ActivationOptions, 'layer' | 'headPerToken'> {
  const { s, arch } = ctx;
  const compiled = s.compile === 'inductor';
  const amp = s.precision === 'amp-fp16' || s.precision === 'amp-bf16';
  const lora = { targets: s.loraTargets, rank: s.loraRank, dropout: s.loraDropout, adapterBytes: amp ? 4 : adapterBytes, amp };
  return {
    layer: (moeLayer) => loraLayerActivation(arch, s.seq, s.batch, dt, s.attn, s.tp, moeLayer, compiled, lora),
    headPerToken: loraHeadPerToken(arch, dt, compiled),
  };
}

