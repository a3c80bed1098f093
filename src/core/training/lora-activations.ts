/**
 * What autograd saves for backward in one layer when the base Linears are frozen (LoRA / QLoRA),
 * per token, as a function of the adapted projections. Derivation:
 *
 * 1. A frozen Linear saves nothing. `linear` decomposes to `addmm` / `mm`; their derivatives
 *    (tools/autograd/derivatives.yaml: `self: mm_mat1_backward(grad, mat2, …)`,
 *    `mat2: mm_mat2_backward(grad, self, …)`) use the input only for the weight gradient, and the
 *    autograd codegen saves an input only when the edge that uses it needs a gradient
 *    (tools/autograd/gen_variable_type.py `guard_for`: `grad_fn->should_compute_output(k)`). The
 *    same guard drops the normalised tensor that RMSNorm's `weight * x̂` mul saves for the (frozen)
 *    norm weight: a norm keeps its fp32 input copy (and per-token rstd) only. bitsandbytes 4-bit
 *    (`MatMul4Bit`: `ctx.tensors = (None, B)`) and torchao NF4 (`linear_nf4` keeps the weight) save
 *    no input either.
 * 2. An adapted Linear runs PEFT `lora.Linear.forward` (peft/tuners/lora/layer.py) or torchtune
 *    `LoRALinear.forward`: base(x) + lora_B(lora_A(dropout(x)))·scale. lora_A saves its input, lora_B
 *    lora_A's output (r wide); the scale mul (Python scalar) and the add save nothing. lora_A's input
 *    is x itself — one tensor however many adapters read it — unless something makes a copy:
 *    PEFT casts x to the adapter dtype (`_cast_input_dtype`: fp32 adapters on a 16-bit model), AMP's
 *    autocast casts it to 16-bit (only leaf weights' casts are cached), or dropout > 0 (`nn.Dropout`,
 *    else `nn.Identity`) writes a new tensor and saves its 1-byte mask. Each adapter then saves its
 *    own copy in lora_A's compute dtype (16-bit under AMP, else the adapter dtype).
 * 3. Other ops save as before: q, k, v after RoPE (RoPE's mul by the constant cos / sin saves only
 *    those; a v that is a slice of a fused qkv output keeps the whole output: fused-views.ts),
 *    SDPA / flash its output too (that storage is also o_proj's input, so an o adapter with no copy
 *    adds nothing there; eager attention keeps no output), the eager s² scores, the SiLU input
 *    (gate output) and both operands of `silu(gate) * up`; a plain MLP keeps the activation's input.
 *    The down / fc2 input (the product) is kept only by a down adapter. GPT-style layers keep the
 *    LayerNorm inputs and the 1-byte dropout masks.
 * 4. torch.compile: the min-cut partitioner (see compiledLayer in activations.ts) saves what backward
 *    matmuls read — only the adapters' inputs now — and the matmul / attention outputs; pointwise
 *    chains (SiLU output, norm internals) are recomputed; identical casts of one tensor are merged by
 *    CSE (one copy per tensor), dropout is random and stays per adapter.
 * 5. A quantized base Linear may save more than a frozen nn.Linear (quant-base.ts): bitsandbytes
 *    LLM.int8 keeps its input as it arrives (the same storage as lora_A's un-copied input), AWQ an
 *    fp16 copy of it (`x.half()`: shared when the input already is fp16, else one per Linear), and
 *    bitsandbytes ≤ 0.43.1 (bnb-version=legacy) its `x.to(compute_dtype)` likewise;
 *    GPTQ's torch path the whole 16-bit dequantized weight of every Linear (a per-layer constant).
 * 6. Full checkpointing recomputes one layer in backward: the same inventory (activationBytes).
 * 7. Qwen3 / Gemma-3 q and k RMSNorms keep their fp32 input copies, not the normalised tensor (frozen
 *    weight; activations.ts qkNormPerToken).
 * Layer 0 saves less before its first adapter (its input needs no gradient); that is not subtracted.
 * MLA layers keep the full fine-tune inventory (their latent projections are not modelled here).
 */
