/**
 * HF transformers `generate` on PyTorch (formulas.md §3, §8): weights + DynamicCache KV +
 * the largest forward transient. The peak is the later of two moments:
 * end of prefill (KV of the prompt + prefill transient) and the last decode step
 * (KV of prompt + generated tokens + one layer's torch.cat copy + a 1-token transient).
 * `device_map="auto"` across GPUs (split=layers): every GPU is priced with its own layers
 * (inference/device-map.ts) and the most-loaded one is reported.
 * `max_memory_allocated` counts from process start, so a transient of loading also counts
 * when it exceeds the generate peak (awqTiedHeadCopy).
 */
import type { Built, Ctx, InferencePhases } from '../estimate-context';
import type { Message, Term } from '../types';
import { visionForward, type VisionForward } from './vision-encoder';
import type { LayerSplit } from './device-map';
import { term, workspaceTerm } from '../estimate-context';
import { add, ceil, div, evaluate, max, mul, sub, sym, type Expr } from '../formula';
import { ENCODER_ONLY } from '../model/families';
import { DEFAULT_GROUP_SIZE } from '../formats/quantized';
import { quantLinear, quantizeOnLoad } from './quant-linear';
import { EXLLAMA_MAX_INPUT_LEN, EXLLAMA_V2_MAX_BATCH, gptqLayerSizes, kernelBuffers, resolveGptqKernel, type GptqKernelBuffers, type GptqLayerSizes } from '../formats/gptq-kernel';
import { CUBLAS_WORKSPACE_BYTES } from '../runtime';
import { kvBytesPerTokenPerLayer, kvCacheBytes, kvCacheExpr, kvLayers, kvPerLayerExpr, type KvPolicy } from './kv';
import { layersAfterLastSliding } from '../sdpa';
import { KV_QUANT_GROUP, quantizedKv } from './quantized-cache';
import { stateTensors, stateTerm } from './state';
import { recurrentState } from '../model/hybrid';
import { forwardTransient, fp16Activations } from './transient';
import { hfRopeDim, prefillShape } from './hf-prefill-shape';
import { inferenceLogits, resolveLogitsPath } from '../logits-path';
import { REMOTE_FAMILIES, remoteModule } from './remote-provider';
import { fixedIn } from '../units';

/**
 * The KV cache `generate` builds (transformers ≥ 4.56, generation/utils.py
 * `_prepare_cache_for_generation`): a DynamicCache made from the model's config, whose
 * sliding-window layers are `DynamicSlidingWindowLayer`s (cache_utils.py; a Hub default of
 * `cache_implementation="hybrid"`, Gemma-2's, is now unset in favour of it). Its `update` does
 * `full = torch.cat([self.keys, key_states])` and keeps `self.keys = full[:, :, -window + 1:]`,
 * a view: the view holds the whole cat's storage. So after the prefill every layer still holds
 * the prompt's K and V in full, and only the first decode step's cat (window tokens) frees it.
 * Decoding keeps the window in sliding layers and every token elsewhere (formulas.md §3.1).
 * The quantized cache (QuantizedCache) has no sliding layers.
 */
function cachePolicies(arch: Ctx['arch'], quantized: boolean, tp: number): { prefill: KvPolicy; decode: KvPolicy } {
  const prefill = { mlaLatent: false, windowed: false, tp, expandsKv: true };
  return { prefill, decode: { ...prefill, windowed: !quantized && arch.slidingWindow !== undefined } };
}

/** Activation element size at inference: fp64 / fp32 models compute in their own dtype, everything else in 16-bit. */
export function inferenceElementBytes(ctx: Ctx): number {
  return ctx.s.weights === 'fp64' ? 8 : ctx.s.weights === 'fp32' ? 4 : 2;
}

/** Weight bytes on the most-loaded GPU of a tp × pp grid (embedding on the first stage, head on the last). */
export function weightsExpr(ctx: Ctx, tp: number, pp: number): Expr {
  const w = ctx.weights;
  if (tp === 1 && pp === 1) return sym('W', w.total);
  const P = sym('p', pp);
  const emb = sym('W_embedding', w.embedding);
  const head = sym('W_head', w.head);
  // norms, biases outside the blocks, vision towers: split with the stages
  const other = w.total - w.blocks - w.embedding - w.head;
  const stage =
    pp === 1
      ? add(sym('W_blocks', w.blocks), emb, head, ...(other !== 0 ? [sym('W_other', other)] : []))
      : add(div(sym('W_blocks', w.blocks), P), max(emb, head), ...(other !== 0 ? [div(sym('W_other', other), P)] : []));
  return tp === 1 ? stage : div(stage, sym('t', tp));
}

