/**
 * vLLM memory model (formulas.md §3.4; vllm-project/vllm `v1/worker/gpu_worker.py::
 * determine_available_memory`, `utils/mem_utils.py::memory_profiling`,
 * `v1/kv_cache_interface.py`).
 *
 * vLLM reserves `gpu_memory_utilization × total` up front, loads the weights, runs a profiling
 * forward of `max_num_batched_tokens` tokens, and hands everything left to the paged KV cache
 * in blocks of 16 tokens. It therefore always fills the requested fraction.
 */
import type { Built, Ctx } from '../estimate-context';
import { term, workspaceTerm } from '../estimate-context';
import { add, ceil, div, evaluate, floor, max, mul, sub, sym, type Expr } from '../formula';
import { CUBLAS_WORKSPACE_BYTES, CUDA_CONTEXT_BYTES, DRIVER_RESERVED_BYTES } from '../runtime';
import type { Message } from '../types';
import { kvBytesPerToken, kvCacheExpr } from './kv';
import { VLLM_DEFAULT_BATCHED_TOKENS } from './engine-provider';
import { stateTerm } from './state';
import { recurrentState } from '../model/hybrid';
import { forwardTransient } from './transient';
import { inferenceElementBytes, stageLayerFraction, stageLayersExpr, weightsExpr } from './transformers';

/** Tokens per KV block (`block_size` default). */
export const VLLM_BLOCK_SIZE = 16;
/** `max_num_seqs` default: the sampler's dummy run samples this many sequences at most. */
export const VLLM_MAX_NUM_SEQS = 256;

/**
 * Hidden-size rows alive at the MLP during the profile run: vLLM's fused add-RMSNorm keeps the
 * residual and the normed input, plus the attention output it was added from (no separate
 * inputs_embeds as in HF). Checked on vllm-project/vllm#10517 (Llama-3.1-8B, RTX 3090): the
 * profile peak grows by (17.98 − 17.06) GiB over 29000 − 20000 tokens = 109.8 KB/token, against
 * 3·h·2 + 3·f·2 = 110.6 KB/token (4 rows would be 118.8 KB).
 */
const VLLM_HIDDEN_ROWS = 3;

/**
 * Bytes alive at the peak of the sampler warm-up that closes the profile run (V0 `profile_run`
 * samples with top_p = 0.99, top_k = V − 1, so the sort path runs; V1 `_dummy_sampler_run`
 * likewise): per logit (sequence × vocabulary entry) the model-dtype logits the runner still holds
 * (e) and their fp32 copy (4), plus the larger of two moments in `_apply_top_k_top_p`
 * (vllm `model_executor/layers/sampler.py`):
 * - during `logits.sort(dim=-1)`: the sorted values (4) and int64 indices (8), and the sort's own
 *   scratch — rows longer than 4096 go to `launch_stable_sort_kernel`, whose
 *   `segmented_sort_pairs` (≥ 128 rows, pytorch aten/src/ATen/native/cuda/SortStable.cu) fills
 *   an int64 index input (8) and calls cub `DeviceSegmentedRadixSort::SortPairs`, which needs
 *   alternate key and value buffers (4 + 8): 32;
 * - after it, its locals: sorted values and indices (12), top-k mask (1), softmax (4), cumsum (4),
 *   top-p mask (1), scattered-back logits (4): 26.
 * Plus the forward's final hidden states (tokens × h × e), still referenced by the runner.
 * Logits are gathered to full vocabulary on every rank: not ÷ tp. vllm PR #10511 prints the same
 * 1.26 GiB activation peak for Llama-3-8B at tp 1 and tp 2 (this count: 1.22 GiB).
 */
export function vllmSamplerExpr(sequences: number, vocab: number, e: number, tokens: number, hidden: number): Expr {
  const E = sym('e', e);
  return add(mul(sym('seqs', sequences), sym('V', vocab), add(E, 4, Math.max(SORT_PHASE_BYTES, AFTER_SORT_BYTES))), mul(sym('s', tokens), sym('h', hidden), E));
}

export function vllmSamplerBytes(sequences: number, vocab: number, e: number, tokens: number, hidden: number): number {
  return evaluate(vllmSamplerExpr(sequences, vocab, e, tokens, hidden));
}

/** sorted values 4 + indices 8 + index input 8 + cub alternate keys 4 and values 8 */
const SORT_PHASE_BYTES = 32;
/** sorted 4 + indices 8 + top-k mask 1 + softmax 4 + cumsum 4 + top-p mask 1 + scatter 4 */
const AFTER_SORT_BYTES = 26;

