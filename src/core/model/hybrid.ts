/**
 * The recurrent mixer of a hybrid model: its weights (for parameter counts and storage) and the
 * state one sequence keeps (for the inference memory terms).
 *
 * Weights, per mixer layer (huggingface/transformers):
 * - Mamba-1, `models/jamba/modeling_jamba.py` JambaMambaMixer: in_proj h→2·d_i, conv1d d_i·k
 *   (+ d_i bias), x_proj d_i→(r + 2N), dt_proj r→d_i (+ d_i bias), A_log d_i·N, D d_i,
 *   out_proj d_i→h, dt/b/c_layernorm r + 2N.
 * - Mamba-2, `models/bamba/modeling_bamba.py` BambaMixer (granitemoehybrid, nemotron_h and
 *   falcon_h1 copy it): conv_dim = d_i + 2·G·N; in_proj h→(d_i + conv_dim + H), conv1d
 *   conv_dim·k (+ conv_dim bias), dt_bias, A_log, D (H each), gated RMSNorm d_i, out_proj d_i→h.
 * - Gated DeltaNet, `models/qwen3_next/modeling_qwen3_next.py` Qwen3NextGatedDeltaNet:
 *   key_dim = H_k·d_k, conv_dim = 2·key_dim + d_i; in_proj_qkvz h→(2·key_dim + 2·d_i),
 *   in_proj_ba h→2·H_v, conv1d conv_dim·k (no bias), dt_bias, A_log (H_v each), gated
 *   RMSNorm d_v, out_proj d_i→h.
 *
 * - RWKV-7 time mixing, flash-linear-attention `fla/layers/rwkv7.py` RWKV7Attention: r/k_proj
 *   h→h, v_proj h→v, o_proj v→h; low-rank (fla/layers/rwkv6.py LoRA: Linear h→r, Linear r→out)
 *   w_lora (bias), a_lora (bias), g_lora (no bias) and, except in layer 0, v_lora (bias); x_r, x_w,
 *   x_k, x_v, x_a, x_g, k_k, k_a (h each), r_k (heads·head_dim), g_norm GroupNorm weight + bias
 *   (2·v). Channel mixing, `fla/models/rwkv7/modeling_rwkv7.py` RWKV7FeedForward: x_k (h), key
 *   h→f, value f→h, no bias; RWKV7Block adds a pre_norm LayerNorm to layer 0 only.
 * - Zamba2 per use of a shared block, transformers `models/zamba2/modeling_zamba2.py`: the
 *   hybrid layer's `linear` h→h, the MLP's gate_up adapter (Linear h→r, Linear r→2f, built for
 *   every use whatever use_shared_mlp_adapter says) and, with use_shared_attention_adapter, q/k/v
 *   adapters (Linear 2h→r, Linear r→2h each).
 *
 * State per sequence per mixer layer: conv state conv_dim·k elements in transformers
 * (`HybridMambaAttentionDynamicCache` in modeling_jamba.py / modeling_bamba.py pads the conv input
 * to the full kernel; Qwen3NextDynamicCache likewise) and conv_dim·(k − 1) in vLLM
 * (`model_executor/layers/mamba/mamba_utils.py` MambaStateShapeCalculator); SSM state d_i·N
 * (Mamba-1: d_i × N; Mamba-2: H × d_head × N) and H_v·d_k·d_v for Gated DeltaNet. Both live in
 * the model dtype unless the config pins the SSM state to float32 (`mamba_ssm_cache_dtype`).
 * Zamba2 (`Zamba2HybridDynamicCache.__init__`) keeps both in the model dtype for every layer, each
 * hybrid layer also a Mamba-2 layer. RWKV-7 (fla `RWKV7Attention.forward`, `RWKV7FeedForward`):
 * two token-shift states of h (attention and FFN, `fla/modules/token_shift.py`, model dtype) and
 * the wkv state heads × head_dim × value head dim, float32 (`fla/ops/rwkv7`, final_state
 * allocated with dtype=torch.float32).
 */
import type { HybridArch, ModelArch, SharedBlocks } from '../types';
import type { LinearTensor } from './tensors';

/** Channels the depthwise conv1d runs over (and its state holds). */
export function convChannels(m: HybridArch): number {
  if (m.mixer === 'mamba') return m.dInner;
  // the two token-shift states: the attention's (key_dim = heads·head_dim = h) and the FFN's (h)
  if (m.mixer === 'rwkv7') return 2 * m.ssmHeads * m.dState;
  if (m.mixer === 'gdn') return 2 * m.groups * m.dState + m.dInner;
  return m.dInner + 2 * m.groups * m.dState;
}

