/**
 * The weight tensors of one transformer block, by role, as the checkpoint stores them.
 * One enumeration feeds parameter counts (params.ts), storage formats (formats/) and LoRA
 * (lora.ts), so all three agree. Role names follow llama.cpp's GGUF tensor names
 * (`src/llama-arch.cpp` LLM_TENSOR_*), whose quantization rules key on them (docs/reference/formulas.md §2.4).
 * Shapes: docs/reference/formulas.md §1.1 (attention, MLP), §1.2 (MoE), §1.3 (MLA).
 */
import type { ModelArch } from '../types';
import { FAMILIES } from './families';
import { hybridMoeLayers, mixerTensors, rwkvChannelMix, rwkvTimeMix, sharedUseTensors } from './hybrid';

export type TensorRole =
  | 'attn_q'
  | 'attn_k'
  | 'attn_v'
  | 'attn_qkv'
  | 'attn_output'
  | 'attn_q_a'
  | 'attn_q_b'
  | 'attn_kv_a_mqa'
  | 'attn_kv_b'
  | 'ffn_gate'
  | 'ffn_up'
  | 'ffn_gate_up'
  | 'ffn_down'
  | 'ffn_gate_exps'
  | 'ffn_up_exps'
  | 'ffn_down_exps'
  | 'ffn_gate_shexp'
  | 'ffn_up_shexp'
  | 'ffn_down_shexp'
  | 'ssm_in'
  | 'ssm_x'
  | 'ssm_dt'
  | 'ssm_ba'
  | 'ssm_out'
  | 'time_mix_receptance'
  | 'time_mix_key'
  | 'time_mix_value'
  | 'time_mix_output'
  | 'time_mix_lora'
  | 'channel_mix_key'
  | 'channel_mix_value'
  | 'shared_adapter'
  | 'shared_out';

/** A Linear weight of din → dout elements, repeated `copies` times in the block (experts). */
export interface LinearTensor {
  role: TensorRole;
  din: number;
  dout: number;
  copies: number;
  /** T5 decoder cross-attention projections. */
  cross?: boolean;
}

/** One kind of block and how many blocks of that kind the model has. */
export interface BlockKind {
  kind: 'dense' | 'moe' | 'decoder';
  count: number;
  linears: LinearTensor[];
  /** norms, biases, router and other small tensors of one block */
  other: number;
  /** MoE: parameters of one routed expert (inactive for a token unless selected) */
  expertParams: number;
}

/** A block's layer i is MoE when i ≥ denseLayers and (i + 1) is a multiple of layerFreq (Qwen `decoder_sparse_step`; DeepSeek's `moe_layer_freq` is 1). */
export function isMoeLayer(arch: ModelArch, i: number): boolean {
  const m = arch.moe;
  return !!m && i >= m.denseLayers && i < arch.layers && (i + 1) % m.layerFreq === 0;
}

/** Intermediate width per token of one layer's MLP (MoE: k routed experts + shared ones). */
export function mlpWidth(arch: ModelArch, moeLayer: boolean): number {
  const m = arch.moe;
  if (!m || !moeLayer) return arch.ffn;
  return m.expertsPerToken * m.expertFfn + m.sharedExperts * m.sharedFfn;
}

/** Number of MoE layers, closed form of isMoeLayer over [0, L). */
export function moeLayerCount(arch: ModelArch): number {
  const m = arch.moe;
  if (!m) return 0;
  if (arch.hybrid) return hybridMoeLayers(arch.hybrid);
  const f = m.layerFreq;
  return Math.max(0, Math.floor(arch.layers / f) - Math.floor(m.denseLayers / f));
}

function normSize(arch: ModelArch): number {
  return arch.norm === 'layernorm' ? 2 * arch.hidden : arch.hidden;
}