export function weightsPerGpu(ctx: Ctx, tp: number, pp: number): number {
  return evaluate(weightsExpr(ctx, tp, pp));
}

/** The KV-holding layers of the most-loaded pipeline stage as a fraction of all: ceil(L/p)/L. */
function stageFractionExpr(ctx: Ctx, pp: number): Expr {
  const L = sym('L', Math.max(1, kvLayers(ctx.arch)));
  return div(ceil(div(L, sym('p', pp))), L);
}

/** Fraction of the KV-holding layers on the most-loaded pipeline stage. */
export function stageLayerFraction(ctx: Ctx, pp: number): number {
  return pp === 1 ? 1 : evaluate(stageFractionExpr(ctx, pp));
}

/** `x` (bytes of all KV-holding layers) on the most-loaded pipeline stage. */
export function stageLayersExpr(ctx: Ctx, pp: number, x: Expr): Expr {
  return pp === 1 ? x : mul(x, stageFractionExpr(ctx, pp));
}

/**
 * Bytes briefly held twice while loading an AWQ checkpoint of a tied-embedding model.
 * AutoAWQ's `save_quantized` writes every `state_dict()` entry through
 * `{k: v.clone().contiguous()}` before safetensors `save_file` (casper-hansen/AutoAWQ
 * awq/models/base.py), so a tied `lm_head.weight` is stored as a second V×h fp16 tensor.
 * transformers materialises it on the GPU and `tie_weights()` then points the head back at the
 * embedding, freeing it: peak at load = weights + V·h·2. 0 for other formats and untied heads.
 */
function awqTiedHeadCopy(ctx: Ctx): Expr {
  const { s, arch } = ctx;
  if (s.weights !== 'awq-int4' || !arch.tiedEmbeddings || ENCODER_ONLY.has(arch.family)) return 0;
  const copy = mul(sym('V', arch.vocab), sym('h', arch.hidden), 2);
  return s.tp === 1 ? copy : div(copy, sym('t', s.tp));
}

/** What the load-copy term says: the tied head's second copy (AWQ) or the 16-bit copy bitsandbytes quantizes from. */
const LOADING = {
  tied: {
    held: 'tied lm_head stored twice; held until tie_weights',
    source: 'AutoAWQ save_quantized clones every state_dict tensor; transformers modeling_utils tie_weights after loading',
    note: {
      code: 'inference.load-peak',
      text: "Loading holds the checkpoint's second copy of the tied LM head for a moment; max_memory_allocated since start sees the larger of the loading peak and the generate peak.",
    },
  },
  quantize: {
    held: 'one Linear’s 16-bit weight, quantized on the GPU as it loads',
    source: 'transformers quantizer_bnb_8bit / _4bit create_quantized_param; bitsandbytes Int8Params._quantize, Params4bit._quantize; safetensors keys() sorted',
    note: {
      code: 'inference.quantize-peak',
      text: 'Loading quantizes each Linear from a 16-bit copy on the GPU; max_memory_allocated since start sees the larger of the loading peak and the generate peak.',
    },
  },
} as const;

/**
 * What one GPU holds under transformers' device_map="auto" (accelerate places whole modules;
 * transformers' DynamicCache keeps each layer's K/V on that layer's device, and the hidden
 * states move GPU to GPU through accelerate's AlignDevicesHook, so one GPU computes at a time).
 */
interface GpuShare {
  weights: number;
  /** fraction of the KV-holding layers on this GPU */
  frac: number;
  /** runs decoder layers (their transient, cuBLAS workspace, bnb dequant) */
  layers: boolean;
  /** holds the LM head: the logits are made here */
  head: boolean;
  /** holds the embedding (a tied AWQ head's loading copy lands here) */
  embedding: boolean;
}

/** One share per GPU under split=layers; else the most-loaded GPU of the tp × pp grid. */
function gpuShares(ctx: Ctx): GpuShare[] {
  const split = ctx.split;
  if (!split) return [{ weights: weightsPerGpu(ctx, ctx.s.tp, ctx.s.pp), frac: stageLayerFraction(ctx, ctx.s.pp), layers: true, head: true, embedding: true }];
  const L = Math.max(1, ctx.arch.layers);
  return split.perGpu.map((weights, g) => {
    const blocks = split.layersPerGpu[g]!; // one entry per GPU, as perGpu (layerSplit)
    return { weights, frac: blocks / L, layers: blocks > 0, head: g === split.lastGpu, embedding: g === 0 };
  });
}

