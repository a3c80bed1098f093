/**
 * The tensors one adapted Linear makes in its forward, in order: PEFT `lora.Linear.forward`
 * (peft/tuners/lora/layer.py, one active adapter, not merged):
 *
 *     result = self.base_layer(x)                        # base output, model dtype
 *     x = self._cast_input_dtype(x, lora_A.weight.dtype) # a copy when the adapter dtype differs
 *     result = result + lora_B(lora_A(dropout(x))) * scaling
 *     result = result.to(torch_result_dtype)             # a copy when the sum was promoted
 *
 * - `dropout` (`nn.Dropout` when lora_dropout > 0, else `nn.Identity`): aten `native_dropout` writes
 *   its 1-byte mask (saved) and a new output in x's dtype;
 * - `lora_A`: autocast casts a non-16-bit input to 16-bit (aten/src/ATen/autocast_mode.cpp: only leaf
 *   weights' casts are cached, so the input copy is new), and that copy — or, without one, the
 *   dropout output / cast / x itself — is what lora_A saves for its weight gradient; its r-wide output
 *   is saved by lora_B;
 * - lora_B's output, the scaling product and the sum are new tensors; the output and the product are
 *   freed at once (a Python scalar mul saves nothing), the base output once the sum exists; the input
 *   cast and an unsaved dropout output are freed when forward returns;
 * - the sum (the Linear's output) goes to the next op; it is freed here, at the end of the Linear.
 * What lora_A saves is lora-activations.ts `adapterInputBytes` term by term (its copy, the mask, the
 * r-wide output), so the replay's saved bytes and the closed form's are one count. Checked against
 * t000's recorded run (Llama-3.2-1B, bf16 with Trainer autocast, fp32 adapters, lora_dropout 0.05,
 * 2,048 tokens): q_proj makes 8 MiB (base), 16 MiB (fp32 cast), 4 MiB (mask), 16 MiB (dropout), 8 MiB
 * (autocast copy), 64 KiB (lora_A), frees the 16 MiB dropout output, 8 MiB (lora_B), 8 MiB (scaled),
 * frees lora_B's, 8 MiB (sum), frees the scaled, the base output, then the cast.
 */
import type { LoraTarget, ModelArch } from '../types';
import { FAMILIES } from '../model/families';
import { mlpWidth } from '../model/tensors';
import { planSaved, type PlanEvent } from './layer-plan';
import { eagerScoreEvents } from '../eager-scores';

/** What the forward of one adapted Linear needs to know. */
export interface LoraLinearShape {
  /** tokens (s·b) */
  tokens: number;
  /** input and output widths (per tensor-parallel rank) */
  dIn: number;
  dOut: number;
  rank: number;
  dropout: number;
  /** bytes per element: the input as it arrives, the base output, the adapter parameters */
  inputBytes: number;
  outputBytes: number;
  adapterBytes: number;
  /** autocast's 16-bit size when autocast runs the forward, else null */
  autocast: number | null;
}

/** The events of one adapted Linear's forward (module docstring), in order. */
export function loraLinearForward(l: LoraLinearShape): PlanEvent[] {
  const ev: PlanEvent[] = [];
  let n = 0;
  const alloc = (bytes: number, saved = false): number => {
    ev.push({ alloc: bytes, saved });
    return n++;
  };
  const x = l.tokens * l.dIn;
  const y = l.tokens * l.dOut;
  const base = alloc(y * l.outputBytes);
  // PEFT's cast and dropout make new tensors; the one lora_A reads is saved unless autocast copies it
  let cur = l.inputBytes;
  const cast = l.adapterBytes !== cur ? n : null;
  const toCast = cast !== null ? { bytes: x * l.adapterBytes } : null;
  if (toCast) cur = l.adapterBytes;
  const dropped = l.dropout > 0;
  const autocastCopy = l.autocast !== null && cur !== l.autocast;
  // the tensor lora_A reads: the dropout output, else the cast, else x (no new tensor)
  const readKept = !autocastCopy;
  if (toCast) alloc(toCast.bytes, readKept && !dropped);
  let drop: number | null = null;
  if (dropped) {
    alloc(x, true);
    drop = alloc(x * cur, readKept);
  }
  if (autocastCopy) alloc(x * (l.autocast ?? cur), true);
  const compute = l.autocast ?? l.adapterBytes;
  alloc(l.tokens * l.rank * compute, true);
  if (drop !== null && !readKept) ev.push({ free: drop });
  const bOut = alloc(y * compute);
  const scaled = alloc(y * compute);
  ev.push({ free: bOut });
  // result + product: promoted to the wider dtype, then cast back to the base output's
  const promoted = Math.max(l.outputBytes, compute);
  let sum = alloc(y * promoted);
  ev.push({ free: scaled }, { free: base });
  if (promoted !== l.outputBytes) {
    const back = alloc(y * l.outputBytes);
    ev.push({ free: sum });
    sum = back;
  }
  if (cast !== null && !(readKept && !dropped)) ev.push({ free: cast });
  ev.push({ free: sum });
  return ev;
}