/** What vLLM calls total_gpu_memory: the nvidia-smi capacity less the driver's share (runtime.ts). */
export function vllmVisibleTotal(capacityBytes: number): number {
  return Math.max(0, capacityBytes - DRIVER_RESERVED_BYTES);
}

export interface VllmPool {
  /** ceil(total × utilization) */
  requestedBytes: number;
  /** requested − weights − profile peak − non-torch */
  kvPoolBytes: number;
  /** whole blocks × block size */
  kvTokens: number;
}

/** The pool's quantities as expressions (vllmPool evaluates them; the kv-cache term shows them). */
interface PoolExprs {
  requested: Expr;
  block: Expr;
  pool: Expr;
}

/**
 * KV pool left after weights and the profiling peak (steps 1–4 of formulas.md §3.4): whole blocks
 * of block_size · kv_token bytes out of ceil(total · util) − used.
 */
function poolExprs(total: Expr, util: Expr, used: Expr, perTokenBytes: number): PoolExprs {
  const kvToken = sym('kv_token', perTokenBytes);
  const block = mul(sym('block_size', VLLM_BLOCK_SIZE), perTokenBytes >= 1 ? kvToken : max(1, kvToken));
  const requested = ceil(mul(total, util));
  return { requested, block, pool: mul(floor(div(max(0, sub(requested, used)), block)), block) };
}

/**
 * KV pool left after weights and the profiling peak (steps 1–4 of formulas.md §3.4).
 * `capacityBytes` is vLLM's total_gpu_memory (vllmVisibleTotal of the catalogue capacity).
 * `perTokenBytes`: KV bytes per token over all layers on this GPU. Never negative.
 */
export function vllmPool(capacityBytes: number, util: number, nonKvBytes: number, perTokenBytes: number): VllmPool {
  const p = poolExprs(sym('total', Math.max(0, capacityBytes)), sym('util', Math.min(1, Math.max(0, util))), sym('used', nonKvBytes), perTokenBytes);
  const kvPoolBytes = evaluate(p.pool);
  return { requestedBytes: evaluate(p.requested), kvPoolBytes, kvTokens: Math.round(kvPoolBytes / evaluate(p.block)) * VLLM_BLOCK_SIZE };
}

/**
 * vLLM terms: weights (÷ tp, pipeline stage), the profiling-run peak of `max_num_batched_tokens`
 * tokens through fused kernels (flash attention, merged gate_up) or the sampler warm-up over
 * `max_num_seqs` sequences, whichever is larger, and the KV pool that fills what is left of
 * utilization × capacity. Without a chosen GPU the pool is sized to the scenario's own need.
 */
