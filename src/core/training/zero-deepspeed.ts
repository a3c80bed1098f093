/**
 * DeepSpeed ZeRO buffers beyond the partitioned model states, per GPU, read from DeepSpeed's own
 * allocations (microsoft/DeepSpeed, deepspeed/runtime/zero/, release of Feb 2025):
 *
 * ZeRO-1/2 (`stage_1_and_2.py`, DeepSpeedZeroOptimizer):
 * - `backward()`: with contiguous_gradients (default on) allocates `ipg_buffer` =
 *   `torch.empty(reduce_bucket_size)` in the 16-bit dtype, a second one when overlap_comm is on
 *   ("double buffers"); `_release_ipg_buffers()` drops them in the backward epilogue. The full
 *   bucket size, whatever the model size.
 * - `step()`: per parameter group, `self.flatten(self.averaged_gradients[i]).to(fp32)` builds a
 *   16-bit flat copy of the gradient partition and from it the fp32 `single_grad_partition`, while
 *   the 16-bit partition (`grads_in_partition`) is still referenced; the 16-bit gradients are freed
 *   only after. Peak: 16-bit partition + flat copy + fp32 copy.
 * - offload_optimizer: the fp32 partition, its gradient and the optimizer live on the CPU; the GPU
 *   keeps `temp_grad_buffer_for_gpu_offload` (largest parameter's numel, 16-bit) for good. (From
 *   DeepSpeed 0.14.1 to PR #7309, May 2025, the step also copied the fp32 partition to the GPU
 *   before the cast; current releases stage it through a pinned 16-bit CPU buffer.)
 * - allgather_bucket_size: the updated partitions are gathered in place into `bit16_groups_flat`
 *   (runtime/utils.py all_gather_into_tensor_dp_groups), so the bucket allocates nothing.
 *
 * ZeRO-3 (`stage3.py`, DeepSpeedZeroOptimizer_Stage3):
 * - `_setup_for_real_optimizer()`: `__ipg_bucket_flat_buffer` (reduce_bucket_size, 16-bit) and
 *   `grad_partitions_flat_buffer` (the gradient partition, zeros, on the GPU unless the optimizer is
 *   offloaded) are allocated once and kept: the partitioned gradients are persistent.
 * - reduce: `reduce_scatter_coalesced` (runtime/comm/coalesced_collectives.py) interleaves the
 *   bucket's gradients into one `torch.cat` copy before the reduce-scatter.
 * - `_prepare_fp32_grad_for_sub_group()`: per sub-group of at most sub_group_size (1e9) elements,
 *   the same flatten + fp32 cast as ZeRO-1/2.
 * - parameter fetching (`partitioned_param_coordinator.py`): a module's parameters are gathered
 *   whole before it runs; `__params_to_release` keeps every parameter that reappears within
 *   `max_reuse_distance` elements of the trace, so at the forward→backward turn the trailing
 *   layers and the LM head stay gathered; up to `prefetch_bucket_size` more elements are prefetched,
 *   no more than `max_live_parameters` allow. With one rank there is no gather (`_no_gather_coalesced`
 *   views the partition) unless parameters are offloaded (then `.to(device)` copies them in).
 * - `param_persistence_threshold` (partition_parameters.py): parameters up to that many elements
 *   are not partitioned (`ds_persist`), i.e. the norm vectors and biases stay whole on every GPU.
 *
 * Bucket defaults: DeepSpeed's zero/config.py (reduce 5e8, prefetch 5e7, persistence 1e5, max live
 * 1e9, reuse 1e9, sub-group 1e9); HF Trainer's 'auto': ds-auto.ts.
 */
import type { Ctx } from '../estimate-context';
import { term } from '../estimate-context';
import { add, div, evaluate, min, mul, sym } from '../formula';
import type { Term } from '../types';
import { largestTrainableElements } from './in-backward';
import { paramsPerGpu } from './sharding';
import { hfAutoBuckets } from './ds-auto';

/** DeepSpeed zero/config.py `sub_group_size` default. */
export const DS_SUB_GROUP = 1e9;

export interface DsConfig {
  reduceBucket: number;
  prefetchBucket: number;
  persistThreshold: number;
  maxLive: number;
  reuseDistance: number;
  overlapComm: boolean;
}