/** Dtypes of a layer's adapted Linears. */
export interface LoraLayerDtypes {
  /** model compute dtype (base outputs, autocast's copies) */
  e: number;
  /** the inputs of q/k/v and gate/up (the norm outputs), o (attention output) and down (MLP product) */
  hiddenIn: number;
  attnIn: number;
  mlpIn: number;
  adapterBytes: number;
  autocast: boolean;
}

/** One adapted Linear of a layer and its forward events. */
export interface LoraLinearForward {
  target: LoraTarget;
  events: PlanEvent[];
  /** lora_A reads a new tensor (cast, dropout or autocast copy), not the Linear's input itself */
  copies: boolean;
}

/**
 * The adapted Linears of one dense layer in module order (q, k, v, o, gate, up, down; a fused qkv /
 * gate_up projection is one Linear) with their forward events. MoE layers and compiled graphs are
 * not laid out (the caller passes no sequence).
 */
export function loraLayerForward(arch: ModelArch, tokens: number, tp: number, targets: readonly LoraTarget[], rank: number, dropout: number, dt: LoraLayerDtypes): LoraLinearForward[] {
  const t = Math.max(1, tp);
  const { hidden: h, heads: a, kvHeads: g, headDim: d } = arch;
  const f = mlpWidth(arch, false);
  const traits = FAMILIES[arch.family];
  const want = new Set(targets);
  const io: [LoraTarget, number, number, number][] = traits?.fusedQkv
    ? want.has('q') || want.has('k') || want.has('v')
      ? [['q', h, ((a + 2 * g) * d) / t, dt.hiddenIn]]
      : []
    : (['q', 'k', 'v'] as const).filter((x) => want.has(x)).map((x) => [x, h, ((x === 'q' ? a : g) * d) / t, dt.hiddenIn]);
  if (want.has('o')) io.push(['o', (a * d) / t, h, dt.attnIn]);
  const gated = arch.gatedMlp;
  if (gated && traits?.fusedGateUp) {
    if (want.has('gate') || want.has('up')) io.push(['gate', h, (2 * f) / t, dt.hiddenIn]);
  } else for (const x of gated ? (['gate', 'up'] as const) : (['up'] as const)) if (want.has(x)) io.push([x, h, f / t, dt.hiddenIn]);
  if (want.has('down')) io.push(['down', f / t, h, dt.mlpIn]);
  return io.map(([target, dIn, dOut, inputBytes]) => ({
    target,
    events: loraLinearForward({ tokens, dIn, dOut, rank, dropout, inputBytes, outputBytes: dt.e, adapterBytes: dt.adapterBytes, autocast: dt.autocast ? dt.e : null }),
    copies: dropout > 0 || dt.adapterBytes !== inputBytes || (dt.autocast && inputBytes !== dt.e),
  }));
}