/** Linear weights and the other parameters of one recurrent mixer layer. */
export function mixerTensors(arch: ModelArch, m: HybridArch): { linears: LinearTensor[]; other: number } {
  const h = arch.hidden;
  const di = m.dInner;
  const conv = convChannels(m);
  const one = (role: LinearTensor['role'], din: number, dout: number): LinearTensor => ({ role, din, dout, copies: 1 });
  const convParams = conv * m.convKernel + (m.convBias ? conv : 0);
  if (m.mixer === 'mamba') {
    const r = m.dtRank;
    const linears = [one('ssm_in', h, 2 * di), one('ssm_x', di, r + 2 * m.dState), one('ssm_dt', r, di), one('ssm_out', di, h)];
    const other = convParams + di /* dt_proj bias */ + di * m.dState /* A_log */ + di /* D */ + r + 2 * m.dState /* inner norms */ + (m.projBias ? 2 * di + h : 0);
    return { linears, other };
  }
  if (m.mixer === 'rwkv7') return rwkvTimeMix(h, m, true);
  if (m.mixer === 'gdn') {
    const dv = di / Math.max(1, m.ssmHeads);
    const linears = [one('ssm_in', h, 2 * m.groups * m.dState + 2 * di), one('ssm_ba', h, 2 * m.ssmHeads), one('ssm_out', di, h)];
    return { linears, other: convParams + 2 * m.ssmHeads + dv };
  }
  const inner = di + conv + m.ssmHeads;
  const linears = [one('ssm_in', h, inner), one('ssm_out', di, h)];
  const other = convParams + 3 * m.ssmHeads + (m.gatedNorm ? di : 0) + (m.projBias ? inner + h : 0);
  return { linears, other };
}

/** RWKV-7 time mixing of one layer; layer 0 (`withV` false) has no v_lora. */
export function rwkvTimeMix(h: number, m: HybridArch, withV: boolean): { linears: LinearTensor[]; other: number } {
  const v = m.dInner;
  const r = m.lowRank ?? { w: 0, a: 0, v: 0, g: 0 };
  const one = (role: LinearTensor['role'], din: number, dout: number): LinearTensor => ({ role, din, dout, copies: 1 });
  const lowRank = (rank: number, out: number) => [one('time_mix_lora', h, rank), one('time_mix_lora', rank, out)];
  const linears = [
    one('time_mix_receptance', h, h),
    one('time_mix_key', h, h),
    one('time_mix_value', h, v),
    one('time_mix_output', v, h),
    ...lowRank(r.w, h),
    ...lowRank(r.a, h),
    ...lowRank(r.g, v),
    ...(withV ? lowRank(r.v, v) : []),
  ];
  // x_r..x_g, k_k, k_a (8·h), r_k (heads·head_dim = h), w and a LoRA biases (2·h), v LoRA bias, g_norm weight + bias
  const other = 11 * h + (withV ? v : 0) + 2 * v;
  return { linears, other };
}

/** RWKV-7 channel mixing (its FFN): x_k, key h→f, value f→h. */
export function rwkvChannelMix(h: number, f: number): { linears: LinearTensor[]; other: number } {
  return {
    linears: [
      { role: 'channel_mix_key', din: h, dout: f, copies: 1 },
      { role: 'channel_mix_value', din: f, dout: h, copies: 1 },
    ],
    other: h,
  };
}

/** Zamba2: what each use of a shared block adds (its own linear and adapters); the shared weights count once. */
export function sharedUseTensors(arch: ModelArch, sh: SharedBlocks): LinearTensor[] {
  const h = arch.hidden;
  const r = sh.adapterRank;
  const one = (role: LinearTensor['role'], din: number, dout: number): LinearTensor => ({ role, din, dout, copies: 1 });
  // q, k and v adapters: Linear 2h→r, Linear r→2h each
  const attn = sh.attnAdapter ? [0, 1, 2].flatMap(() => [one('shared_adapter', 2 * h, r), one('shared_adapter', r, 2 * h)]) : [];
  return [one('shared_out', h, h), one('shared_adapter', h, r), one('shared_adapter', r, 2 * arch.ffn), ...attn];
}

/** Layers whose mixer is attention, i.e. the only layers with a KV cache. */
export function attentionLayers(m: HybridArch): number {
  return m.blocks.reduce((n, b) => n + (b.attn ? b.count : 0), 0);
}

/** Layers with a recurrent mixer. */
export function mixerLayers(m: HybridArch): number {
  return m.blocks.reduce((n, b) => n + (b.ssm ? b.count : 0), 0);
}

/** Layers whose feed-forward is a mixture of experts. */
export function hybridMoeLayers(m: HybridArch): number {
  return m.blocks.reduce((n, b) => n + (b.ffn === 'moe' ? b.count : 0), 0);
}

export interface StateSize {
  /** conv-state elements of one layer for one sequence */
  conv: number;
  /** SSM / delta-rule state elements of one layer for one sequence */
  ssm: number;
  /** bytes of one sequence's state over all mixer layers */
  bytes: number;
}

/**
 * Recurrent state of one sequence. `engine` picks the conv-state layout: transformers keeps the
 * full kernel, vLLM k − 1 columns. `e` = model dtype bytes (conv state, and SSM state unless
 * the config pins fp32). Divided by `tp` (vLLM shards heads and channels; transformers tp too).
 */
export function recurrentState(m: HybridArch, engine: 'transformers' | 'vllm', e: number, tp = 1): StateSize {
  // RWKV-7's token shift keeps one previous token whatever the engine
  const cols = m.mixer === 'rwkv7' ? 1 : engine === 'vllm' ? m.convKernel - 1 : m.convKernel;
  const conv = (convChannels(m) * cols) / tp;
  // Mamba-1 d_i×N; Mamba-2 H×(d_i/H)×N; Gated DeltaNet H_v×d_k×(d_i/H_v); RWKV-7 H×d×(v/H): d_i·N each
  const ssm = (m.dInner * m.dState) / tp;
  const perLayer = conv * e + ssm * (m.stateFp32 ? 4 : e);
  return { conv, ssm, bytes: mixerLayers(m) * perLayer };
}
