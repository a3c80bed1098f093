/**
 * Memory estimate of a layer-list network (the classic per-layer method, docs/reference/formulas.md §7),
 * returned in the same Estimate shape as the LLM path (src/core/types.ts) plus a per-layer table.
 *
 * Training: model states (docs/reference/formulas.md §4.1 via src/core/training/optimizer.ts) + tensors
 * autograd keeps (§7.3) + the gradient pair live in backward. Inference (no_grad): weights +
 * the largest set of simultaneously live tensors (§7 "Inference peak for feed-forward CNNs").
 */
import type { Estimate, GradCkpt, Message, Mode, Optimizer, Precision, Result, Term } from '../types';
import { modelStateBytes } from '../training/optimizer';
import { analyze, sumBytes, type Analysis, type Dtypes, type LayerRow } from './analyze';
import { CUBLAS_WORKSPACE, CUBLAS_WORKSPACE_BYTES, CUDA_CONTEXT_BYTES, segmentWaste, TRAINING_CUBLAS_HANDLES, type TensorGroup } from '../runtime';
import { add, derive, evaluate, mul, sym, type DerivationInfo, type Expr } from '../formula';
import { checkpointed } from './checkpoint';
import { backwardPeak, optimizerStateBytes } from './states';
import type { LayerSpec, Network } from './spec';
import { MiB } from '../units';
import { kMinLargeAlloc, kSmallSize } from '../allocator/constants';
import { layerError, problem, type LayerFieldError, type LayerResult } from './problems';

export interface NetworkOptions {
  mode: Mode;
  batch: number;
  precision: Precision;
  optimizer: Optimizer;
  gradCkpt: GradCkpt;
}

/**
 * One row of the per-layer table: the analysis row with outputBytes, savedBytes (per-sample
 * part × batch + fixed part; 0 in inference) and flops for the whole batch.
 */
export type NetworkLayerRow = Pick<LayerRow, 'path' | 'kind' | 'depth' | 'inShape' | 'outShape' | 'params' | 'buffers' | 'outputBytes' | 'savedBytes' | 'flops'>;

export interface NetworkEstimate extends Estimate {
  layers: NetworkLayerRow[];
  outShape: number[];
  /** forward FLOPs for the batch */
  flops: number;
  batch: number;
}

/** Largest batch accepted (2^24); with the walker's per-tensor limit every byte count stays finite. */
export const MAX_BATCH = 2 ** 24;

const AMP: Precision[] = ['amp-fp16', 'amp-bf16'];
const HALF: Precision[] = ['bf16', 'fp16'];

/** Element sizes for a precision recipe (torch autocast op lists; pure 16-bit casts everything). */
export function dtypesFor(precision: Precision, net: Network): Dtypes {
  const ids = firstLeaf(net.layers)?.kind === 'embedding';
  if (HALF.includes(precision)) return { compute: 2, fp32: 2, param: 2, input: ids ? 8 : 2 };
  const amp = AMP.includes(precision);
  return { compute: amp ? 2 : 4, fp32: 4, param: 4, input: ids ? 8 : 4 };
}

/** The first layer the input meets, through containers. */
function firstLeaf(ls: LayerSpec[]): LayerSpec | undefined {
  const l = ls[0];
  if (!l) return undefined;
  if (l.kind === 'block' || l.kind === 'sequential' || l.kind === 'repeat') return firstLeaf(l.body);
  return l;
}

/** Batch-independent analysis, reused across batch sizes (max-batch search). */
export interface Prepared {
  net: Network;
  a: Analysis;
  precision: Precision;
}

/** Analyse once for a precision; the error names the first layer that does not fit. */
export function prepareNetwork(net: Network, precision: Precision): LayerResult<Prepared> {
  const r = analyze(net, dtypesFor(precision, net));
  if (!r.ok) return { ok: false, errors: [layerError('network', r.problem, 'network.shape', { ...r.problem.params, path: r.path })] };
  return { ok: true, value: { net, a: r.value, precision } };
}

/** A term whose bytes and shown formula are one expression (src/core/formula). */
const term = (id: Term['id'], expr: Expr, level: Term['level'], info: DerivationInfo): Term => ({ id, bytes: evaluate(expr), level, derivation: derive(expr, info) });