/** A layer's non-adapter saves, in bytes, in the order the layer makes them (loraLayerPlan). */
export interface LayerSaves {
  /** the norms' fp32 input copies: one before attention, the rest before the MLP */
  norm: number;
  norms: number;
  /** q and k after RoPE, v, the attention kernel's output */
  attn: readonly number[];
  /** one f-wide MLP save and how many (gate output, SiLU output, up output; a plain MLP one) */
  mlp: number;
  mlps: number;
  /**
   * eager attention in a 16-bit model (eager-scores.ts): bytes of one score tensor
   * (b·(a/t)·s²·2), of the attention output (s·b·(a/t)·d·2), whether the scores are softcapped
   * (Gemma-2) and whether softmax converts them to fp32 first (bf16; fp16 runs aten's
   * half_to_float kernel); `attn` then lists the q copy and the repeated K and V its matmuls save
   */
  eager?: { scores: number; output: number; softcap: boolean; upcast: boolean };
}

/**
 * One LoRA layer's forward as one event list: the saved inventory `bytes` laid out in the order the
 * layer makes it — the first norm's fp32 input copy, the q / k / v adapters, the attention's saves,
 * the o adapter, the second norm's copy, the gate / up adapters, the MLP's f-wide saves, the MLP
 * product (down_proj's input, freed after it unless a down adapter saves it as it is), the down
 * adapter, then what is left as one tensor — with each adapted Linear's temporaries made and freed
 * in place. `keep` false (a checkpointed forward): only the adapters' tensors, none kept.
 */
export function loraLayerPlan(lora: readonly LoraLinearForward[], bytes: number, saves: LayerSaves, keep: boolean): PlanEvent[] {
  const ev: PlanEvent[] = [];
  let n = 0;
  let left = keep ? bytes - lora.reduce((sum, l) => sum + planSaved(l.events), 0) : 0;
  const put = (size: number, count: number): void => {
    for (let k = 0; k < count && size > 0 && left >= size; k++) {
      ev.push({ alloc: size, saved: true });
      n++;
      left -= size;
    }
  };
  const linears = (names: readonly LoraTarget[]): void => {
    for (const l of lora) {
      if (!names.includes(l.target)) continue;
      const at = n;
      // not kept: what an op would save goes once the next op has made its output (t006's
      // checkpointed forward frees dropout's mask after its output, autocast's copy after lora_A's)
      let pending: number | null = null;
      for (const e of l.events) {
        if ('free' in e) ev.push({ free: at + e.free });
        else {
          ev.push({ alloc: e.alloc, saved: e.saved && keep });
          if (pending !== null) ev.push({ free: pending });
          pending = !keep && e.saved ? n : null;
          n++;
        }
      }
      if (pending !== null) ev.push({ free: pending });
    }
  };
  // a tensor freed by the next op (never saved)
  const temp = (size: number): number => {
    ev.push({ alloc: size, saved: false });
    return n++;
  };
  // a tensor saved for backward where the inventory has room (kept); else (a checkpointed
  // forward) made and freed by the next op like a temporary
  const save = (size: number): number | null => {
    if (keep && left >= size) {
      put(size, 1);
      return null;
    }
    return temp(size);
  };
  const free = (i: number | null): void => {
    if (i !== null) ev.push({ free: i });
  };
  // eager attention's score-sized tensors (eager-scores.ts), the weights held to the block's end
  const eagerScores = (x: NonNullable<LayerSaves['eager']>): { out: number | null; held: number | null } => {
    const scores = temp(x.scores);
    const elems = x.scores / 2;
    return eagerScoreEvents({ temp, save, free }, { elems, e: 2, maskBytes: 2, softcap: x.softcap, upcast: x.upcast, weights: 'copy', output: x.output, outputSaved: false }, scores);
  };
  put(saves.norm, Math.min(1, saves.norms));
  linears(['q', 'k', 'v']);
  for (const w of saves.attn) put(w, 1);
  const attended = saves.eager ? eagerScores(saves.eager) : null;
  linears(['o']);
  free(attended?.out ?? null);
  free(attended?.held ?? null);
  put(saves.norm, saves.norms - 1);
  linears(['gate', 'up']);
  put(saves.mlp, saves.mlps);
  const down = lora.find((l) => l.target === 'down');
  const product = down && !down.copies ? null : n;
  if (product !== null) {
    ev.push({ alloc: saves.mlp, saved: false });
    n++;
  }
  linears(['down']);
  if (product !== null) ev.push({ free: product });
  if (left >= 1) ev.push({ alloc: left, saved: true });
  return ev;
}