/** Bucket settings with HF's 'auto' rule applied from the hidden size. */
export function dsConfig(ctx: Ctx): DsConfig {
  const { s, arch } = ctx;
  const auto = hfAutoBuckets(arch.hidden);
  return {
    reduceBucket: s.dsReduceBucket ?? auto.reduceBucket,
    prefetchBucket: s.dsPrefetchBucket ?? auto.prefetchBucket,
    persistThreshold: s.dsPersistThreshold ?? auto.persistThreshold,
    maxLive: s.dsMaxLive,
    reuseDistance: s.dsReuseDistance,
    overlapComm: s.dsOverlapComm === 'on' || (s.dsOverlapComm === 'auto' && s.zero === 3),
  };
}

/** Per-GPU bytes of DeepSpeed's buffers, split by when they are live. */
export interface DsBuffers {
  /** allocated for the whole run (ZeRO-3 reduce bucket, offload staging buffer, persistent params) */
  persistent: number;
  /** live during backward only (ZeRO-1/2 reduce buffers, ZeRO-3 reduce-scatter copy) */
  backward: number;
  /** ZeRO-3 parameters gathered at the forward→backward turn */
  gathered: number;
  /** step temporaries on top of the 16-bit gradient partition */
  step: number;
  /** 16-bit gradient partition bytes (what the step temporaries sit beside) */
  gradPartition: number;
  /** ZeRO-3 keeps its gradient partition buffer allocated between steps */
  gradsPersistent: boolean;
  terms: Term[];
}

/**
 * DeepSpeed's buffers for `trainOnGpu` trainable parameters (already ÷ tp·pp) over `dp` ranks.
 * `g`: gradient bytes (DeepSpeed's 16-bit dtype, 4 without fp16/bf16); `wGather`: bytes per
 * gathered parameter element.
 */
export function deepspeedBuffers(ctx: Ctx, trainOnGpu: number, dp: number, g: number, wGather: number): DsBuffers {
  const { s } = ctx;
  const cfg = dsConfig(ctx);
  const n = Math.max(1, dp);
  const offloaded = s.offload !== 'none';
  const part = trainOnGpu / n;
  // flatten copy (16-bit) + cast to fp32; with fp32 gradients `.to(fp32)` returns the same tensor
  const G = sym('g', g);
  const perElementStep = g === 4 ? G : add(G, 4);
  const partExpr = n > 1 ? div(sym('P_train', trainOnGpu), sym('N_d', n)) : sym('P_train', trainOnGpu);
  const bucket = sym('reduce_bucket', cfg.reduceBucket);
  const terms: Term[] = [];
  if (s.zero === 3) {
    const ipg = cfg.reduceBucket * g;
    const scatterCopy = cfg.reduceBucket * g;
    const stepExpr = offloaded ? 0 : mul(perElementStep, min(sym('sub_group_size', DS_SUB_GROUP), partExpr));
    const step = evaluate(stepExpr);
    const fetch = zero3Gathered(ctx, n, cfg);
    const W = sym('w', wGather);
    const persistExpr = mul(sym('persistent', fetch.persistentElements), W);
    const gatheredExpr = mul(sym('gathered', fetch.elements), W);
    const persist = evaluate(persistExpr);
    const gathered = evaluate(gatheredExpr);
    terms.push(
      term(
        ctx,
        'zero-grad-buffers',
        add(mul(bucket, G), mul(bucket, G)),
        {
          values: { buffers: 'IPG bucket (kept) + reduce-scatter interleave copy (backward)' },
          source: 'DeepSpeed stage3.py _setup_for_real_optimizer (__ipg_bucket_flat_buffer); comm/coalesced_collectives.py reduce_scatter_coalesced (torch.cat)',
          confidence: 'derived',
        },
        'allocated',
        false,
      ),
    );
    if (gathered + persist > 0) {
      terms.push(
        term(ctx, 'zero-gathered-params', add(gatheredExpr, persistExpr), {
          values: {
            gathered_rule: 'min(P, reuse window + prefetch) elements',
            persistent_rule: 'small params kept whole: ·(1 − 1/N_d) beyond the partition',
            window: fetch.window,
            prefetch: fetch.prefetch,
            reuse_distance: cfg.reuseDistance,
            prefetch_bucket: cfg.prefetchBucket,
            max_live: cfg.maxLive,
            persistence_threshold: cfg.persistThreshold,
            N_d: n,
            ckpt: s.gradCkpt,
          },
          source: 'DeepSpeed partitioned_param_coordinator.py fetch_sub_module / __params_to_release (max_reuse_distance); partition_parameters.py ds_persist',
          confidence: 'heuristic',
        }),
      );
    }
    if (step > 0) {
      terms.push(
        term(
          ctx,
          'zero-step-grads',
          stepExpr,
          {
            values: { copies: g === 4 ? 'fp32 flatten copy (already fp32: no cast)' : '16-bit flatten copy + fp32 gradient' },
            source: 'DeepSpeed stage3.py _prepare_fp32_grad_for_sub_group',
            confidence: 'derived',
          },
          'allocated',
          false,
        ),
      );
    }
    return { persistent: ipg + persist, backward: scatterCopy, gathered, step, gradPartition: part * g, gradsPersistent: !offloaded, terms };
  }
  // ZeRO-1/2
  const buffers = cfg.overlapComm ? 2 : 1;
  const ipg = buffers * cfg.reduceBucket * g;
  const stagingExpr = offloaded ? mul(sym('largest_param', largestTrainableElements(ctx, 1)), G) : 0;
  const staging = evaluate(stagingExpr);
  const stepExpr = offloaded ? 0 : mul(perElementStep, partExpr);
  const step = evaluate(stepExpr);
  terms.push(
    term(
      ctx,
      'zero-grad-buffers',
      add(mul(sym('k', buffers), bucket, G), stagingExpr),
      {
        values: {
          overlap_comm: cfg.overlapComm ? 'on: k = 2' : 'off: k = 1',
          buffers: offloaded ? 'IPG buckets (backward) + offload staging of the largest parameter' : 'IPG buckets, allocated each backward',
        },
        source: 'DeepSpeed stage_1_and_2.py backward (ipg_buffer)' + (offloaded ? ', __init__ temp_grad_buffer_for_gpu_offload' : ''),
        confidence: 'derived',
      },
      'allocated',
      false,
    ),
  );
  if (step > 0) {
    terms.push(
      term(
        ctx,
        'zero-step-grads',
        stepExpr,
        {
          values: { copies: g === 4 ? 'fp32 flatten copy (already fp32: no cast)' : '16-bit flatten copy + fp32 single_grad_partition' },
          source: 'DeepSpeed stage_1_and_2.py step (flatten(averaged_gradients).to(fp32))',
          confidence: 'derived',
        },
        'allocated',
        false,
      ),
    );
  }
  return { persistent: staging, backward: ipg, gathered: 0, step, gradPartition: part * g, gradsPersistent: false, terms };
}

