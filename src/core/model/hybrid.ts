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
 * State per sequence per mixer layer: conv state conv_dim·k elements in transformers
 * (`HybridMambaAttentionDynamicCache` in modeling_jamba.py / modeling_bamba.py pads the conv input
 * to the full kernel; Qwen3NextDynamicCache likewise) and conv_dim·(k − 1) in vLLM
 * (`model_executor/layers/mamba/mamba_utils.py` MambaStateShapeCalculator); SSM state d_i·N
 * (Mamba-1: d_i × N; Mamba-2: H × d_head × N) and H_v·d_k·d_v for Gated DeltaNet. Both live in
 * the model dtype unless the config pins the SSM state to float32 (`mamba_ssm_cache_dtype`).
 */
import type { HybridArch, ModelArch } from '../types';
import type { LinearTensor } from './tensors';

/** Channels the depthwise conv1d runs over (and its state holds). */
export function convChannels(m: HybridArch): number {
  if (m.mixer === 'mamba') return m.dInner;
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
  const cols = engine === 'vllm' ? m.convKernel - 1 : m.convKernel;
  const conv = (convChannels(m) * cols) / tp;
  // Mamba-1 d_i×N; Mamba-2 H×(d_i/H)×N; Gated DeltaNet H_v×d_k×(d_i/H_v): d_i·N each
  const ssm = (m.dInner * m.dState) / tp;
  const perLayer = conv * e + ssm * (m.stateFp32 ? 4 : e);
  return { conv, ssm, bytes: mixerLayers(m) * perLayer };
}
