/**
 * One full fine-tune layer's forward as the tensors it allocates and frees, in order, for the
 * Llama-style dense decoder (Llama, Qwen2, Mistral, Qwen3: RMSNorm, RoPE, SDPA, gated MLP) in
 * transformers 5.x. Every parameter requires grad, so each op saves what its derivative reads
 * (tools/autograd/derivatives.yaml); a tensor lives while a Python reference or a save holds it.
 * Only tensors that scale with the tokens are listed (per-token scalars such as RMSNorm's variance
 * and rstd, 4 B a token, and SDPA's log-sum-exp are left out, as in the saved inventory).
 * - `LlamaRMSNorm.forward` (models/llama/modeling_llama.py): `x.to(float32)` — a copy when the
 *   residual stream is 16-bit, saved by `pow` and `*`; x itself when it is fp32 (AMP, fp32);
 *   `pow(2)` freed by `.mean`; `x32 * rsqrt(·)` (the fp32 copy goes on reassignment);
 *   `.to(input_dtype)` — a copy saved by `weight * ·` when 16-bit, else a no-op, so the fp32
 *   normalised tensor is what that mul saves; `weight * ·` the norm output in the residual dtype.
 * - Linear (`F.linear`): its input is saved for the weight gradient. Under autocast with an fp32
 *   residual stream (AMP) each q / k / v / gate / up Linear casts the fp32 norm output to 16-bit
 *   (aten/src/ATen/autocast_mode.cpp `cached_cast`: only leaf tensors that require grad are
 *   cached), and that copy is what it saves; the output is new.
 * - `apply_rotary_pos_emb`: `(q * cos) + (rotate_half(q) * sin)`; `rotate_half` makes `-x2` (half
 *   of q) and `cat`. cos / sin carry the embedding's dtype (`LlamaRotaryEmbedding.forward`:
 *   `.to(x.dtype)`), so under AMP the products and the sum are fp32. The mul by a constant cos /
 *   sin saves no q, so only the sum is kept — by SDPA, or, where autocast casts SDPA's fp32 inputs
 *   to 16-bit, its cast is (`scaled_dot_product_attention` is on autocast's lower-precision list);
 *   the un-rotated q and k go when `apply_rotary_pos_emb` returns.
 * - integrations/sdpa_attention.py: without a mask and with head_dim ≤ 256, `enable_gqa` (K and V
 *   are not repeated); the efficient / flash kernel saves q, k, v and its output.
 * - `LlamaDecoderLayer.forward`: `residual + ·` saves nothing: the sum after attention is kept only
 *   when the next norm saves it as it is (fp32 stream), and the layer's input only then, else it
 *   is freed at that sum; o_proj's and down_proj's outputs go after the sums.
 * - `LlamaMLP.forward`: `down_proj(act_fn(gate_proj(x)) * up_proj(x))`: gate (saved by SiLU), SiLU
 *   (saved by the mul), up (saved), the product (down_proj's input, saved), down.
 * Phi-3 / Phi-4 (`fused`; models/phi3/modeling_phi3.py, transformers 5.x): one qkv_proj output whose
 * slices are q, k and v — v's save keeps it whole (fused-views.ts) and the `qkv` local holds it to the
 * end of the attention; `apply_rotary_pos_emb` ends in `torch.cat([rotated, pass], -1)`, one more
 * q- / k-wide tensor, and the sum before it is freed; `Phi3MLP.forward` makes one gate_up output,
 * its gate chunk saved by SiLU and its up chunk by the mul, held by the `gate` local until down_proj
 * returns. Laid out as full rotary: Phi-4-mini's partial_rotary_factor 0.75 makes its RoPE
 * temporaries 3/4 as wide (the saved bytes are the same).
 * Modes: `forward` keeps the saves and hands its output to the next layer; `checkpointed` is
 * torch/utils/checkpoint.py's non-reentrant forward (transformers 5.x `gradient_checkpointing_enable`
 * — our t028 trace's frames are `recompute_fn`, the non-reentrant path): nothing saved, each tensor
 * freed with its last reference, the output kept as the next layer's checkpoint input;
 * `recompute` reruns the layer in backward from its saved input and stops once the last tensor
 * backward needs is saved (checkpoint.py `_StopRecomputationError`, early stop on by default):
 * down_proj's input and weight, saved before its matmul runs (the autograd codegen saves inputs
 * before the call), so down_proj's output and the residual sum are not made again.
 * AMP (`weightCopies`): each Linear's 16-bit weight copy is made by autocast's `cached_cast` right
 * after its input's cast, before the matmul, and stays in the cache (amp-cache.ts for how long).
 * Checked against t028's recorded run (Llama-3.2-1B, bf16, checkpointing, 1,024 tokens): each
 * checkpointed layer and each recompute makes and frees these tensors, at these sizes, in this order.
 */