import type { Attn, LoraTarget, ModelArch } from '../types';
import { FAMILIES } from '../model/families';
import { mlpWidth } from '../model/tensors';
import {
  MATH_FORMULA,
  extraNorms,
  gptEagerSaves,
  extraScoreBytes,
  fp32HiddenTensors,
  gptNorms,
  layerNormBytes,
  layerStyle,
  LN_NOTE,
  normInputBytes,
  qkNormPerToken,
  savedKvWidth,
  savedMaskBytes,
  sdpaMathSaves,
  type ActDtypes,
  type LayerActivation,
} from './activations';
import type { BaseSaves } from './quant-base';
import { actFormula, actSavesBytes, mlpActSaves, NO_ACT_SAVES } from './act-saves';
import { fusedQkvViewWidth } from './fused-views';

/** How the adapters are built and run. */
export interface LoraSaves {
  targets: readonly LoraTarget[];
  rank: number;
  /** PEFT lora_dropout probability */
  dropout: number;
  /** bytes of one adapter parameter element (4: fp32 adapters, 2: 16-bit) */
  adapterBytes: number;
  /** autocast around the forward (AMP, or a 16-bit model under HF Trainer: autocast.ts): lora_A casts its input to 16-bit */
  autocast: boolean;
  /** what the (quantized) base Linears keep for backward; absent: nothing (frozen nn.Linear, bnb 4-bit) */
  base?: BaseSaves;
  /** the 16-bit compute dtype is fp16 (AWQ's `x.half()` makes no copy of an fp16 input) */
  fp16?: boolean;
  /** bytes of 16-bit dequantized weights one dense / MoE layer saves (GPTQ), before tp */
  savedWeights?: { dense: number; moe: number };
  /**
   * prepare_model_for_kbit_training's fp32 parameters (kbit-prep.ts): the MLP's saved tensors and the
   * down input are fp32; `attn` = bytes of the saved q, k, v, attention output (and eager scores)
   */
  upcast?: { attn: number };
}

/** One Linear input tensor of a layer and how many adapters read it. */
interface LinearInput {
  /** elements per token */
  width: number;
  /** bytes per element of the tensor as the layer produces it */
  bytes: number;
  /** adapted Linear calls reading it per token */
  readers: number;
  /** base Linear calls reading it per token, adapted or not */
  linears: number;
  /** distinct tensors per token an unmodified shared save keeps (MoE: one gathered copy per expert pass) */
  tensors: number;
  /** saved by another op anyway (SDPA's output is o_proj's input) */
  kept: boolean;
}

/**
 * Bytes per token that the adapters reading one input tensor save: the tensor itself once when no
 * copy is made, else each adapter's copy (compiled without dropout: one, CSE-merged) plus masks,
 * plus lora_B's r-wide input per adapter.
 */
function adapterInputBytes(x: LinearInput, lora: LoraSaves, e: number, compiled: boolean): number {
  const cast = lora.base?.input === 'cast' ? lora.base.castTo?.(x.bytes, x.bytes === 2 && lora.fp16 === true) : undefined;
  // the base keeps the tensor itself (LLM.int8's A; a cast to the dtype the input already has:
  // AWQ's x.half() of an fp16 input, bitsandbytes' x.to(compute_dtype)), else a copy per Linear
  const baseKeepsX = lora.base?.input === 'as-is' || (cast !== undefined && x.bytes === cast.bytes && (cast.bytes === 4 || cast.fp16 === (lora.fp16 === true)));
  const baseCopies = (cast && !baseKeepsX ? x.linears * x.width * cast.bytes : 0) + x.linears * x.width * (lora.base?.perLinear ?? 0);
  const computeBytes = lora.autocast ? e : lora.adapterBytes;
  const dropout = lora.dropout > 0;
  // a new tensor when PEFT casts x to the adapter dtype, autocast casts it to 16-bit, or dropout writes one
  const copy = dropout || lora.adapterBytes !== x.bytes || (lora.autocast && x.bytes !== e);
  const copies = compiled && !dropout ? x.tensors : x.readers;
  const adapterKeepsX = x.readers > 0 && !copy;
  const itself = (adapterKeepsX || (baseKeepsX && x.linears > 0)) && !x.kept ? x.tensors * x.width * x.bytes : 0;
  if (x.readers === 0) return itself + baseCopies;
  const input = copy ? copies * x.width * computeBytes : 0;
  const masks = dropout ? x.readers * x.width : 0;
  return itself + baseCopies + input + masks + x.readers * lora.rank * computeBytes;
}

const count = (want: ReadonlySet<LoraTarget>, names: readonly LoraTarget[]): number => names.filter((n) => want.has(n)).length;

