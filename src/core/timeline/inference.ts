/**
 * HF transformers `generate` as tensor allocations, from inference/transformers.ts
 * (`InferencePhases`): weights; prefill, per layer the prompt's K and V and the forward transient
 * (a quantized Linear's dequantized weight among it, inference/quant-linear.ts); then decode, where
 * DynamicCache.update (transformers cache_utils.py: `self.key_cache[layer_idx] = torch.cat([self.key_cache[layer_idx],
 * key_states], dim=-2)`, likewise for values) allocates a new K and V one token longer for every
 * layer and frees the old ones, so every token leaves a hole one layer's K long — the pattern
 * that fragments the cache. Where the prompt pass is laid out, each layer's K and V take its own
 * length (inference/hf-prefill.ts `layerKvBytes`: a sliding layer's `DynamicSlidingWindowLayer`
 * cats its window); elsewhere every layer the layers' mean. A remote-code file's tuple cache
 * (inference/remote-runtime.ts `OwnCache`) frees the old K and V, and the prompt's views, only when
 * the step returns. Long generations are replayed in at most MAX_DECODE_STEPS steps of
 * several tokens each (the same growth, fewer events).
 */
import { kSmallSize } from '../allocator/constants';
import type { EstimateDetail } from '../estimate';
import type { InferencePhases } from '../estimate-context';
import { layerKvBytes, prefillEpilogue, prefillLayer, prefillPrologue } from '../inference/hf-prefill';
import type { PrefillOp, PrefillShape } from '../inference/hf-prefill-shape';
import { gemma2Epilogue, gemma2Layer, gemma2Prologue } from '../inference/hf-prefill-gemma2';
import {
  baichuanAlibiEpilogue,
  baichuanAlibiLayer,
  baichuanAlibiMask,
  baichuanAlibiPrologue,
  chatglm2Epilogue,
  chatglm2Layer,
  chatglm2Prologue,
  qwenEpilogue,
  qwenLayer,
  qwenPrologue,
} from '../inference/remote-prefill';
import { scorePieces } from '../inference/score-pieces';
import type { Handle, Replay } from './replay';

export const MAX_DECODE_STEPS = 256;

/** `loadTransient`: bytes allocated after the weights and freed before the run (TimelineOptions). */
export function replayInference(r: Replay, d: EstimateDetail, loadTransient = 0): void {
  const p = d.built.inference;
  if (!p) return;
  const groups = d.weightTensors;
  const sum = groups.reduce((n, g) => n + g.bytes * g.count, 0) || 1;
  // Weights at their shapes. A GPU holding them all gets each Linear at its own size (transformers
  // allocates every parameter as its own tensor) and the norms and biases outside the groups as
  // small-pool pieces (kSmallSize; a norm's weight is h·e bytes); a share of the model (tp, pp, a layer split) has its shapes scaled to the share.
  const whole = p.weights >= sum;
  for (const g of groups) for (let k = 0; k < g.count && r.ok; k++) r.alloc('weights', whole ? g.bytes : (g.bytes * p.weights) / sum);
  if (whole) r.allocSplit('weights', p.weights - sum, [{ size: kSmallSize, max: Number.MAX_SAFE_INTEGER }]);
  r.free(r.alloc('weights', loadTransient));
  if (p.kernel > 0) r.alloc('buffers', p.kernel);
  if (p.buffers > 0) r.alloc('buffers', p.buffers);
  r.alloc('buffers', p.workspace);
  // a vision-language model's tower encodes the images first (inference/vision-encoder.ts)
  if (p.vision > 0) r.free(r.alloc('temporary', p.vision));
  r.mark('prefill');
  const L = p.layers;
  const tokens = p.prompt + p.gen;
  const kvPerToken = tokens > 0 && L > 0 ? p.kvFull / tokens / L / 2 : 0;
  const k: (Handle | null)[] = [];
  const v: (Handle | null)[] = [];
  const views: (Handle | null)[] = [];
  if (p.sequence && L > 0) prefillInOrder(r, p.sequence, L, k, v);
  else prefillByBlocks(r, p, k, v, views);
  if (p.gen <= 0 || L === 0) return;
  const steps = Math.min(p.gen, MAX_DECODE_STEPS);
  for (let t = 1; t <= steps && r.ok; t++) {
    const upto = p.prompt + Math.round((p.gen * t) / steps);
    // a mask that grows as k² (Baichuan-13B's) is allocated at this step's length: a new size every
    // few steps, which the smaller blocks freed by earlier steps cannot serve
    // (laid out as the file makes it where its pass gives it: Pass.decodeMask)
    const grown = p.decodeMaskPerKey2 * upto * upto;
    const maskOps = p.sequence ? PASSES[p.sequence.forward].decodeMask?.(p.sequence, upto) : undefined;
    const chain = new Map<string, Handle | null>();
    if (maskOps) runOps(r, maskOps, chain);
    const mask = maskOps ? null : r.alloc('temporary', grown);
    const trans = r.alloc('temporary', p.decode - p.decodeMaskPerKey2 * tokens * tokens);
    // a remote file's tuple cache: the old tuple (and the prompt's views) go only when the step returns
    const old: (Handle | null)[] = [];
    for (let i = 0; i < L; i++) {
      // laid out: each layer its own length (a sliding layer's window); else the layers' mean
      const bytes = p.sequence ? layerKvBytes(p.sequence, i, upto) : kvPerToken * upto;
      const nk = r.alloc('kv', bytes);
      if (p.tupleCache) old.push(k[i] ?? null);
      else r.free(k[i]);
      k[i] = nk;
      const nv = r.alloc('kv', bytes);
      if (p.tupleCache) old.push(v[i] ?? null);
      else r.free(v[i]);
      v[i] = nv;
    }
    for (const h of old) r.free(h);
    for (const h of views.splice(0)) r.free(h);
    r.free(trans);
    r.free(mask);
    for (const h of chain.values()) r.free(h);
    r.mark('decode');
  }
}