/** Estimate for one batch size from a prepared analysis. */
export function estimatePrepared(p: Prepared, o: NetworkOptions): NetworkEstimate {
  const { a, precision } = p;
  const b = o.batch;
  const amp = AMP.includes(precision);
  const pB = HALF.includes(precision) ? 2 : 4;
  const P = a.params;
  const terms: Term[] = [];
  const notes: Message[] = [];
  const training = o.mode === 'training';
  const ms = modelStateBytes(precision, o.optimizer);
  /** bytes of every tensor live at the peak, for the allocator's segment rounding */
  const live: number[] = [];
  const perParam = amp ? 4 : pB;
  for (const r of a.rows) {
    if (r.params > 0) live.push(r.params * perParam);
    if (r.params > 0 && amp && CAST_KINDS.includes(r.kind)) live.push(2 * r.params);
    if (r.buffers > 0) live.push(r.buffers * pB, 8);
  }
  const P_ = sym('P', P);
  const buffers = add(mul(sym('buffers', a.buffers), sym('bytes_param', pB)), mul(8, sym('int_buffers', a.intBuffers)));
  const castCache = mul(2, sym('P_cast', a.castParams));
  const autocast = 'torch autocast weight-cast cache (autocast_mode.cpp cached_cast)';
  if (amp && training) {
    terms.push(term('weights', add(castCache, buffers), 'allocated', { source: autocast, confidence: 'derived' }));
    terms.push(term('master-weights', mul(4, P_), 'allocated', { source: ms.source, confidence: 'exact' }));
  } else if (amp) {
    terms.push(term('weights', add(mul(4, P_), castCache, buffers), 'allocated', { source: `fp32 params + ${autocast}`, confidence: 'derived' }));
  } else {
    terms.push(term('weights', add(mul(sym('bytes_param', pB), P_), buffers), 'allocated', { source: 'formulas.md §7.1', confidence: 'exact' }));
  }
  const cublas = CUBLAS_WORKSPACE;
  // training: a workspace per cuBLAS handle, the forward's and autograd's device thread's (runtime.ts)
  const trainCublas = mul(sym('handles', TRAINING_CUBLAS_HANDLES), cublas);
  const B = sym('b', b);
  if (training) {
    const optBytes = optimizerStateBytes(a.rows, o.optimizer, precision);
    terms.push(
      term('optimizer', sym('opt_states', optBytes), 'allocated', {
        values: { rule: 'Σ over parameter tensors of state bytes', optimizer: o.optimizer, P },
        source: 'formulas.md §4.1 (src/core/training/optimizer.ts); Adafactor / bnb 8-bit per tensor (src/core/layers/states.ts)',
        confidence: 'exact',
      }),
    );
    live.push(optBytes);
    if (o.gradCkpt === 'selective') {
      notes.push({ code: 'network.selectiveAsFull', text: 'Selective recomputation has no standard form for these layers; counted as full checkpointing.' });
    }
    const G = sym('bytes_grad', ms.gradients);
    if (o.gradCkpt !== 'none') {
      const kept = checkpointed(a, b);
      for (const id of kept.ids) {
        const z = a.sizes.get(id);
        if (z) live.push(z.ps * b + z.fixed);
      }
      live.push(a.gradPair * b);
      terms.push(term('gradients', mul(G, P_), 'allocated', { source: ms.source, confidence: 'exact' }));
      terms.push(
        term('activations', sym('kept', kept.bytes), 'allocated', {
          values: { rule: 'Σ segment inputs + max recomputed segment (√n segments)', b, units: a.units.length },
          source: 'torch.utils.checkpoint.checkpoint_sequential; Chen et al. 2016 arXiv 1604.06174',
          confidence: 'derived',
        }),
      );
      terms.push(
        term('workspace', add(mul(sym('gradPair', a.gradPair), B), trainCublas), 'allocated', {
          values: { gradPair_is: 'max_l (in_l + out_l) per sample; + a cuBLAS workspace per handle' },
          source: 'formulas.md §3.3, §7.3',
          confidence: 'heuristic',
        }),
      );
    } else {
      // the backward sweep: saved tensors still needed + gradients produced so far + this layer's gradient pair
      const pk = backwardPeak(a.rows, b, ms.gradients);
      live.push(pk.saved, pk.grads, pk.transient);
      terms.push(
        term('gradients', mul(G, sym('P_done', pk.grads / ms.gradients)), 'allocated', {
          values: { P_done_is: 'parameters whose backward has run at the peak', P },
          source: `${ms.source}; zero_grad(set_to_none=True)`,
          confidence: 'derived',
        }),
      );
      terms.push(
        term('activations', sym('saved', pk.saved), 'allocated', {
          values: { rule: 'Σ saved tensors still needed at the peak', b, allSaved: sumBytes(a, a.saved, b) },
          source: 'formulas.md §7.3',
          confidence: 'derived',
        }),
      );
      terms.push(
        term('workspace', add(sym('grad_pair', pk.transient), trainCublas), 'allocated', {
          values: { grad_pair_is: '(grad_in + grad_out) of the peak layer; + a cuBLAS workspace per handle (forward, autograd’s device thread)', b },
          source: 'formulas.md §3.3, §7.3',
          confidence: 'heuristic',
        }),
      );
    }
    live.push(...Array.from({ length: TRAINING_CUBLAS_HANDLES }, () => CUBLAS_WORKSPACE_BYTES));
  } else {
    terms.push(
      term('activations', mul(sym('perSample', a.inferPeak), B), 'allocated', {
        values: { perSample_is: 'max_l (held + in_l + out_l) per sample' },
        source: 'formulas.md §7 inference peak',
        confidence: 'derived',
      }),
    );
    live.push(...a.inferPeakTensors.map((x) => x * b), CUBLAS_WORKSPACE_BYTES);
    terms.push(term('workspace', cublas, 'allocated', { values: { what: 'cuBLAS workspace' }, source: 'formulas.md §3.3', confidence: 'heuristic' }));
  }
  notes.push({ code: 'network.cudnnWorkspace', text: 'cuDNN convolution workspace depends on the algorithm chosen and is not included.' });
  const allocated = terms.reduce((s, t) => s + t.bytes, 0);
  const slack = segmentWaste(segmentGroups(live));
  terms.push(
    term('allocator-reserve', sym('segment_waste', slack), 'reserved', {
      values: { rule: 'Σ segment rounding of live tensors', tensors: live.length },
      source: 'allocator.md §1 round_size / get_allocation_size (src/core/runtime.ts)',
      confidence: 'derived',
    }),
  );
  terms.push(
    term('cuda-context', mul(CUDA_CONTEXT_BYTES / MiB, sym('MiB', MiB)), 'device', { values: { what: 'CUDA context' }, source: 'formulas.md §3.3; PyTorch PR #86509', confidence: 'heuristic' }),
  );
  const reserved = allocated + slack;
  return {
    params: { total: P, trainable: training ? P : 0, active: P },
    terms,
    allocatedBytes: allocated,
    reservedBytes: reserved,
    deviceBytes: reserved + CUDA_CONTEXT_BYTES,
    notes,
    layers: a.rows.map((r) => ({
      path: r.path,
      kind: r.kind,
      depth: r.depth,
      inShape: r.inShape,
      outShape: r.outShape,
      params: r.params,
      buffers: r.buffers,
      outputBytes: r.outputBytes * b,
      savedBytes: training ? r.savedBytes * b + r.savedFixedBytes : 0,
      flops: r.flops * b,
    })),
    outShape: a.out,
    flops: a.flops * b,
    batch: b,
  };
}