import type { Attn, ModelArch } from '../types';
import { FAMILIES } from '../model/families';
import { mlpWidth } from '../model/tensors';
import { savedKvWidth, type ActDtypes, type ActivationTotal } from './activations';
import { planCached, planSaved, type LayerPlans, type PlanEvent } from './layer-plan';

/** One layer's shapes (per tensor-parallel rank) and dtypes. */
export interface FullLayerShape {
  /** s·b */
  tokens: number;
  hidden: number;
  /** a·d/t, g·d/t, f/t */
  q: number;
  kv: number;
  ffn: number;
  /** matmul dtype, residual-stream (embedding) dtype */
  e: number;
  eRes: number;
  /** torch.autocast around the forward (training/autocast.ts) */
  autocast: boolean;
  /** fp32 weights under autocast: each Linear's 16-bit weight copy, made before its matmul (amp-cache.ts) */
  weightCopies: boolean;
  /** Qwen3's q / k RMSNorms over head_dim between the projections and RoPE */
  qkNorm: boolean;
  /** Phi-3's fused qkv_proj and gate_up_proj (fused-views.ts); absent: separate Linears */
  fused?: boolean;
}

export type FullMode = 'forward' | 'checkpointed' | 'recompute';

/** The events of one layer's forward in `mode` (module docstring). */
export function fullLayerPlan(x: FullLayerShape, mode: FullMode): PlanEvent[] {
  const ev: PlanEvent[] = [];
  const keep = mode !== 'checkpointed';
  const saved: boolean[] = [];
  const T = x.tokens;
  const h = x.hidden;
  const fp32Stream = x.eRes >= 4;
  // autocast casts the fp32 norm outputs and rotary sums to the matmul dtype
  const cast = x.autocast && x.eRes !== x.e;
  const alloc = (elems: number, bytes: number, saves: boolean): number => {
    ev.push({ alloc: elems * bytes, saved: saves && keep });
    saved.push(saves && keep);
    return saved.length - 1;
  };
  // a Python reference goes: the tensor is freed unless autograd saved it
  const drop = (i: number | null): void => {
    if (i !== null && !saved[i]) ev.push({ free: i });
  };
  const norm = (): number => {
    const copy = fp32Stream ? null : alloc(T * h, 4, true);
    drop(alloc(T * h, 4, false));
    const n32 = alloc(T * h, 4, fp32Stream);
    drop(copy);
    const low = fp32Stream ? null : alloc(T * h, x.eRes, true);
    const out = alloc(T * h, x.eRes, !cast);
    drop(low);
    drop(n32);
    return out;
  };
  const weightCopy = (dIn: number, dOut: number): void => {
    if (!x.weightCopies) return;
    ev.push({ alloc: dIn * dOut * x.e, saved: false, cached: true });
    saved.push(false);
  };
  const linear = (dIn: number, dOut: number, casts: boolean, saves: boolean): number => {
    // autocast casts the arguments in order: the input (a new tensor), then the weight (cached)
    const copy = casts && cast ? alloc(T * dIn, x.e, true) : null;
    weightCopy(dIn, dOut);
    const y = alloc(T * dOut, x.e, saves);
    drop(copy);
    return y;
  };
  // Qwen3RMSNorm (= LlamaRMSNorm) over head_dim on a projection's output `src` (e wide): its fp32
  // copy saved (the output itself when e = 4), the normalised tensor saved by the trained weight's
  // mul, the product in the weight's dtype (e_res) handed to RoPE; `src` goes when the norm returns
  const headNorm = (src: number, w: number): number => {
    const f32 = x.e >= 4;
    const copy = f32 ? null : alloc(T * w, 4, true);
    drop(alloc(T * w, 4, false));
    const n32 = alloc(T * w, 4, f32);
    drop(copy);
    const low = f32 ? null : alloc(T * w, x.e, true);
    const out = alloc(T * w, x.eRes, false);
    drop(low);
    drop(n32);
    drop(src);
    return out;
  };
  // RoPE on an input of `inBytes` (the projection's e, or a q / k norm's output in e_res)
  const rope = (w: number, inBytes: number): number => {
    const xc = alloc(T * w, x.eRes, false);
    const neg = alloc((T * w) / 2, inBytes, false);
    const rot = alloc(T * w, inBytes, false);
    drop(neg);
    const rs = alloc(T * w, x.eRes, false);
    drop(rot);
    const sum = alloc(T * w, x.eRes, !cast && !x.fused);
    drop(xc);
    drop(rs);
    if (!x.fused) return sum;
    // Phi-3's apply_rotary_pos_emb ends in `torch.cat([rotated, pass])`: a copy, even with nothing to pass
    const whole = alloc(T * w, x.eRes, !cast);
    drop(sum);
    return whole;
  };
  // the layer input: handed over in forward; in a recompute the checkpoint's saved input, which an
  // fp32 stream's norm saves as it is — no new tensor (activations.ts inputSavedAsIs)
  const out1 = norm();
  // an fp32 projection output is its own norm's saved fp32 input
  const normSaves = x.qkNorm && x.e >= 4;
  // Phi3Attention: q, k and v are slices of one qkv_proj output, which v's save keeps whole and the
  // `qkv` local holds until the attention returns
  const qkv = x.fused ? linear(h, x.q + 2 * x.kv, true, true) : null;
  const qp = qkv ?? linear(h, x.q, true, normSaves);
  const q = x.qkNorm ? headNorm(qp, x.q) : qp;
  const kp = qkv ?? linear(h, x.kv, true, normSaves);
  const k = x.qkNorm ? headNorm(kp, x.kv) : kp;
  const v = qkv ?? linear(h, x.kv, true, true);
  const ropeIn = x.qkNorm ? x.eRes : x.e;
  const qe = rope(x.q, ropeIn);
  const ke = rope(x.kv, ropeIn);
  if (qkv === null) drop(q);
  if (qkv === null) drop(k);
  const cq = cast ? alloc(T * x.q, x.e, true) : null;
  const ck = cast ? alloc(T * x.kv, x.e, true) : null;
  const att = alloc(T * x.q, x.e, true);
  drop(cq);
  drop(ck);
  const o = linear(x.q, h, false, false);
  for (const i of [att, qe, ke, v, out1]) drop(i);
  const h1 = alloc(T * h, x.eRes, fp32Stream);
  drop(o);
  if (mode === 'forward' && !fp32Stream) ev.push({ free: -1 });
  const out2 = norm();
  const f = x.ffn;
  // Phi3MLP: one gate_up_proj output, its chunks saved by SiLU (gate) and the mul (up); the `gate`
  // local holds it until down_proj returns
  const gate = linear(h, x.fused ? 2 * f : f, true, true);
  const act = alloc(T * f, x.e, true);
  if (!x.fused) drop(gate);
  const up = x.fused ? null : linear(h, f, true, true);
  const product = alloc(T * f, x.e, true);
  drop(act);
  drop(up);
  if (mode === 'recompute') {
    // down_proj's autograd node saves its input and weight before the matmul runs, and that is the
    // last save: under AMP its weight is cast first, then the recompute stops
    weightCopy(f, h);
    drop(h1);
    drop(out2);
    return ev;
  }
  const down = linear(f, h, false, false);
  drop(product);
  if (x.fused) drop(gate);
  drop(out2);
  // the layer's output: the next layer's input (checkpointed: kept as its checkpoint input)
  ev.push({ alloc: T * h * x.eRes, saved: mode === 'checkpointed' });
  saved.push(mode === 'checkpointed');
  drop(down);
  drop(h1);
  return ev;
}

