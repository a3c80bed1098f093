/**
 * One training step as a sequence of tensor allocations and frees, built from the same phase
 * quantities as the closed form (training/terms.ts `TrainingPhases`), so the two cannot drift.
 *
 * Order (PyTorch eager, HF Trainer / torchtune loops):
 * - before the first step: weights (every Linear at its own shape), adapters, fp32 master,
 *   buffers; gradients held in buffers of their own (DeepSpeed, ZeRO / FSDP, pipeline) exist from
 *   then on; plain PyTorch's held gradients (accumulation, set_to_none=False) are made by the first
 *   micro-step's backward like any others and stay (`gradsLife`);
 * - forward, per layer: ZeRO-3 gathers (current + prefetch), the bitsandbytes dequantized weight
 *   of each Linear (created and freed by bitsandbytes functional.py `dequantize_4bit` around its
 *   matmul), the tensors autograd saves (s·b·f- and s·b·h-shaped; full checkpointing: the layer
 *   input only, torch/utils/checkpoint.py); offloaded layers leave the GPU two layers later;
 * - a laid-out layer with a masked SDPA call or eager attention: before the layers, the attention
 *   mask transformers builds once per forward (masking_utils.py `sdpa_mask`: bool (b, 1, s, s);
 *   `eager_mask`: then made additive in e_res), dropped when the model's forward returns, or under
 *   full checkpointing held by the layers' recompute functions until layer 0's backward;
 * - the loss: logits and log-softmax held, the fp32 upcast freed; its backward's gradient buffers,
 *   then the LM-head backward's input (training/loss.ts, per logits-path);
 * - backward in reverse layer order: the LM-head gradient first, the loss buffers freed; per
 *   layer the recomputed inventory (full checkpointing) is rebuilt, the layer's weight gradients
 *   are made, then its saved and recomputed tensors are released (training/layer-backward.ts);
 *   the embedding's gradient last;
 * - with gradient accumulation, two micro-steps (forward + backward) per optimizer step;
 * - optimizer step: states created on the first step (torch/optim/adamw.py `_init_group`,
 *   torch.zeros_like per parameter), the step temporary (foreach list), then
 *   `zero_grad(set_to_none=True)` frees the gradients (accumulated ones too: the next step's first
 *   micro-step makes them again).
 * - the cuBLAS workspaces (runtime.ts): the forward thread's at the forward's first matmul, autograd's
 *   device thread's at the LM head's backward matmul, never freed;
 * - LoRA and a full fine-tune's Llama-style layers: each layer's forward as its plan lays it out
 *   (training/layer-plan.ts: lora-forward.ts loraLayerPlan, full-forward.ts fullLayerPlan), the
 *   temporaries made and freed among the saved tensors; a full fine-tune's layer reads the output
 *   the layer before handed it (the embedding's for the first), a checkpointed layer's forward keeps
 *   none of its tensors (a full fine-tune's keeps its output, the next checkpoint's input), its
 *   recompute in backward keeps them as saved.
 * Not modelled (checked against recorded H200 runs, tools/measure/measure_trainer.py --trace):
 * - the activation-gradient temporaries of each layer's backward (mm, mul, silu_backward, the SDPA
 *   backward's gradients and workspace, RMSNorm's and RoPE's fp32 / half-width pieces; named in
 *   tests/validation/layer-backward-trace.test.ts) and the order in which the layer's saves go among
 *   them. They are not free of reserved memory: in t028 (Llama-3.2-1B, 1,024 tokens) they cut 8 of
 *   the run's 220 segments (132 MiB), all in the first backward. But the run's peak reserved, replayed
 *   through our allocator model, is 4 MiB higher without them, not lower (the later tensors that took
 *   those segments cut their own instead), and adding the MLP's three s·b·f gradients to this replay
 *   leaves the LoRA rows' reserved as it was (the loss's freed blocks hold them) and moves the full
 *   fine-tunes t024 / t028 by −0.2 to +0.9 points, not monotonically in the bytes added: not the
 *   cause of the fixed rows' 1–3 % shortfall (t024's was its gradients sized with the norms' and
 *   biases' bytes spread over them, fixed in `step`);
 * - the order of an AMP LM head's backward (the 16-bit weight gradient, then its fp32 cast after
 *   the logits' gradient is freed): it moves where the head's gradient lands, not reserved memory;
 * - pipeline-parallel schedules.
 */