/** The per-GPU list of a layer split, for the weights term (GiB, first GPU to last). */
export function layerSplitNote(split: LayerSplit, perGpu: readonly number[]): Message {
  const list = perGpu.map((b) => fixedIn(b, 'GiB')).join(' / ');
  const layers = split.layersPerGpu.join(' / ');
  return {
    code: 'inference.layer-split',
    params: { list, layers },
    text: `device_map="auto" puts ${layers} layers on the GPUs; allocated per GPU: ${list} GiB. The estimate is the most-loaded GPU.`,
  };
}

/** Modules that fit on no GPU: accelerate sends them to the CPU (slow, and not in this estimate). */
export function layerSplitOffloadNotes(split: LayerSplit | null): Message[] {
  if (!split || split.offloaded <= 0) return [];
  return [
    {
      code: 'inference.layer-split-offload',
      params: { bytes: split.offloaded },
      text: 'The weights do not fit on the GPUs under accelerate\'s balanced budget: device_map="auto" would offload the remaining modules to the CPU.',
    },
  ];
}

/**
 * The KV cache term: DynamicCache, or transformers' QuantizedCache (quantized-cache.ts).
 * `atPrefill`: the cache shown is the prompt's, held in full by the sliding layers' views (cachePolicies).
 */
function kvTerm(ctx: Ctx, kvExpr: Expr, quantized: boolean, atPrefill: boolean, ownSource?: string): Term {
  const window = ctx.arch.slidingWindow;
  if (ownSource) return term(ctx, 'kv-cache', kvExpr, { values: {}, source: ownSource, confidence: 'derived' });
  return term(ctx, 'kv-cache', kvExpr, {
    ...(ctx.arch.mla
      ? { values: { cache: 'HF caches decompressed K/V' } }
      : quantized
        ? { values: { residual_length: ctx.s.kvResidual, q_group_size: KV_QUANT_GROUP } }
        : window
          ? { values: { window: window.window, sliding_layers: window.layers, held: atPrefill ? "the prompt's K/V in every layer (end of prefill)" : 'the window in sliding layers (decoding)' } }
          : {}),
    source: quantized
      ? 'transformers cache_utils.py QuantizedLayer.update (quanto / HQQ backends): residual of min(residual_length − 1, generated) tokens in the model dtype; the rest nbits + scale and zero per group of 64'
      : window
        ? 'formulas.md §3.1; transformers cache_utils.py DynamicSlidingWindowLayer.update (the window is a view of the torch.cat result)'
        : 'formulas.md §3.1; HF DynamicCache keeps every token',
    confidence: quantized ? 'derived' : 'exact',
  });
}

/**
 * What a remote file's tuple cache holds at the peak beside the cache itself (remote-runtime.ts
 * OwnCache): during a decode step the old tuple; at the end of the prompt pass the fused
 * projections its entries are views of.
 */
function heldCacheTerm(ctx: Ctx, expr: Expr, atDecode: boolean, views: string, source: string): Term {
  return term(ctx, 'kv-held', expr, {
    values: atDecode
      ? { held: 'the last step’s cache tuple, until the step returns (first step: the prompt’s, with its views)', views }
      : { held: 'the prompt pass’s cache entries are views of the fused projection', views },
    source: `${source}; generation/utils.py _sample (model_kwargs["past_key_values"] held through the forward)`,
    confidence: 'derived',
  });
}

/**
 * An encoder's last moment (HF modeling_bert.py BertModel.forward): the encoder's output
 * (last_hidden_state, b·s·h) and the pooler's dense and tanh outputs (b·h each), which
 * sentence-transformers then pools into the embedding.
 */
function encoderOutput(ctx: Ctx, B: Expr, e: number): Expr {
  const { s, arch } = ctx;
  const h = sym('h', arch.hidden);
  const E = sym('e', e);
  return add(mul(B, sym('s', s.prompt), h, E), ...(arch.pooler ? [mul(2, B, h, E)] : []));
}