/** Attention Linears; `din` is the width q/k/v read (Zamba2's shared attention reads 2·h). */
function attention(arch: ModelArch, cross: boolean, din = arch.hidden): { linears: LinearTensor[]; other: number } {
  const { hidden: h, heads: a, kvHeads: g, headDim: d } = arch;
  const lin = (role: TensorRole, din: number, dout: number): LinearTensor => (cross ? { role, din, dout, copies: 1, cross } : { role, din, dout, copies: 1 });
  const m = arch.mla;
  if (m) {
    const qd = a * (m.qkNopeHeadDim + m.qkRopeHeadDim);
    const q = m.qLoraRank === null ? [lin('attn_q', h, qd)] : [lin('attn_q_a', h, m.qLoraRank), lin('attn_q_b', m.qLoraRank, qd)];
    return {
      linears: [...q, lin('attn_kv_a_mqa', h, m.kvLoraRank + m.qkRopeHeadDim), lin('attn_kv_b', m.kvLoraRank, a * (m.qkNopeHeadDim + m.vHeadDim)), lin('attn_output', a * m.vHeadDim, h)],
      other: (m.qLoraRank ?? 0) + m.kvLoraRank + (arch.oBias ? h : 0),
    };
  }
  const fused = FAMILIES[arch.family]?.fusedQkv === true;
  // Qwen3-Next q_proj emits query and output gate: 2·a·d (Qwen3NextAttention)
  const q = arch.hybrid?.attnGate ? 2 * a * d : a * d;
  const qkv = fused ? [lin('attn_qkv', din, (a + 2 * g) * d)] : [lin('attn_q', din, q), lin('attn_k', din, g * d), lin('attn_v', din, g * d)];
  const bias = (arch.qkvBias ? (a + 2 * g) * d : 0) + (arch.oBias ? h : 0);
  const qkNorm = arch.qkNorm && !cross ? 2 * d : 0;
  return { linears: [...qkv, lin('attn_output', a * d, h)], other: bias + qkNorm };
}

function denseMlp(arch: ModelArch): { linears: LinearTensor[]; other: number } {
  const { hidden: h, ffn: f } = arch;
  const one = (role: TensorRole, din: number, dout: number): LinearTensor => ({ role, din, dout, copies: 1 });
  if (!arch.gatedMlp) {
    return { linears: [one('ffn_up', h, f), one('ffn_down', f, h)], other: arch.mlpBias ? f + h : 0 };
  }
  const up = FAMILIES[arch.family]?.fusedGateUp ? [one('ffn_gate_up', h, 2 * f)] : [one('ffn_gate', h, f), one('ffn_up', h, f)];
  return { linears: [...up, one('ffn_down', f, h)], other: arch.mlpBias ? 2 * f + h : 0 };
}

function experts(arch: ModelArch, moe: NonNullable<ModelArch['moe']>): { linears: LinearTensor[]; other: number; expert: number } {
  const h = arch.hidden;
  const fe = moe.expertFfn;
  const fs = moe.sharedFfn;
  const up = arch.gatedMlp ? 2 : 1;
  const linears: LinearTensor[] = [];
  if (arch.gatedMlp) linears.push({ role: 'ffn_gate_exps', din: h, dout: fe, copies: moe.experts });
  linears.push({ role: 'ffn_up_exps', din: h, dout: fe, copies: moe.experts });
  linears.push({ role: 'ffn_down_exps', din: fe, dout: h, copies: moe.experts });
  if (moe.sharedExperts > 0) {
    const s = moe.sharedExperts;
    if (arch.gatedMlp) linears.push({ role: 'ffn_gate_shexp', din: h, dout: fs, copies: s });
    linears.push({ role: 'ffn_up_shexp', din: h, dout: fs, copies: s });
    linears.push({ role: 'ffn_down_shexp', din: fs, dout: h, copies: s });
  }
  const router = h * moe.experts + (moe.routerBias ? moe.experts : 0) + (moe.sharedExpertGate ? h : 0);
  return { linears, other: router, expert: (up + 1) * h * fe };
}