import type { TrainingPhases } from '../estimate-context';
import type { LossEvent } from '../training/loss';
import type { ModelArch, Scenario } from '../types';
import type { PlanEvent } from '../training/layer-plan';
import type { TiedGrad } from '../training/tied-grad';
import type { TensorGroup } from '../runtime';
import { mlpWidth } from '../model/tensors';
import { kSmallSize } from '../allocator/constants';
import type { Handle, Replay } from './replay';

/** What a step needs beyond its phase quantities. */
export interface StepShape {
  seq: number;
  phases: TrainingPhases;
}

/** Trainable tensors as fractions of the trainable total: per layer (repeated L times) and outside the layers. */
interface TensorSplit {
  /** fractions of one layer's tensors */
  layer: number[];
  /** LM head first, then the embedding (backward order) */
  outer: number[];
  /** largest Linear of a layer relative to the layer's weights (dequantized buffers) */
  linears: number[];
  /** share of the total, per layer, in tensors outside the groups (norms, biases): small-pool pieces */
  rest: number;
}

/** At most this many tensors per layer and group (MoE experts of one shape are merged beyond it). */
const MAX_PER_GROUP = 8;

/**
 * Weight tensors as fractions of `totalBytes` (the weights on this GPU): block groups per layer,
 * embedding / head outside. When the GPU holds the whole model, each group's tensor keeps its own
 * size (transformers allocates every parameter as its own tensor) and the bytes in no group (norms,
 * biases: a few KiB each) are the `rest`; a share of the model (tp, pp, a layer split) has its
 * shapes scaled to the share.
 */
function weightSplit(groups: readonly TensorGroup[], layers: number, totalBytes: number): TensorSplit {
  const blocks = groups.slice(0, -2);
  const [emb, head] = groups.slice(-2);
  const sum = groups.reduce((n, g) => n + g.bytes * g.count, 0) || 1;
  const total = Math.max(sum, totalBytes);
  const layer: number[] = [];
  for (const g of blocks) {
    const per = g.count / Math.max(1, layers);
    const n = Math.max(1, Math.min(MAX_PER_GROUP, Math.round(per)));
    for (let k = 0; k < n; k++) layer.push((g.bytes * per) / n / total);
  }
  const outer = [head && head.count > 0 ? head.bytes / total : 0, emb ? emb.bytes / total : 0].filter((f) => f > 0);
  const inLayer = layer.reduce((a, b) => a + b, 0) || 1;
  return { layer, outer, linears: layer.map((f) => f / inLayer), rest: (total - sum) / total / Math.max(1, layers) };
}

/** LoRA A (r×d_in) and B (d_out×r) per adapted projection (PEFT LoraLayer), as fractions. */
function adapterSplit(arch: ModelArch, s: Scenario, layers: number): TensorSplit {
  const { hidden: h, heads: a, kvHeads: g, headDim: d } = arch;
  const f = mlpWidth(arch, false);
  const io: Record<string, [number, number]> = { q: [h, a * d], k: [h, g * d], v: [h, g * d], o: [a * d, h], gate: [h, f], up: [h, f], down: [f, h] };
  const sizes = s.loraTargets.flatMap((t) => (io[t] ? [io[t][0] * s.loraRank, io[t][1] * s.loraRank] : []));
  const sum = sizes.reduce((x, y) => x + y, 0) * Math.max(1, layers) || 1;
  return { layer: sizes.map((x) => x / sum), outer: [], linears: [], rest: 0 };
}

interface Persistent {
  grads: Handle[];
  states: Handle[];
  /** cuBLAS workspaces made so far: the forward thread's, then autograd's device thread's */
  workspaces: number;
}

/** A cuBLAS handle's first matmul allocates its workspace, never freed (runtime.ts CUBLAS_WORKSPACE). */
function workspace(r: Replay, keep: Persistent, p: TrainingPhases, nth: 1 | 2): void {
  if (keep.workspaces >= nth) return;
  r.alloc('buffers', p.workspace);
  keep.workspaces = nth;
}