interface Zero3Fetch {
  /** gathered elements at the forward→backward turn */
  elements: number;
  window: number;
  prefetch: number;
  /** elements kept whole beyond their partition (ds_persist), per GPU */
  persistentElements: number;
}

/**
 * Parameters gathered at the forward→backward turn. A module run at forward position i is used
 * again in backward after every later module has run forward and backward (twice the parameters
 * after it; with full checkpointing the recomputed forward passes too, three times, the LM head
 * two), so `__params_to_release` keeps the trailing parameters whose reuse falls within
 * max_reuse_distance: R/2 elements (R + head)/3 with checkpointing, at least the LM head (the
 * module in use). Prefetch adds up to prefetch_bucket, capped by max_live_parameters.
 */
function zero3Gathered(ctx: Ctx, n: number, cfg: DsConfig): Zero3Fetch {
  const { s, arch, params } = ctx;
  const tp = Math.max(1, s.tp);
  const total = paramsPerGpu(params, s.tp, s.pp);
  // norms and biases: 1-D tensors of at most h elements (ParamBreakdown.other)
  const persistentElements = cfg.persistThreshold >= arch.hidden && n > 1 ? (params.other / tp) * (1 - 1 / n) : 0;
  if (n === 1 && s.offload !== 'params') return { elements: 0, window: 0, prefetch: 0, persistentElements };
  const head = (params.lmHead > 0 ? params.lmHead : params.embedding) / tp;
  const reach = s.gradCkpt === 'full' ? (cfg.reuseDistance + head) / 3 : cfg.reuseDistance / 2;
  const window = Math.min(total, Math.max(head, reach));
  const prefetch = Math.max(0, Math.min(cfg.prefetchBucket, cfg.maxLive - window, total - window));
  return { elements: window + prefetch, window, prefetch, persistentElements };
}