/** The distinct block kinds of a model with their multiplicities (sum of counts = all blocks). */
export function blockKinds(arch: ModelArch): BlockKind[] {
  const n = normSize(arch);
  const self = attention(arch, false);
  const mlp = denseMlp(arch);
  const norms = arch.normsPerLayer * n;
  if (arch.hybrid) return hybridKinds(arch, arch.hybrid, self, mlp, norms);
  const moeCount = moeLayerCount(arch);
  const kinds: BlockKind[] = [];
  if (arch.layers - moeCount > 0) {
    kinds.push({
      kind: 'dense',
      count: arch.layers - moeCount,
      linears: [...self.linears, ...mlp.linears],
      other: self.other + mlp.other + norms,
      expertParams: 0,
    });
  }
  if (arch.moe && moeCount > 0) {
    const e = experts(arch, arch.moe);
    kinds.push({
      kind: 'moe',
      count: moeCount,
      linears: [...self.linears, ...e.linears],
      other: self.other + e.other + norms,
      expertParams: e.expert,
    });
  }
  const dec = arch.encoderDecoder?.decoderLayers ?? 0;
  if (dec > 0) {
    const cross = attention(arch, true);
    kinds.push({
      kind: 'decoder',
      count: dec,
      linears: [...self.linears, ...cross.linears, ...mlp.linears],
      other: self.other + cross.other + mlp.other + norms + n,
      expertParams: 0,
    });
  }
  return kinds;
}

type Part = { linears: LinearTensor[]; other: number };

/**
 * Hybrid blocks: each composition (attention / mixer / both, dense / MoE / no FFN) is one kind.
 * Zamba2: an attention layer holds its own linear and adapters; the shared blocks it uses are one
 * more kind, counted once each (input norm of 2·h, pre-FFN norm of h). RWKV-7: the FFN is its
 * channel mixing, and layer 0 (pre_norm, no v_lora) is a kind of its own.
 */
function hybridKinds(arch: ModelArch, m: NonNullable<ModelArch['hybrid']>, self: Part, mlp: Part, norms: number): BlockKind[] {
  const mixer = mixerTensors(arch, m);
  const e = arch.moe ? experts(arch, arch.moe) : null;
  const ffn = m.mixer === 'rwkv7' ? rwkvChannelMix(arch.hidden, arch.ffn) : mlp;
  const sh = m.shared;
  const kinds: BlockKind[] = m.blocks
    .filter((b) => b.count > 0)
    .map((b) => {
      const parts: Part[] = [];
      if (b.attn) parts.push(sh ? { linears: sharedUseTensors(arch, sh), other: 0 } : self);
      if (b.ssm) parts.push(mixer);
      const moe = b.ffn === 'moe' && e !== null;
      if (moe) parts.push(e);
      else if (b.ffn !== 'none' && !sh) parts.push(ffn);
      return {
        kind: moe ? 'moe' : 'dense',
        count: b.count,
        linears: parts.flatMap((p) => p.linears),
        other: parts.reduce((s, p) => s + p.other, norms),
        expertParams: moe ? e.expert : 0,
      };
    });
  if (sh) {
    const attn = attention(arch, false, 2 * arch.hidden);
    kinds.push({ kind: 'dense', count: sh.blocks, linears: [...attn.linears, ...mlp.linears], other: attn.other + mlp.other + 3 * arch.hidden, expertParams: 0 });
  }
  const first = kinds[0];
  if (m.mixer === 'rwkv7' && first) {
    const t0 = rwkvTimeMix(arch.hidden, m, false);
    const layer0: BlockKind = { ...first, count: 1, linears: [...t0.linears, ...ffn.linears], other: t0.other + ffn.other + norms + normSize(arch) };
    return first.count > 1 ? [layer0, { ...first, count: first.count - 1 }, ...kinds.slice(1)] : [layer0, ...kinds.slice(1)];
  }
  return kinds;
}

/** Elements of all Linear weights of one block kind. */
export function linearElements(kind: BlockKind): number {
  return kind.linears.reduce((s, t) => s + t.din * t.dout * t.copies, 0);
}

/** Parameters outside the blocks: embeddings, LM head, final norm(s), pooler, relative-position bias, vision tower. */
export function outerParams(arch: ModelArch): { embedding: number; lmHead: number; other: number } {
  const h = arch.hidden;
  const embedding = h * (arch.vocab + (arch.positionEmbeddings ?? 0) + (arch.typeVocab ?? 0));
  const stacks = arch.encoderDecoder ? 2 : 1;
  // BERT's embedding LayerNorm takes the place of a final norm: same count.
  let other = stacks * normSize(arch);
  if (arch.relPosBuckets) other += stacks * arch.relPosBuckets * arch.heads;
  if (arch.pooler) other += h * h + h;
  other += arch.visionParams ?? 0;
  return { embedding, lmHead: arch.tiedEmbeddings ? 0 : arch.vocab * h, other };
}