/** Allocates `total` bytes over a split: per layer i (or all layers) and the outer tensors. */
function allocLayer(r: Replay, cat: Parameters<Replay['alloc']>[0], total: number, split: TensorSplit, copies = 1): Handle[] {
  const out: Handle[] = [];
  for (const f of split.layer)
    for (let c = 0; c < copies; c++) {
      const h = r.alloc(cat, (total * f) / copies);
      if (h) out.push(h);
    }
  if (split.rest > 0) for (let c = 0; c < copies; c++) out.push(...r.allocSplit(cat, (total * split.rest) / copies, [{ size: kSmallSize, max: Number.MAX_SAFE_INTEGER }]));
  return out;
}

function allocOuter(r: Replay, cat: Parameters<Replay['alloc']>[0], total: number, split: TensorSplit, copies = 1): Handle[] {
  const out: Handle[] = [];
  for (const f of split.outer)
    for (let c = 0; c < copies; c++) {
      const h = r.alloc(cat, (total * f) / copies);
      if (h) out.push(h);
    }
  return out;
}

function allocAll(r: Replay, cat: Parameters<Replay['alloc']>[0], total: number, split: TensorSplit, layers: number, copies = 1): Handle[] {
  const out = allocOuter(r, cat, total, split, copies).reverse();
  for (let i = 0; i < layers; i++) out.push(...allocLayer(r, cat, total, split, copies));
  return out;
}

/** State tensors per parameter: AdamW two moments (exp_avg, exp_avg_sq), the others one. */
function statesPerParam(s: Scenario): number {
  return s.optimizer.includes('adamw') ? 2 : 1;
}

/**
 * Replays `steps` training steps (one StepShape each; all share the model) into `r`.
 * `weights` are the weight tensors on the GPU (estimate.ts weightGroups).
 */
export function replayTraining(r: Replay, s: Scenario, arch: ModelArch, weights: readonly TensorGroup[], weightRest: number, steps: readonly StepShape[]): void {
  const [firstStep] = steps;
  if (!firstStep) return;
  const first = firstStep.phases;
  // the GPU's own blocks (split=layers: those accelerate placed on the most-loaded GPU)
  const L = Math.max(1, first.layers);
  // the split's total is the tensors' and the norms' and biases' (weightRest, in the tensors' dtype):
  // under AMP phases.weights is 0 (the fp32 weights are the master copy), and without the rest its
  // bytes would be spread over the Linears
  const wSplit = weightSplit(weights, L, weights.reduce((n, g) => n + g.bytes * g.count, 0) + weightRest);
  const adapters = s.method === 'lora' || s.method === 'qlora';
  const trainSplit = adapters ? adapterSplit(arch, s, L) : wSplit;
  const tp = Math.max(1, s.tp);
  // persistent: weights in load order, adapters, master copy, buffers
  allocAll(r, 'weights', first.weights, wSplit, L);
  if (first.adapters > 0) allocAll(r, 'weights', first.adapters, trainSplit, L);
  if (first.master > 0) allocAll(r, 'optimizer', first.master, trainSplit, L);
  r.alloc('buffers', first.comm);
  const keep: Persistent = { grads: [], states: [], workspaces: 0 };
  if (first.gradsLife === 'setup') keep.grads = allocAll(r, 'gradients', first.gradients, trainSplit, L);
  r.mark('forward');
  // gradient accumulation: micro-steps before each optimizer step (two stand for any number:
  // the first makes the gradients, the later ones add into them)
  const micro = Math.min(2, Math.max(1, Math.floor(s.gradAccum)));
  for (let k = 0; k < steps.length && r.ok; k++) {
    r.step = k;
    for (let m = 0; m < micro && r.ok; m++) step(r, s, arch, L, tp, steps[k]!, trainSplit, wSplit, keep, k === 0, m === micro - 1); // k < steps.length
  }
}