/**
 * Families whose decoder layer is `LlamaDecoderLayer`'s (qwen2: biased q / k / v, same tensors;
 * qwen3: q / k RMSNorms before RoPE, models/qwen3/modeling_qwen3.py Qwen3Attention.forward;
 * phi3: `Phi3DecoderLayer`, the same layer with fused qkv_proj and gate_up_proj, its residual
 * dropouts identities at Phi-3's resid_pdrop 0).
 */
const LLAMA_LAYERS = new Set(['llama', 'qwen2', 'mistral', 'qwen3', 'phi3']);

/** How the layer runs: tokens s·b, tensor parallelism, dtypes, attention, autocast, the masked SDPA share, AMP's weight copies. */
export interface FullLayerRun {
  tokens: number;
  tp: number;
  dt: ActDtypes;
  attn: Attn;
  autocast: boolean;
  maskedShare: number;
  weightCopies: boolean;
}

/** The layer's shape where fullLayerPlan follows the model's code, else null. */
export function fullLayerShape(arch: ModelArch, run: FullLayerRun): FullLayerShape | null {
  const { tokens, tp, dt, attn, autocast, maskedShare, weightCopies } = run;
  const traits = FAMILIES[arch.family];
  const { hidden: h, heads: a, kvHeads: g, headDim: d } = arch;
  const fused = traits?.fusedQkv === true && traits.fusedGateUp === true;
  const plain =
    LLAMA_LAYERS.has(arch.family) &&
    arch.gatedMlp &&
    arch.norm === 'rmsnorm' &&
    arch.normsPerLayer === 2 &&
    !arch.moe &&
    !arch.mla &&
    (arch.qkNorm !== true || arch.family === 'qwen3') &&
    !arch.hybrid &&
    !arch.encoderDecoder &&
    (fused || (!traits?.fusedQkv && !traits?.fusedGateUp));
  // SDPA without a mask and without K / V repeated (savedKvWidth)
  if (!plain || attn !== 'sdpa' || maskedShare > 0 || savedKvWidth(arch, attn, 0) !== 2 * g * d) return null;
  const t = Math.max(1, tp);
  return {
    tokens,
    hidden: h,
    q: (a * d) / t,
    kv: (g * d) / t,
    ffn: mlpWidth(arch, false) / t,
    e: dt.e,
    eRes: dt.eRes,
    autocast,
    weightCopies,
    qkNorm: arch.qkNorm === true,
    ...(fused ? { fused } : {}),
  };
}

