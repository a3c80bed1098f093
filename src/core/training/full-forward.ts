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
 *   are not repeated); the efficient / flash kernel saves q, k, v and its output. With a mask (or
 *   head_dim > 256) K and V are copied to all heads first and the mask made additive: `sdpaCall`;
 *   eager attention (grouped K / V) materialises the scores: `eagerCall`.
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
import { sdpaRepeatsKv } from '../sdpa';
import { savedKvWidth, type ActDtypes, type ActivationTotal } from './activations';
import { planCached, planSaved, type LayerPlans, type PlanEvent } from './layer-plan';
import { eagerScoreEvents } from '../eager-scores';

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
  /** elements of the additive mask SDPA makes from the bool mask (b·s·s; 0: no mask, `is_causal`) */
  mask?: number;
  /** `repeat_kv` copies K and V to all heads before SDPA (a mask, or head_dim > 256; sdpa.ts sdpaRepeatsKv) */
  repeatKv?: boolean;
  /** eager attention (`eager_attention_forward`): elements of one score tensor, b·(a/t)·s·s */
  eager?: number;
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
  // RoPE on an input of `inBytes` (the projection's e, or a q / k norm's output in e_res); its sum
  // `kept` where attention saves it as it is
  const rope = (w: number, inBytes: number, kept = !cast): number => {
    const xc = alloc(T * w, x.eRes, false);
    const neg = alloc((T * w) / 2, inBytes, false);
    const rot = alloc(T * w, inBytes, false);
    drop(neg);
    const rs = alloc(T * w, x.eRes, false);
    drop(rot);
    const sum = alloc(T * w, x.eRes, kept && !x.fused);
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
  // SDPA saves v as it is, or its repeat_kv copy (then v goes with the attention block locals)
  const v = qkv ?? linear(h, x.kv, true, x.repeatKv !== true);
  const ropeIn = x.qkNorm ? x.eRes : x.e;
  // SDPA saves the rotated q (or autocast's cast of it); eager's matmul saves its own copy (eagerCall)
  const qe = rope(x.q, ropeIn, !cast && !x.eager);
  // SDPA saves the rotated K, unless autocast casts it or repeat_kv copies it (sdpaCall)
  const ke = rope(x.kv, ropeIn, !cast && x.repeatKv !== true);
  if (qkv === null) drop(q);
  if (qkv === null) drop(k);
  const { att, held } = x.eager ? eagerCall(x, alloc, drop, cast) : { att: sdpaCall(x, alloc, drop, cast), held: null };
  const o = linear(x.q, h, false, false);
  for (const i of [att, qe, ke, v, held, out1]) drop(i);
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

type Alloc = (elems: number, bytes: number, saves: boolean) => number;
type Drop = (i: number | null) => void;

/**
 * The attention call's tensors, from the rotary sums to SDPA's output (transformers 5.x
 * integrations/sdpa_attention.py `sdpa_attention_forward`, PyTorch 2.11
 * aten/src/ATen/native/transformers/attention.cpp `scaled_dot_product_attention`):
 * - `repeat_kv` (K and V repeated to all a heads where `use_gqa_in_sdpa` fails: a mask, or
 *   head_dim > 256): `[:, :, None].expand(…).reshape(b, a, s, d)`, a copy of K in the rotary sum's
 *   dtype and of V in the Linear's; neither `expand` nor the reshape's copy saves its input, so the
 *   unrepeated K and V are no save and go with the attention block's locals;
 * - autocast casts SDPA's floating inputs to 16-bit (the fp32 q and the repeated fp32 K: new tensors,
 *   saved; V is 16-bit already; the bool mask is not floating and passes as it is); the repeated fp32
 *   K is then no save and goes when `sdpa_attention_forward` returns;
 * - `convert_boolean_attn_mask`: `at::where(mask, 0, -inf)` in the query's dtype, b·s·s elements
 *   (transformers' bool mask is (b, 1, s, s)), made in every call; the fused kernel's autograd node
 *   saves it as `attn_bias` (tools/autograd/derivatives.yaml `_scaled_dot_product_efficient_attention`,
 *   `_scaled_dot_product_cudnn_attention`) with q, k, v and the output. Not laid out: the efficient
 *   kernel's `preprocess_mask` pads the bias's last dim to a multiple of 8 when s is not one (a
 *   padded copy, b·s·⌈s⌉₈·e, the unpadded one freed); the cuDNN kernel, first on sm90 with PyTorch
 *   2.11's bundled cuDNN (sdp_utils.cpp `check_prefer_cudnn_attention`), takes the bias unpadded.
 */
function sdpaCall(x: FullLayerShape, alloc: Alloc, drop: Drop, cast: boolean): number {
  const T = x.tokens;
  const rep = x.repeatKv === true;
  const kr = rep ? alloc(T * x.q, x.eRes, !cast) : null;
  const vr = rep ? alloc(T * x.q, x.e, true) : null;
  const cq = cast ? alloc(T * x.q, x.e, true) : null;
  const ck = cast ? alloc(T * (rep ? x.q : x.kv), x.e, true) : null;
  const bias = x.mask ? alloc(x.mask, cast ? x.e : x.eRes, true) : null;
  const att = alloc(T * x.q, x.e, true);
  // SDPA returns: its additive mask, then autocast's casts; then sdpa_attention_forward's repeated K and V
  for (const i of [bias, cq, ck, kr, vr]) drop(i);
  return att;
}

/**
 * Eager attention's tensors (transformers 5.x modeling_llama.py `eager_attention_forward`), for
 * grouped K / V (g < a): `repeat_kv` copies K and V to all heads (as in sdpaCall); `matmul(q, kᵀ)`
 * (autocast casts the fp32 q and repeated K) folds to bmm, and reshaping q — laid out (b, s, a, d)
 * by the rotary ops, TensorIterator following q_proj's view — to (b·a, s, d) is a copy, which bmm
 * saves with the K view (so the rotated q is no save); the scores; from `* scaling` to the
 * contiguous output saved by o_proj, eager-scores.ts (no softcap: Gemma-2 is not laid out here).
 * The weights it returns stay until the attention block returns (`held`).
 */
function eagerCall(x: FullLayerShape, alloc: Alloc, drop: Drop, cast: boolean): { att: number; held: number | null } {
  const T = x.tokens;
  const S = x.eager ?? 0;
  const kr = alloc(T * x.q, x.eRes, !cast);
  const vr = alloc(T * x.q, x.e, true);
  const cq = cast ? alloc(T * x.q, x.e, false) : null;
  const ck = cast ? alloc(T * x.q, x.e, true) : null;
  const qc = alloc(T * x.q, x.e, true);
  const scores = alloc(S, x.e, false);
  // the matmul returns (its q copy, saved by bmm), then autocast's casts
  for (const i of [qc, cq, ck]) drop(i);
  const ops = { temp: (bytes: number) => alloc(bytes, 1, false), save: (bytes: number) => alloc(bytes, 1, true), free: drop };
  const weights = cast ? 'cast' : x.e < 4 ? 'copy' : 'none';
  // (fp16 and bf16 are not told apart here: a 16-bit sum is taken as bf16's, converted for softmax)
  const { out, held } = eagerScoreEvents(ops, { elems: S, e: x.e, maskBytes: x.eRes, softcap: false, upcast: true, weights, output: T * x.q * x.e, outputSaved: true }, scores);
  // eager_attention_forward returns: its repeated K and V go unless saved; the weights are returned
  drop(kr);
  drop(vr);
  return { att: out, held };
}

/**
 * Families whose decoder layer is `LlamaDecoderLayer`'s (qwen2: biased q / k / v, same tensors;
 * qwen3: q / k RMSNorms before RoPE, models/qwen3/modeling_qwen3.py Qwen3Attention.forward;
 * phi3: `Phi3DecoderLayer`, the same layer with fused qkv_proj and gate_up_proj, its residual
 * dropouts identities at Phi-3's resid_pdrop 0).
 */
const LLAMA_LAYERS = new Set(['llama', 'qwen2', 'mistral', 'qwen3', 'phi3']);

/** How the layer runs: tokens s·b (sequence s), tensor parallelism, dtypes, attention, autocast, the masked SDPA share, AMP's weight copies. */
export interface FullLayerRun {
  tokens: number;
  seq?: number;
  tp: number;
  dt: ActDtypes;
  attn: Attn;
  autocast: boolean;
  maskedShare: number;
  weightCopies: boolean;
}

/** The layer's shape where fullLayerPlan follows the model's code, else null. */
export function fullLayerShape(arch: ModelArch, run: FullLayerRun): FullLayerShape | null {
  const { tokens, seq, tp, dt, attn, autocast, maskedShare, weightCopies } = run;
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
    !arch.hybrid &&
    !arch.encoderDecoder &&
    (fused || (!traits?.fusedQkv && !traits?.fusedGateUp));
  const t = Math.max(1, tp);
  // eager with grouped K / V: repeat_kv's copies (with g = a the matmuls' reshapes copy K and V instead: not laid out)
  const base = (): FullLayerShape => ({
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
  });
  // (Phi-3's fused qkv with a mask or eager: its v slice is copied, not laid out yet)
  if (plain && !fused && attn === 'eager' && seq && g < a && !arch.attnSoftcap && a % t === 0) {
    const eager = base();
    eager.repeatKv = true;
    eager.eager = (tokens * seq * a) / t;
    return eager;
  }
  // SDPA in every layer alike: all masked (padded batches, a window every layer slides) or none
  const masked = maskedShare >= 1;
  if (!plain || attn !== 'sdpa' || (maskedShare > 0 && !masked) || (masked && !seq)) return null;
  if (fused && (masked || sdpaRepeatsKv(arch, false))) return null;
  const repeatKv = sdpaRepeatsKv(arch, masked);
  // the saved K / V width the inventory counts (savedKvWidth): g heads, or a when repeated
  if (savedKvWidth(arch, attn, maskedShare) !== 2 * (repeatKv ? a : g) * d) return null;
  const shape = base();
  // transformers' bool mask is (b, 1, s, s): b·s·s = tokens·s elements, the same on every tp rank
  if (masked) shape.mask = tokens * seq!;
  if (repeatKv) shape.repeatKv = true;
  return shape;
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