function step(
  r: Replay,
  s: Scenario,
  arch: ModelArch,
  L: number,
  tp: number,
  shape: StepShape,
  split: TensorSplit,
  wSplit: TensorSplit,
  keep: Persistent,
  firstStep: boolean,
  optimize: boolean,
): void {
  const p = shape.phases;
  const sb = shape.seq * s.batch;
  const e = s.precision === 'fp32' ? 4 : 2;
  const hiddenUnit = { size: sb * arch.hidden * e, max: Infinity };
  // a layer's saved tensors at their shapes: the norms' fp32 token × hidden tensors
  // (training/activations.ts fp32HiddenTensors), a composed activation's fp32 f-wide ones
  // (training/act-saves.ts), the MLP's f-wide ones, then hidden-wide ones
  const fp32Unit = { size: sb * arch.hidden * 4, max: p.acts.fp32Hidden };
  const ffnElems = (sb * mlpWidth(arch, false)) / tp;
  const act = p.acts.act;
  const units = [fp32Unit, { size: ffnElems * 4, max: act.wide }, { size: ffnElems * e, max: (arch.gatedMlp ? 4 : 2) + act.narrow }, hiddenUnit];
  const full = s.gradCkpt === 'full';
  const onGpu = Math.max(1, p.acts.layersOnGpu);
  const recompute = p.acts.recompute;
  const perLayer = (p.acts.bytes - p.acts.head - recompute) / onGpu;
  const gather: Handle[] = [];
  const gatherUnit = (): void => {
    if (p.gathered <= 0) return;
    gather.push(r.alloc('temporary', p.gathered / 2) as Handle);
    if (gather.length > 2) r.free(gather.shift());
  };
  const dequantLayer = (): void => {
    for (const f of wSplit.linears) r.free(r.alloc('temporary', (p.dequant * f) / Math.max(...wSplit.linears)));
  };
  const plan = p.layerPlan;
  // a layer's saves without its forward's order: the input alone (full checkpointing) or unit pieces
  const saveLayer = (): Handle[] => {
    if (full) return [r.alloc('activations', perLayer)].filter((h): h is Handle => h !== null);
    if (!plan) return r.allocSplit('activations', perLayer, units);
    const run = runPlan(r, plan.keep, 'activations');
    r.free(run.out);
    r.freeAll(run.cached);
    return run.kept;
  };
  // AMP: each Linear's 16-bit copy (training/amp-cache.ts), made before its matmul where the plan
  // lays it out, else when its layer first runs
  const amp = p.ampCopies;
  const copyLayer = (): Handle[] => (amp && !plan?.cached ? wSplit.linears.map((f) => r.alloc('weights', amp.layer * f)).filter((h): h is Handle => h !== null) : []);
  const copies: Handle[][] = [];
  // the bool attention mask, before the rotary embedding (masking_utils.py `sdpa_mask`, no vmap):
  // `and_masks` ands the causal pattern (1, 1, s, s) into a new result, then the padding mask's
  // (b, 1, 1, s) gather into the (b, 1, s, s) mask, each operand and the previous result freed
  const masks = p.attnMask ? Array.from({ length: p.attnMask.count }, () => attnMaskBuild(r, p.attnMask!, shape.seq * shape.seq)) : [];
  // forward: its first matmul (the rotary embedding's, or layer 0's first Linear) on the main thread
  workspace(r, keep, p, 1);
  const saved: (Handle[] | null)[] = [];
  // a plan reading its input from the layer before: the embedding's output goes to the first layer
  let carry = plan && !full && plan.input > 0 ? r.alloc('activations', plan.input) : null;
  for (let i = 0; i < L; i++) {
    gatherUnit();
    if (p.dequant > 0) dequantLayer();
    const cache = copyLayer();
    copies.push(cache);
    if (plan?.checkpointed) {
      // a checkpointed forward keeps nothing (LoRA's plan) or only its output, the next checkpoint's input
      const run = runPlan(r, plan.checkpointed, 'activations');
      cache.push(...run.cached);
      saved.push(run.kept.length > 0 ? run.kept : saveLayer());
    } else if (plan && !full) {
      const run = runPlan(r, plan.keep, 'activations', carry);
      cache.push(...run.cached);
      carry = run.out;
      saved.push(run.kept);
    } else saved.push(saveLayer());
    if (i >= onGpu) {
      r.freeAll(saved[i - onGpu] as Handle[]);
      saved[i - onGpu] = null;
    }
    r.mark('forward');
  }
  // the last layer's output goes once the final norm has read it (kept there as the head's saves)
  r.free(carry);
  const headCopy = amp ? r.alloc('weights', amp.head) : null;
  const head = r.allocSplit('activations', p.acts.head, [hiddenUnit]);
  // Model.forward returns: the mask goes, unless checkpointed layers hold it into backward
  if (!full) r.freeAll(masks);
  const seq = p.logits.sequence;
  // the loss's own tensors in their order where loss.ts knows it (`sequence`), else its moments as
  // blocks: held, the rest of the forward peak; in backward its gradient buffers on top of what
  // was held, then the LM-head backward with the logits' gradient in their dtype (`headBackward`)
  const loss: (Handle | null)[] = [];
  const run = (evs: readonly LossEvent[]): void => {
    for (const ev of evs) {
      if ('alloc' in ev) loss.push(r.alloc('loss', ev.alloc));
      else {
        r.free(loss[ev.free]);
        loss[ev.free] = null;
      }
    }
  };
  if (seq) run(seq.forward);
  else {
    loss.push(r.alloc('loss', p.logits.held));
    r.free(r.alloc('loss', p.logits.peak - p.logits.held));
  }
  // autocast's region ends with the forward: checkpointed layers saved no copy
  if (amp?.checkpointed) for (const c of copies.splice(0)) r.freeAll(c);
  r.mark('forward');
  if (seq) run(seq.backward);
  else {
    r.free(r.alloc('loss', Math.max(0, p.logits.backward - p.logits.held)));
    r.freeAll(loss.splice(0));
    loss.push(r.alloc('loss', p.logits.headBackward));
  }
  // the LM head's backward matmul: the first on autograd's device thread
  workspace(r, keep, p, 2);
  const grads = keep.grads.length > 0 || p.gradients <= 0 ? null : ([] as Handle[]);
  if (p.inBackward) {
    const g = r.alloc('gradients', p.inBackward.gradient);
    r.free(r.alloc('temporary', p.inBackward.temp));
    r.free(g);
  } else if (grads && p.headGrad > 0) {
    grads.push(r.alloc('gradients', p.headGrad) as Handle);
  }
  // held gradients: the new LM-head gradient is a temporary that AccumulateGrad adds into .grad;
  // a tied one waits for the embedding's (training/tied-grad.ts)
  const incoming = !grads && !p.inBackward && keep.grads.length > 0 ? r.alloc('temporary', p.headGrad) : null;
  r.freeAll(loss);
  r.freeAll(head);
  r.free(headCopy);
  if (p.tiedGrad.bytes <= 0) r.free(incoming);
  r.mark('backward');
  // per layer (training/layer-backward.ts, the closed form's atLayers): the recomputed inventory
  // (full checkpointing), the dequantized weights made and freed, the layer's weight gradients,
  // then its saved and recomputed tensors released
  // a layer's share of the trainable total: its Linears' tensors and its norms and biases (split.rest)
  const layerSum = split.layer.reduce((a, b) => a + b, 0) + split.rest || 1;
  for (let i = L - 1; i >= 0; i--) {
    gatherUnit();
    let mine = saved[i];
    if (!mine) mine = saveLayer(); // offloaded: brought back for its backward
    const recopied = amp?.checkpointed ? copyLayer() : (copies[i] ?? []);
    const rerun = full && recompute > 0 && plan ? runPlan(r, plan.keep, 'temporary') : null;
    if (rerun) recopied.push(...rerun.cached);
    const again = rerun ? rerun.kept : full && recompute > 0 ? r.allocSplit('temporary', recompute, units) : [];
    if (p.dequant > 0) dequantLayer();
    // the gradients the layer's backward holds (a composed activation's, SDPA's math kernel's:
    // training/activations.ts backwardTemp), before its weight gradients
    if (p.acts.backwardTemp > 0) r.free(r.alloc('temporary', p.acts.backwardTemp));
    if (grads) grads.push(...allocLayer(r, 'gradients', p.layerGrad / layerSum, split));
    r.freeAll(again);
    for (let j = mine.length - 1; j >= 0; j--) r.free(mine[j]);
    r.freeAll(recopied);
    saved[i] = null;
    r.mark('backward');
  }
  // layer 0's backward done: its recompute function, the last to hold the mask, goes
  if (full) r.freeAll(masks);
  if (grads && p.embedGrad > 0) grads.push(r.alloc('gradients', p.embedGrad) as Handle);
  if (p.tiedGrad.bytes > 0) tiedSum(r, p.tiedGrad, grads, incoming);
  r.freeAll(gather.splice(0));
  r.mark('backward');
  // the gradients this (first) backward made stay as `.grad`; later micro-steps add into them
  if (grads) keep.grads = grads;
  if (!optimize) return;
  // optimizer step
  const per = Math.max(1, statesPerParam(s));
  if (firstStep && p.optimizer > 0) keep.states = allocAll(r, 'optimizer', p.optimizer, split, L, per);
  if (p.stepTemp > 0) {
    if (s.optimImpl === 'foreach') r.freeAll(allocAll(r, 'temporary', p.stepTemp, split, L));
    else r.free(r.alloc('temporary', p.stepTemp));
  }
  // zero_grad(set_to_none=True) frees the gradients; set_to_none=False and setup buffers keep them
  if (p.gradsLife === 'step') r.freeAll(keep.grads.splice(0));
  r.mark('optimizer');
}