/** The vision tower's forward (inference/vision-encoder.ts) with the image tokens it adds to the prompt. */
function visionTerm(ctx: Ctx, vision: VisionForward, images: NonNullable<Ctx['images']>, here: boolean): Term {
  const g = images.grid;
  const added = images.perSeq * g.tokens;
  return term(ctx, 'vision-encoder', here ? vision.expr : 0, {
    values: {
      peak: vision.kind,
      image: `${g.side} px → ${g.height}×${g.width}`,
      tokens_per_image: g.tokens,
      prompt: `${images.textPrompt} text + ${images.perSeq}·${g.tokens} image = ${images.textPrompt + added} tokens`,
    },
    source:
      'HF get_image_features (modeling_llava.py, modeling_gemma3.py, modeling_qwen2_vl.py): the tower runs on every image before prefill; image tokens from image_processing_qwen2_vl.py smart_resize / the fixed image_size',
    confidence: 'derived',
  });
}

/** A GPTQ kernel's buffers on one GPU: its per-GPU set and its share of the layers' permutations, split over tp. */
function buffersOn(b: GptqKernelBuffers, frac: number, tp: number): number {
  return (b.perGpu + b.perm * frac) / tp;
}

/**
 * The GPTQ kernel's buffers on the priced GPU (formats/gptq-kernel.ts), holding `frac` of the layers;
 * with 'auto' (ExLlama v1) its note gives what ExLlama v2, GPTQModel's choice, would hold instead.
 */
function gptqKernelTerm(ctx: Ctx, kbuf: GptqKernelBuffers, sizes: GptqLayerSizes, frac: number): Term {
  const { s } = ctx;
  const tp = s.tp;
  const permExpr = kbuf.perm === 0 ? 0 : frac === 1 ? sym('perm', kbuf.perm) : mul(sym('perm', kbuf.perm), sym('share', frac));
  const scratch = sym('scratch', kbuf.perGpu);
  const expr = permExpr === 0 ? scratch : add(scratch, permExpr);
  const v2 = s.gptqKernel === 'auto' && kbuf.kernel === 'exllama' ? buffersOn(kernelBuffers(sizes, 'exllamav2', s.descAct === 'on'), frac, tp) : 0;
  return term(ctx, 'dequant-buffer', tp === 1 ? expr : div(expr, sym('t', tp)), {
    values:
      kbuf.kernel === 'exllamav2'
        ? {
            kernel: kbuf.kernel,
            scratch_is: 'max over layers of d_in·d_out·2 + d_out·max_input_len·max_batch·4 (+256)',
            max_input_len: EXLLAMA_MAX_INPUT_LEN,
            max_batch: EXLLAMA_V2_MAX_BATCH,
            perm_is: 'q_perm + q_invperm, int16 [in] per quantized layer',
          }
        : {
            kernel: kbuf.kernel,
            scratch_is: 'temp_dq (largest d_in·d_out, fp16) + temp_state (max_input_len × widest dimension, fp16, with act-order; else 1 × 1)',
            temp_dq: sizes.largest * 2,
            desc_act: s.descAct,
          },
    source:
      kbuf.kernel === 'exllamav2'
        ? 'gptqmodel utils/model.py gptqmodel_post_init + nn_modules/qlinear/exllamav2.py scratch_space_fixed, ext_make_q_matrix (AutoGPTQ autogptq_post_init likewise)'
        : 'gptqmodel / AutoGPTQ post_init for ExLlama v1: temp_dq (largest layer, fp16) and temp_state (max_input_len × widest dim with act-order)',
    confidence: 'derived',
    note:
      v2 > 0
        ? {
            code: 'inference.gptq-exllamav2',
            params: { bytes: v2, gib: fixedIn(v2, 'GiB') },
            text: `With GPTQModel installed (AutoGPTQ's successor), transformers loads the ExLlama v2 kernel instead, whose buffers take ${fixedIn(v2, 'GiB')} GiB here: set gptq-kernel=exllamav2 for that stack.`,
          }
        : undefined,
  });
}