/**
 * The prompt pass as one block per layer: the layer's K and V (and what a remote file's entries
 * hold beyond them, `views`, kept until the first decode step) and the forward transient.
 */
function prefillByBlocks(r: Replay, p: InferencePhases, k: (Handle | null)[], v: (Handle | null)[], views: (Handle | null)[]): void {
  const L = p.layers;
  const promptK = L > 0 ? p.kvPrompt / L / 2 : 0;
  for (let i = 0; i < Math.max(1, L); i++) {
    if (L > 0) {
      k.push(r.alloc('kv', promptK));
      v.push(r.alloc('kv', promptK));
      if (p.promptViews > 0) views.push(r.alloc('kv', p.promptViews / L));
    }
    // eager scores as the tensors they are (Transient.scores), the rest of the set one block
    for (const h of r.allocSplit('temporary', p.prefill, p.prefillScores ? scorePieces(p.prefillScores) : [])) r.free(h);
    r.mark('prefill');
  }
}

interface Pass {
  prologue: (x: PrefillShape) => PrefillOp[];
  layer: (x: PrefillShape, i: number) => PrefillOp[];
  epilogue: (x: PrefillShape) => PrefillOp[];
  /** the mask a decode step makes over k keys and holds through its layers, where it grows as k² (Baichuan-13B's) */
  decodeMask?: (x: PrefillShape, k: number) => PrefillOp[];
}

const LLAMA: Pass = { prologue: prefillPrologue, layer: prefillLayer, epilogue: prefillEpilogue };
const PASSES: Record<PrefillShape['forward'], Pass> = {
  llama: LLAMA,
  phi3: LLAMA,
  gemma2: { prologue: gemma2Prologue, layer: gemma2Layer, epilogue: gemma2Epilogue },
  chatglm2: { prologue: chatglm2Prologue, layer: chatglm2Layer, epilogue: chatglm2Epilogue },
  'baichuan-alibi': { prologue: baichuanAlibiPrologue, layer: baichuanAlibiLayer, epilogue: baichuanAlibiEpilogue, decodeMask: baichuanAlibiMask },
  qwen: { prologue: qwenPrologue, layer: qwenLayer, epilogue: qwenEpilogue },
  'qwen-kv8': { prologue: qwenPrologue, layer: qwenLayer, epilogue: qwenEpilogue },
};

/** The prompt pass tensor by tensor in the order the model's code allocates and frees them (inference/hf-prefill.ts, hf-prefill-gemma2.ts, remote-prefill.ts). */
function prefillInOrder(r: Replay, shape: PrefillShape, L: number, k: (Handle | null)[], v: (Handle | null)[]): void {
  const live = new Map<string, Handle | null>();
  const run = (ops: readonly PrefillOp[]): void => runOps(r, ops, live);
  const pass = PASSES[shape.forward];
  run(pass.prologue(shape));
  for (let i = 0; i < L; i++) {
    run(pass.layer(shape, i));
    k.push(live.get('kc') ?? null);
    v.push(live.get('vc') ?? null);
    live.delete('kc');
    live.delete('vc');
    r.mark('prefill');
  }
  run(pass.epilogue(shape));
  r.mark('prefill');
}

/** Replays `ops`, keeping the live tensors by id in `live` (the cache's 'kc' / 'vc' as kv, the rest temporary). */
function runOps(r: Replay, ops: readonly PrefillOp[], live: Map<string, Handle | null>): void {
  for (const o of ops) {
    if (o.op === 'alloc') live.set(o.id, r.alloc(o.id === 'kc' || o.id === 'vc' ? 'kv' : 'temporary', o.bytes));
    else if (o.op === 'free') {
      r.free(live.get(o.id));
      live.delete(o.id);
    } else {
      live.set(o.to, live.get(o.id) ?? null);
      live.delete(o.id);
    }
  }
}