/** Layer kinds whose weights autocast casts to 16-bit and caches. */
const CAST_KINDS = ['linear', 'conv1d', 'conv2d', 'convtranspose2d', 'mha'];

/**
 * Tensors grouped for segmentWaste: the caching allocator packs every request ≤ 1 MiB into
 * shared 2 MiB segments and 1–10 MiB requests into shared 20 MiB ones whatever their sizes
 * (docs/reference/allocator.md §1), so each of those two classes is one group of its mean size; larger
 * tensors get private segments and are grouped by exact size.
 */
function segmentGroups(sizes: number[]): TensorGroup[] {
  const small: number[] = [];
  const mid: number[] = [];
  const large = new Map<number, number>();
  for (const x of sizes) {
    if (!(x > 0)) continue;
    if (x <= kSmallSize) small.push(x);
    else if (x < kMinLargeAlloc) mid.push(x);
    else large.set(x, (large.get(x) ?? 0) + 1);
  }
  const mean = (xs: number[]): TensorGroup[] => (xs.length ? [{ bytes: xs.reduce((p, q) => p + q, 0) / xs.length, count: xs.length }] : []);
  return [...mean(small), ...mean(mid), ...[...large].map(([bytes, count]) => ({ bytes, count }))];
}

function checkOptions(o: NetworkOptions): LayerFieldError[] {
  const errs: LayerFieldError[] = [];
  if (!Number.isInteger(o.batch) || o.batch < 1 || o.batch > MAX_BATCH) {
    errs.push(layerError('batch', problem('batch.range', { max: MAX_BATCH })));
  }
  return errs;
}

/** Full estimate: validate, analyse, total. Never throws. */
export function estimateNetwork(net: Network, o: NetworkOptions): Result<NetworkEstimate> {
  const errs = checkOptions(o);
  if (errs.length) return { ok: false, errors: errs };
  const p = prepareNetwork(net, o.precision);
  return p.ok ? { ok: true, value: estimatePrepared(p.value, o) } : p;
}

/**
 * Largest batch whose deviceBytes fit `capacityBytes` (binary search; device bytes grow with
 * the batch). 0 when even batch 1 does not fit.
 */
export function maxBatch(p: Prepared, o: Omit<NetworkOptions, 'batch'>, capacityBytes: number): number {
  const fits = (b: number) => estimatePrepared(p, { ...o, batch: b }).deviceBytes <= capacityBytes;
  if (!fits(1)) return 0;
  let lo = 1;
  let hi = MAX_BATCH;
  if (fits(hi)) return hi;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  return lo;
}