export function buildVllm(ctx: Ctx): Built {
  const { s, arch } = ctx;
  const e = inferenceElementBytes(ctx);
  const policy = { mlaLatent: true, windowed: true, tp: s.tp };
  const frac = stageLayerFraction(ctx, s.pp);
  const perToken = kvBytesPerToken(arch, ctx.kvElementBytes, policy) * frac;
  const batched = s.ubatch ?? VLLM_DEFAULT_BATCHED_TOKENS;
  const forward = forwardTransient(arch, batched, batched, 1, e, 'flash', s.tp, 0, { hiddenRows: VLLM_HIDDEN_ROWS, fusedMlpHeld: false });
  const sequences = Math.min(batched, VLLM_MAX_NUM_SEQS);
  const samplerExpr = vllmSamplerExpr(sequences, arch.vocab, e, batched, arch.hidden);
  const sampler = evaluate(samplerExpr);
  const profileExpr = max(forward.expr, samplerExpr);
  const profileBytes = Math.max(forward.bytes, sampler);
  const wExpr = weightsExpr(ctx, s.tp, s.pp);
  const weights = evaluate(wExpr);
  const nonKv = weights + profileBytes + CUBLAS_WORKSPACE_BYTES;
  const context = s.prompt + s.gen;
  const needTokens = s.batch * context;
  // hybrids: one recurrent-state slot per running sequence, taken from the same pool as the KV blocks
  const state = arch.hybrid ? recurrentState(arch.hybrid, 'vllm', e, s.tp) : null;
  const perSeqState = state ? state.bytes * frac : 0;
  let stateBytes = s.batch * perSeqState;
  // bytes that KV blocks and state slots share: the whole pool with a GPU, else this batch's need
  let shared: number;
  const notes: Message[] = [];
  let kvExpr: Expr;
  let kvTokens: number;
  let reserveExpr: Expr | null = null;
  if (ctx.capacityBytes !== null) {
    // vllmPool's steps over named quantities: total_gpu_memory = C − driver (vllmVisibleTotal)
    const total = ctx.capacityBytes >= DRIVER_RESERVED_BYTES ? sub(sym('C', ctx.capacityBytes), sym('driver', DRIVER_RESERVED_BYTES)) : sym('total', 0);
    const util = sym('util', Math.min(1, Math.max(0, s.gpuUtil)));
    const base = add(sym('weights', weights), sym('profile_peak', profileBytes), sym('cublas', CUBLAS_WORKSPACE_BYTES), sym('context', CUDA_CONTEXT_BYTES));
    shared = evaluate(poolExprs(total, util, base, perToken).pool);
    stateBytes = Math.min(stateBytes, shared);
    const used = stateBytes > 0 ? add(base, sym('state', stateBytes)) : base;
    const p = poolExprs(total, util, used, perToken);
    kvExpr = p.pool;
    kvTokens = Math.round(evaluate(p.pool) / evaluate(p.block)) * VLLM_BLOCK_SIZE;
    // what the pool's whole blocks leave of the requested fraction: less than one block
    reserveExpr = sub(sub(p.requested, used), sym('kv_pool', evaluate(p.pool)));
    if (kvTokens < needTokens) {
      notes.push({
        code: 'vllm.kv-short',
        params: { kvTokens, needTokens },
        text: `The KV pool holds ${kvTokens} tokens, fewer than batch × (prompt + gen) = ${needTokens}: requests will queue or be preempted.`,
      });
    }
  } else {
    const need = stageLayersExpr(ctx, s.pp, kvCacheExpr(arch, add(sym('s_in', s.prompt), sym('s_out', s.gen)), sym('b', s.batch), sym('bytes_kv', ctx.kvElementBytes), policy));
    const block = mul(sym('block_size', VLLM_BLOCK_SIZE), sym('kv_token', Math.max(1, perToken)));
    kvExpr = mul(ceil(div(need, block)), block);
    shared = evaluate(need) + stateBytes;
    kvTokens = Math.round(evaluate(kvExpr) / Math.max(1, perToken));
    notes.push({ code: 'vllm.no-gpu', text: 'No GPU chosen: vLLM would fill gpu_memory_utilization of the device; the KV pool shown is only what this batch needs.' });
  }
  const kvBytes = evaluate(kvExpr);
  const engineReserveBytes = reserveExpr ? Math.max(0, evaluate(reserveExpr)) : 0;
  const terms = [
    term(ctx, 'weights', wExpr, {
      values: { format: s.weights },
      source: ctx.weights.derivation.source,
      confidence: ctx.weights.derivation.confidence,
    }),
    term(ctx, 'kv-cache', kvExpr, {
      values: { kvTokens },
      source: 'vllm v1/worker/gpu_worker.py determine_available_memory; v1/kv_cache_interface.py (formulas.md §3.4)',
      confidence: 'derived',
    }),
    term(ctx, 'activations', profileExpr, {
      values: { max_num_batched_tokens: batched, peak: forward.bytes >= sampler ? 'forward' : 'sampler' },
      source: 'vllm profile_run over max_num_batched_tokens, then the sampler warm-up (formulas.md §3.4; checked on vllm #10517, PR #10511)',
      confidence: 'heuristic',
    }),
    ...(state ? [stateTerm(ctx, arch.hybrid!, state, e, stateBytes / Math.max(1, state.bytes), 'vllm')] : []),
    workspaceTerm(ctx),
  ];
  if (reserveExpr && engineReserveBytes > 0) {
    terms.push(
      term(
        ctx,
        'engine-reserve',
        reserveExpr,
        {
          source: 'formulas.md §3.4: vLLM always fills gpu_memory_utilization (the part of a KV block the pool could not use)',
          confidence: 'derived',
        },
        'reserved',
        false,
      ),
    );
  }
  return {
    terms,
    allocatedBytes: nonKv + kvBytes + stateBytes,
    live: [],
    engineReserveBytes,
    torchAllocator: true,
    trainable: 0,
    // a hybrid sequence needs its KV tokens and one state slot: (pool + state) / (kv_token·context + state per sequence)
    engine: { kvTokens, concurrency: state ? shared / Math.max(1, perToken * context + perSeqState) : kvTokens / Math.max(1, context) },
    notes,
  };
}