/**
 * Builds the (b, 1, s, s) bool mask from two (1, 1, s, s) pieces of `square` bytes, and for eager
 * attention its additive copy (`torch.where`), the bool freed; returns the mask the layers read.
 */
function attnMaskBuild(r: Replay, m: { bool: number; float: number }, square: number): Handle | null {
  const causal = r.alloc('temporary', square);
  const first = r.alloc('temporary', square);
  r.free(causal);
  const bool = r.alloc('activations', m.bool);
  r.free(first);
  if (m.float <= 0) return bool;
  const additive = r.alloc('activations', m.float);
  r.free(bool);
  return additive;
}

/** The allocs a plan frees, by plan: its output (never freed) outlives it as an activation, not a temporary. */
const FREED = new WeakMap<readonly PlanEvent[], Set<number>>();
function freedOf(plan: readonly PlanEvent[]): Set<number> {
  let freed = FREED.get(plan);
  if (!freed) {
    freed = new Set(plan.flatMap((ev) => ('free' in ev ? [ev.free] : [])));
    FREED.set(plan, freed);
  }
  return freed;
}

/**
 * Runs a layer plan (training/layer-plan.ts). `input`, the layer before's output, is freed where the
 * plan frees it (`free: -1`), else kept with the saves. Returns the kept tensors, the layer's
 * output (its one alloc neither saved, cached nor freed), to hand to the next layer, and the AMP
 * weight copies it left in autocast's cache.
 */