/**
 * The plans the replay runs for a full fine-tune (layer-plan.ts LayerPlans), or null where the
 * layer is not laid out or its saves are not the inventory's (activations.ts layerActivation):
 * without checkpointing the forward (its input handed over, kept with the saves on an fp32
 * stream), with full checkpointing the recompute and the checkpointed forward. `copies`: one
 * layer's AMP weight copies (amp-cache.ts); the plan makes them only where they are its Linears'.
 */
export function fullLayerPlans(laid: FullLayerShape | null, acts: ActivationTotal, checkpointed: boolean, copies: number): LayerPlans | null {
  if (!laid) return null;
  const copied = laid.weightCopies && Math.abs(planCached(fullLayerPlan(laid, 'checkpointed')) - copies) <= 1;
  const shape = { ...laid, weightCopies: copied };
  const input = shape.tokens * shape.hidden * shape.eRes;
  const perLayer = checkpointed ? acts.recompute : (acts.bytes - acts.head - acts.recompute) / Math.max(1, acts.layersOnGpu);
  const keep = fullLayerPlan(shape, checkpointed ? 'recompute' : 'forward');
  const inputKept = !checkpointed && shape.eRes >= 4 ? input : 0;
  if (Math.abs(planSaved(keep) + inputKept - perLayer) > 1) return null;
  return { keep, checkpointed: checkpointed ? fullLayerPlan(shape, 'checkpointed') : null, input: checkpointed ? 0 : input, cached: copied ? copies : 0 };
}