/** Bytes one layer saves for backward with frozen base Linears and the given adapters. */
export function loraLayerActivation(
  arch: ModelArch,
  s: number,
  b: number,
  dt: ActDtypes,
  attn: Attn,
  tp: number,
  moeLayer: boolean,
  compiled: boolean,
  lora: LoraSaves,
  maskedShare = 0,
): LayerActivation {
  const t = Math.max(1, tp);
  const { hidden: h, heads: a, headDim: d } = arch;
  const { e, eRes } = dt;
  const f = mlpWidth(arch, moeLayer);
  const eAttn = lora.upcast?.attn ?? e;
  const eMlp = lora.upcast ? 4 : e;
  const traits = FAMILIES[arch.family];
  const want = new Set(lora.targets);
  const m = moeLayer ? arch.moe : undefined;
  const passes = m ? m.expertsPerToken + m.sharedExperts : 1;
  const gathered = m ? m.expertsPerToken + (m.sharedExperts > 0 ? 1 : 0) : 1;
  const qkv = traits?.fusedQkv ? Math.min(1, count(want, ['q', 'k', 'v'])) : count(want, ['q', 'k', 'v']);
  const mlpIn = arch.gatedMlp ? (traits?.fusedGateUp ? Math.min(1, count(want, ['gate', 'up'])) : count(want, ['gate', 'up'])) : count(want, ['up']);
  // with SDPA / flash the o_proj input is the kernel's saved output
  const sdpaOut = attn !== 'eager';
  // base Linear calls per input: fused qkv / gate_up projections are one Linear
  const qkvLinears = traits?.fusedQkv ? 1 : 3;
  const mlpLinears = (arch.gatedMlp && !traits?.fusedGateUp ? 2 : 1) * passes;
  // a plain MLP's ReLU saves its output, the down projection's input (act-saves.ts)
  const reluOut = arch.mlpAct === 'relu' && !arch.gatedMlp && !compiled;
  const inputs: LinearInput[] = [
    { width: h, bytes: eRes, readers: qkv, linears: qkvLinears, tensors: 1, kept: false },
    { width: (a * d) / t, bytes: eAttn, readers: count(want, ['o']), linears: 1, tensors: 1, kept: sdpaOut },
    { width: h, bytes: eRes, readers: mlpIn * passes, linears: mlpLinears, tensors: gathered, kept: false },
    { width: f / t, bytes: eMlp, readers: count(want, ['down']) * passes, linears: passes, tensors: 1, kept: reluOut },
  ];
  const adapters = inputs.reduce((sum, x) => sum + adapterInputBytes(x, lora, e, compiled), 0);
  const weights = lora.base?.weight16 && lora.savedWeights ? (moeLayer ? lora.savedWeights.moe : lora.savedWeights.dense) / t : 0;
  const llama = layerStyle(arch) === 'llama';
  // GPT-style: one norm or two, residual-dropout masks or none (activations.ts gptNorms)
  const gpt = gptNorms(arch);
  // eager RMSNorm keeps its fp32 input copy; LayerNorm and compiled norms keep the input
  // (an old-style RMSNorm its 16-bit input too: normInputBytes)
  const kept = normInputBytes(arch, dt, compiled);
  // (a LayerNorm under autocast: an fp32 cast of its input, layerNormBytes)
  const normCount = llama ? 2 + (compiled ? 0 : extraNorms(arch)) : gpt.norms;
  const norms = normCount * ((compiled ? eRes : llama ? 4 : layerNormBytes(dt)) + kept) * h;
  // gated: gate output (SiLU input), SiLU output and up output (eager) / gate and up outputs (compiled); plain: fc1 output
  const mlpKept = llama && arch.gatedMlp ? (compiled ? 2 : 3) : 1;
  // q, K and V as attention saves them (repeated to a heads by eager and masked SDPA), the kernel's output
  // (v as a slice of a fused qkv output keeps the whole output: fused-views.ts)
  const viewed = fusedQkvViewWidth(arch, attn, b, maskedShare);
  const attnKept = a * d + savedKvWidth(arch, attn, maskedShare) + viewed + (sdpaOut ? a * d : 0);
  const masks = llama ? 0 : gpt.masks * h;
  // Qwen3 / Gemma-3 q and k norms: their fp32 input copies (frozen norm weights)
  const qk = qkNormPerToken(arch, e, false, compiled);
  // SDPA's math kernel keeps fp32 q, K, V (and not its output) in place of what a fused kernel saves, and its probabilities
  const math = compiled ? null : sdpaMathSaves(arch, attn, s, b, t);
  const mathLinear = math ? s * b * (math.perToken - (eAttn * attnKept) / t) : 0;
  const gptEager = attn === 'eager' && !llama ? gptEagerSaves(arch, Math.max(dt.eF32, eAttn), eAttn) : null;
  // a Python-composed activation's intermediates (act-saves.ts; recomputed when compiled): they
  // need a gradient through the layer input whether or not the Linears train
  // (a plain MLP's ReLU output stands in for the fc1 output counted below: the same count)
  const act = compiled || reluOut ? NO_ACT_SAVES : mlpActSaves(arch, { ...dt, e: eMlp });
  const actBytes = actSavesBytes(act, eMlp);
  const linear = s * b * (norms + (eAttn * attnKept + eMlp * mlpKept * f + qk + (gptEager?.perToken ?? 0) + actBytes * f) / t + masks + adapters) + weights + mathLinear;
  const bss = b * s * s;
  const eagerScores = attn !== 'eager' ? 0 : gptEager ? (bss * a * gptEager.perScore) / t : (bss * a * ((eAttn >= 4 ? 4 : 4 + eAttn) + extraScoreBytes(arch, eAttn))) / t;
  const scores = eagerScores + savedMaskBytes(s, b, eAttn, maskedShare) + (math ? math.scores : 0);
  const lnWide = !llama && !compiled && layerNormBytes(dt) !== eRes;
  const nNorm = llama && !compiled ? (kept > 0 ? '(4 + e_res)' : '4') : lnWide ? 'e_ln' : 'e_res';
  return {
    linear,
    scores,
    style: llama ? 'llama' : 'gpt',
    // the norms' fp32 input copies (eager RMSNorm) or fp32 inputs; the adapters' own input copies are left in e
    fp32Hidden: fp32HiddenTensors(llama || compiled ? dt : { ...dt, eRes: layerNormBytes(dt) }, normCount, llama && !compiled, false),
    act,
    formula: `frozen base${compiled ? ', compiled' : ''}: s·b·(${normCount === 2 ? '2·' : normCount === 1 ? '' : `${normCount}·`}${nNorm}·h + ${qk > 0 ? '(' : ''}${lora.upcast ? `${eAttn}·(ad + kv${sdpaOut ? ' + ad' : ''}) + 4·${mlpKept}f` : `e·(ad + kv${sdpaOut ? ' + ad' : ''} + ${mlpKept}f)`}${qk > 0 ? ' + 4·(a + g)·d)' : ''}/t${masks > 0 ? ' + 2h' : ''} + Σ adapter inputs (x once, or a copy + mask per adapter) + Σ r·c_A)${baseNote(lora.base)}${attn === 'eager' ? ' [+ eager s² scores]' : ''}${maskedShare > 0 ? ' [+ m·b·s²·e masked SDPA]' : ''}${math ? MATH_FORMULA : ''}; kv = 2gd (2ad eager or masked SDPA with g < a)${viewed > 0 ? ' [+ (a + g)d where v is a slice of a fused qkv output]' : ''}${lnWide ? LN_NOTE : ''}${actFormula(act, eMlp)}`,
  };
}

function baseNote(base: BaseSaves | undefined): string {
  if (base?.weight16) return ' + Σ_linears 2·d_in·d_out (GPTQ: dequantized weights saved by matmul)';
  if (base?.input === 'as-is') return base.perLinear ? ' (LLM.int8 ≤ 0.43.1 keeps every Linear input and its int8 CAt)' : ' (LLM.int8 keeps every Linear input)';
  if (base?.input === 'cast') return base.by === 'awq' ? ' (+ AWQ: an fp16 input copy per Linear)' : ' (+ bitsandbytes ≤ 0.43.1: each 4-bit Linear keeps its input in the compute dtype)';
  return '';
}

/**
 * Bytes per token of the model head with a frozen LM head: only the final norm's saved input
 * (fp32 copy in the eager RMSNorm, else the input); the LM-head input is not saved (rule 1).
 */
export function loraHeadPerToken(arch: ModelArch, dt: ActDtypes, compiled: boolean): number {
  return arch.hidden * ((layerStyle(arch) === 'llama' && !compiled ? 4 : dt.eRes) + normInputBytes(arch, dt, compiled));
}