function runPlan(r: Replay, plan: readonly PlanEvent[], cat: 'activations' | 'temporary', input: Handle | null = null): { kept: Handle[]; out: Handle | null; cached: Handle[] } {
  const hs: (Handle | null)[] = [];
  const kept = new Set<number>();
  const live = new Set<number>();
  const cached: Handle[] = [];
  let held = input;
  const freed = freedOf(plan);
  for (const ev of plan) {
    if ('free' in ev) {
      if (ev.free < 0) {
        r.free(held);
        held = null;
        continue;
      }
      r.free(hs[ev.free]);
      kept.delete(ev.free);
      live.delete(ev.free);
    } else if (ev.cached) {
      const h = r.alloc('weights', ev.alloc);
      if (h) cached.push(h);
      hs.push(h);
    } else {
      const n = hs.length;
      (ev.saved ? kept : live).add(n);
      hs.push(r.alloc(ev.saved || !freed.has(n) ? cat : 'temporary', ev.alloc));
    }
  }
  const handles = (ids: Set<number>): Handle[] => [...ids].map((i) => hs[i]).filter((h): h is Handle => !!h);
  return { kept: held ? [held, ...handles(kept)] : handles(kept), out: handles(live)[0] ?? null, cached };
}

/**
 * A tied embedding's backward (training/tied-grad.ts): its gradient, added to the head's waiting
 * one — out of place where that one is a view (the sum replaces the head's handle, grads[0]), in
 * place after a cast; with held gradients the result goes into `.grad` in place and every addend
 * is freed.
 */
function tiedSum(r: Replay, t: TiedGrad, grads: Handle[] | null, incoming: Handle | null): void {
  const mine = r.alloc('temporary', t.bytes);
  const sum = t.view ? r.alloc(grads ? 'gradients' : 'temporary', t.bytes) : null;
  if (grads && grads.length > 0 && sum) {
    r.free(grads[0]);
    grads[0] = sum;
  } else r.free(sum);
  r.free(incoming);
  r.free(mine);
  r.mark('backward');
}