export function buildTransformers(ctx: Ctx): Built {
  const { s, arch } = ctx;
  const tp = s.tp;
  const pp = s.pp;
  const e = inferenceElementBytes(ctx);
  // encoder-only models (BERT) run one forward over the input: no KV cache, no decoding
  const encoder = ENCODER_ONLY.has(arch.family);
  const tokens = s.prompt + s.gen;
  const B = sym('b', s.batch);
  const perT = (x: Expr): Expr => (tp === 1 ? x : div(x, sym('t', tp)));
  // kv int4 / int8: transformers QuantizedCache, most tokens quantized, a residual in the model dtype (quantized-cache.ts)
  // models that run their own modeling file (remote-runtime.ts): its attention, masks, buffers, cache and logits
  // (a chunk of its own: estimate.ts answers 'remote.loading' until it is in, remote-provider.ts)
  const own = !encoder && REMOTE_FAMILIES.has(arch.family) ? (remoteModule()?.ownRuntime(arch, s, e) ?? null) : null;
  // Qwen-1's own 8-bit cache instead of transformers' QuantizedCache
  const ownCache = own?.cacheBytes ?? null;
  const kvEl = ownCache ?? ctx.kvElementBytes;
  const qkv = encoder || ownCache !== null ? null : quantizedKv(s.kv, e, s.gen, s.kvResidual);
  const { prefill: prefillPolicy, decode: policy } = cachePolicies(arch, qkv !== null, tp);
  const kvAllExpr = encoder
    ? 0
    : qkv
      ? add(
          kvCacheExpr(arch, sub(add(sym('s_in', s.prompt), sym('s_out', s.gen)), sym('r', qkv.residual)), B, sym('bytes_q', qkv.bytesQ), policy),
          kvCacheExpr(arch, sym('r', qkv.residual), B, sym('e', e), policy),
        )
      : kvCacheExpr(arch, add(sym('s_in', s.prompt), sym('s_out', s.gen)), B, sym('bytes_kv', kvEl), policy);
  const kvAll = evaluate(kvAllExpr);
  const kvPromptAll = encoder ? 0 : kvCacheBytes(arch, s.prompt, s.batch, qkv ? qkv.bytesQ : kvEl, prefillPolicy);
  // sliding layers hold more at the end of the prefill than at the end of decoding: the bar shows that moment's cache
  const kvShownAtPrefill = !encoder && !qkv && kvPromptAll > kvAll;
  // hybrids: conv + SSM state of every mixer layer, allocated with the cache before prefill
  const state = arch.hybrid ? recurrentState(arch.hybrid, 'transformers', e, tp) : null;
  const stateAll = state ? state.bytes * s.batch : 0;
  // logits of the prompt (logits-path.ts): last position only, or every position (older / remote code)
  const path = resolveLogitsPath(s.logitsPath, arch);
  const head = own && s.logitsPath === 'auto' ? own.logits : inferenceLogits(path === 'torchtune' ? 'current' : path, s.prompt, e);
  // fp16 activations: eager softmax upcasts in one kernel (transient.ts eagerScoreBytes)
  const fp16 = fp16Activations(s.weights);
  const forward = (q: number, keys: number, rows: number, perLogit: number, first: boolean, ropeAt = 0, absent: Expr = 0) =>
    own
      ? own.forward(q, keys, rows, perLogit, first)
      : forwardTransient(arch, q, keys, s.batch, e, s.attn, tp, rows, { perLogit, ropeDim: ropeAt, absentAtMask: absent, fp16, quant: quantLinear(s.weights, s.bnbCompute, q * s.batch) });
  const buffers = own?.buffers ?? null;
  const buffersAll = buffers ? evaluate(buffers.expr) : 0;
  // an encoder has no LM head: its output is the last hidden state and the pooled vector
  const logitsExpr = encoder ? 0 : perT(mul(B, head.rowsExpr, sym('V', arch.vocab), head.perLogitExpr));
  const ropeDim = encoder ? 0 : hfRopeDim(arch);
  // one stage on one GPU: the layers after the last sliding one have no K/V yet at its masked SDPA call
  const after = pp === 1 && !ctx.split && !qkv ? layersAfterLastSliding(arch) : 0;
  const absentAtMask = after > 0 ? mul(sym('L_after', after), kvPerLayerExpr(arch, sym('bytes_kv', kvEl), prefillPolicy), sym('s', s.prompt), B) : 0;
  const prefill = forward(s.prompt, s.prompt, encoder ? 0 : head.rows, head.perLogit, true, ropeDim, absentAtMask);
  const encoderEnd = encoder ? encoderOutput(ctx, B, e) : null;
  const forwardExpr = encoderEnd ? max(prefill.expr, encoderEnd) : prefill.expr;
  const forwardBytes = evaluate(forwardExpr);
  // vision-language models: the tower encodes every image before the prefill, with the cache still empty
  const vision = ctx.images && arch.vision ? visionForward(arch.vision, ctx.images.grid, s.batch, ctx.images.perSeq, e, s.attn, fp16) : null;
  const visionAll = vision ? vision.bytes : 0;
  // GPTQ: the kernel's buffers, allocated once at load (post_init) on every GPU that holds quantized layers
  const kernel = resolveGptqKernel(s.weights, s.gptqKernel);
  const sizes = kernel ? gptqLayerSizes(arch, s.groupSize ?? DEFAULT_GROUP_SIZE) : null;
  const kbuf = kernel && sizes ? kernelBuffers(sizes, kernel, s.descAct === 'on') : null;
  const kernelOn = (g: GpuShare): number => (kbuf && g.layers ? buffersOn(kbuf, g.frac, tp) : 0);
  const decode = encoder ? { bytes: 0 } : forward(1, tokens, 1, head.perLogit, false, ropeDim);
  // DynamicCache.update does torch.cat([old, new]): old and new K (or V) of one layer coexist.
  // QuantizedCache: the layer's dequantized K and V and the returned cat([...]) of both, in the model dtype.
  const catAll =
    s.gen > 0 && !encoder ? (qkv ? s.batch * (2 * tokens - qkv.residual) * kvBytesPerTokenPerLayer(arch, e, policy) : (s.batch * tokens * kvBytesPerTokenPerLayer(arch, kvEl, policy)) / 2) : 0;
  // a remote file's tuple cache (remote-runtime.ts OwnCache): the prompt pass's entries hold the fused
  // projection they are views of until the first decode step, and each decode step holds the old
  // cache beside the new one until it returns: at the first step the prompt's cache and views, at the last the previous step's
  const tuple = !encoder && own?.cache != null && s.gen > 0;
  const viewsExpr = !encoder && own?.cache ? mul(B, sym('L', kvLayers(arch)), sym('s_in', s.prompt), own.cache.viewsPerToken) : 0;
  const viewsAll = evaluate(viewsExpr);
  const kvAt = (name: string, n: number): Expr => kvCacheExpr(arch, sym(name, n), B, sym('bytes_kv', kvEl), policy);
  // the two moments are the first step (the prompt's cache and views beside the new cache, the step's
  // transient at s_in + 1 keys) and the last (the previous cache, the transient at every key): a
  // transient that grows with the keys (Baichuan-13B's [b, a, k, k] mask) is largest at the last
  const firstHeld = sub(add(kvAt('s_in', s.prompt), viewsExpr, kvAt('s_1', s.prompt + 1)), kvAllExpr);
  const decodeFirst = tuple ? forward(1, s.prompt + 1, 1, head.perLogit, false, ropeDim) : decode;
  const firstWins = tuple && evaluate(firstHeld) + decodeFirst.bytes > evaluate(kvAt('s_prev', tokens - 1)) + decode.bytes;
  const heldOldExpr = tuple ? (firstWins ? firstHeld : kvAt('s_prev', tokens - 1)) : 0;
  const decodeAt = firstWins ? decodeFirst : decode;
  const heldOldAll = evaluate(heldOldExpr);
  // cuBLAS creates its workspace at the first matmul, after loading has finished; loading holds a
  // tied head twice (AWQ, on the embedding's GPU) or quantizes each Linear from a 16-bit copy (bitsandbytes, where the layers are)
  const tiedCopyExpr = awqTiedHeadCopy(ctx);
  const tiedCopyAll = evaluate(tiedCopyExpr);
  const quantizeExpr = perT(quantizeOnLoad(arch, s));
  const quantizeAll = evaluate(quantizeExpr);
  const shares = gpuShares(ctx);
  // split=layers: a GPU without the head sees only the layer transient (no logits rows)
  const layerOnly =
    shares.length > 1
      ? {
          prefill: forward(s.prompt, s.prompt, 0, e + 4, true, ropeDim),
          decode: encoder ? 0 : forward(1, tokens, 0, e + 4, false, ropeDim).bytes,
          logitsPrefill: evaluate(logitsExpr),
          logitsDecode: (s.batch * arch.vocab * head.perLogit) / tp,
        }
      : null;
  const peakOn = (g: GpuShare) => {
    const pre = !layerOnly || (g.head && g.layers) ? forwardBytes : Math.max(g.layers ? layerOnly.prefill.bytes : 0, g.head ? layerOnly.logitsPrefill : 0);
    const dec = !layerOnly || (g.head && g.layers) ? decodeAt.bytes : Math.max(g.layers ? layerOnly.decode : 0, g.head && !encoder ? layerOnly.logitsDecode : 0);
    const atPrefill = (kvPromptAll + stateAll + viewsAll) * g.frac + pre;
    const atDecode = (kvAll + stateAll + heldOldAll) * g.frac + dec + (g.layers && !tuple ? catAll : 0);
    const loadCopy = Math.max(g.embedding ? tiedCopyAll : 0, g.layers ? quantizeAll : 0);
    // the model's own buffers sit with its first modules (accelerate places the root's buffers there)
    const own = g.embedding ? buffersAll : 0;
    // the vision tower sits with the embedding (accelerate places it first)
    const atVision = g.embedding ? visionAll : 0;
    const workspace = g.layers || g.head || atVision > 0 ? CUBLAS_WORKSPACE_BYTES : 0;
    return { atPrefill, atDecode, atVision, pre, loadCopy, bytes: g.weights + kernelOn(g) + own + Math.max(workspace + Math.max(atPrefill, atDecode, atVision), loadCopy) };
  };
  // gpuShares gives one share per GPU, so at least one
  let at = 0;
  let best = peakOn(shares[0]!);
  const perGpu = shares.length > 1 ? [best.bytes] : undefined;
  for (let g = 1; g < shares.length; g++) {
    const p = peakOn(shares[g]!);
    perGpu!.push(p.bytes);
    if (p.bytes > best.bytes) {
      best = p;
      at = g;
    }
  }
  const share = shares[at]!;
  const blocksHere = ctx.split?.layersPerGpu[at] ?? 0;
  const L = kvLayers(arch);
  // the KV-holding layers on this GPU: its pipeline stage, or its share of a layer split
  const onThisGpu = (all: Expr): Expr =>
    encoder ? 0 : ctx.split ? mul(all, div(sym('L_gpu', blocksHere), sym(L === Math.max(1, arch.layers) ? 'L' : 'L_blocks', Math.max(1, arch.layers)))) : stageLayersExpr(ctx, pp, all);
  // the cache at the end of decoding (the timeline grows to it), and the one the bar shows
  const kvFull = evaluate(onThisGpu(kvAllExpr));
  const kvExpr = onThisGpu(kvShownAtPrefill ? kvCacheExpr(arch, sym('s_in', s.prompt), B, sym('bytes_kv', kvEl), prefillPolicy) : kvAllExpr);
  const frac = encoder ? 0 : share.frac;
  const kernelBytes = kernelOn(share);
  const weights = share.weights;
  const { atPrefill, atDecode, atVision, loadCopy } = best;
  const decodePeak = atDecode > atPrefill;
  const allocatedBytes = best.bytes;
  const perLayerKv = evaluate(kvExpr) / Math.max(1, Math.ceil(L * frac)) / 2;
  const preExpr = !layerOnly || (share.head && share.layers) ? forwardExpr : max(...(share.layers ? [layerOnly.prefill.expr] : []), ...(share.head ? [logitsExpr] : []), 0);
  const loading = quantizeAll > 0 ? LOADING.quantize : LOADING.tied;
  const terms = [
    ctx.split
      ? term(ctx, 'weights', sym('W_gpu', weights), {
          values: {
            placement: 'modules placed in order while used + size ≤ ⌊W/N⌋ + 1.25·W_block (GPU 0 less the largest layer; the last GPU its free memory)',
            W: ctx.weights.total,
            N: s.gpus,
            gpu: at,
            layers: blocksHere,
            format: s.weights,
          },
          source: 'accelerate utils/modeling.py get_balanced_memory + infer_auto_device_map (transformers integrations/accelerate.py _get_device_map)',
          confidence: 'derived',
          note: layerSplitNote(ctx.split, perGpu!),
        })
      : term(ctx, 'weights', weightsExpr(ctx, tp, pp), {
          values: { format: s.weights },
          source: ctx.weights.derivation.source,
          confidence: ctx.weights.derivation.confidence,
        }),
    ...(encoder ? [] : [kvTerm(ctx, kvExpr, qkv !== null, kvShownAtPrefill, ownCache !== null ? own?.source : undefined)]),
    ...(state ? [stateTerm(ctx, arch.hybrid!, state, e, s.batch * frac, 'transformers')] : []),
    ...(own?.cache && (viewsAll > 0 || heldOldAll > 0) ? [heldCacheTerm(ctx, onThisGpu(decodePeak ? heldOldExpr : viewsExpr), decodePeak, own.cache.views, own.source)] : []),
    term(ctx, 'activations', preExpr, {
      values: encoder ? { peak: prefill.kind, output: 'last_hidden_state b·s·h + pooler dense and tanh 2·b·h' } : { peak: prefill.kind },
      source: encoder
        ? 'formulas.md §3.2 with no LM head; HF modeling_bert.py BertModel.forward (encoder, then BertPooler dense + tanh)'
        : (own?.source ?? 'formulas.md §3.2 (derived from HF modeling_llama/qwen2 forward)'),
      confidence: 'derived',
      note: {
        code: 'inference.peak-not-sum',
        params: { prefill: atPrefill, decode: atDecode },
        text: 'Prefill transients are freed before decoding ends: the peak is weights + max(prompt KV + prefill transient, full KV + decode step), not the sum of all terms.',
      },
    }),
    ...(encoder
      ? []
      : [
          term(ctx, 'logits', share.head ? logitsExpr : 0, {
            values: { logits: head.what, path: s.logitsPath },
            source: head.source,
            confidence: 'derived',
          }),
        ]),
    ...(vision && ctx.images ? [visionTerm(ctx, vision, ctx.images, share.embedding)] : []),
    ...(kbuf && sizes && kernelBytes > 0 ? [gptqKernelTerm(ctx, kbuf, sizes, share.frac)] : []),
    ...(own && buffers && share.embedding && buffersAll > 0 ? [term(ctx, 'model-buffers', buffers.expr, { values: buffers.values, source: own.source, confidence: 'derived' })] : []),
    ...(loadCopy > 0
      ? [
          term(ctx, 'load-copy', quantizeAll > 0 ? quantizeExpr : tiedCopyExpr, {
            values: { held: loading.held },
            source: loading.source,
            confidence: 'derived',
            note: { ...loading.note, params: { load: weights + loadCopy, run: weights + CUBLAS_WORKSPACE_BYTES + Math.max(atPrefill, atDecode) } },
          }),
        ]
      : []),
    workspaceTerm(ctx),
  ];
  const mlpTensors = arch.gatedMlp ? 3 : 2;
  const live = [
    { bytes: perLayerKv, count: 2 * Math.ceil(L * frac) },
    { bytes: (s.batch * s.prompt * arch.ffn * e) / tp, count: mlpTensors },
    { bytes: s.batch * s.prompt * arch.hidden * e, count: 4 },
    { bytes: CUBLAS_WORKSPACE_BYTES, count: 1 },
    ...(kernelBytes > 0 ? [{ bytes: kernelBytes, count: 1 }] : []),
    ...(state ? stateTensors(arch.hybrid!, state, s.batch * frac, e) : []),
  ];
  const phases: InferencePhases = {
    weights,
    workspace: CUBLAS_WORKSPACE_BYTES,
    layers: encoder ? 0 : Math.max(1, Math.ceil(L * frac)),
    kvPrompt: kvPromptAll * frac,
    promptViews: viewsAll * frac,
    tupleCache: tuple,
    kvFull,
    prefill: best.pre,
    decode: decode.bytes,
    decodeMaskPerKey2: own?.decodeMaskPerKey2 ?? 0,
    prefillScores: best.pre === prefill.bytes ? (prefill.scores ?? null) : null,
    kernel: kernelBytes,
    buffers: share.embedding ? buffersAll : 0,
    prompt: s.prompt,
    gen: encoder ? 0 : s.gen,
    atPrefill,
    atDecode,
    vision: atVision,
    // the tensor-by-tensor prompt pass: one GPU, 16-bit weights; transformers' own code under SDPA
    // or eager with the last position's logits and a 16-bit cache, or a laid-out file with its own logits and cache
    sequence:
      (s.weights === 'bf16' || s.weights === 'fp16') &&
      !encoder &&
      !ctx.split &&
      tp === 1 &&
      pp === 1 &&
      (own ? s.logitsPath === 'auto' : (s.attn === 'sdpa' || s.attn === 'eager') && head.rows === 1 && !qkv && ctx.kvElementBytes === e) &&
      atVision === 0 &&
      !state
        ? own
          ? own.prefillShape(s.batch, s.prompt)
          : prefillShape(arch, s.batch, s.prompt, e, s.attn === 'eager' ? { fp16 } : null)
        : null,
  };
  return {
    terms,
    allocatedBytes,
    live,
    torchAllocator: true,
    trainable: 0,
    notes: [...layerSplitOffloadNotes(ctx.split), ...(own?.notes ?? [])],
    inference: phases,
    ...(perGpu ? { perGpu } : {}),
  };
}
