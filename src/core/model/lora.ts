/**
 * LoRA trainable parameters: r·(d_in + d_out) per adapted Linear (A is r×d_in, B is d_out×r;
 * bias frozen). Source: PEFT `src/peft/tuners/lora/layer.py` (LoraLayer.update_layer);
 * Hu et al. 2021 (arXiv 2106.09685); docs/reference/formulas.md §6.1 (Llama-2-7b r=16 all-linear = 39,976,960).
 *
 * Target mapping (PEFT matches module-name suffixes):
 * - k/v use d_out = g·d under GQA; T5 cross-attention q/k/v/o are adapted too (same names).
 * - MoE: each routed and shared expert's gate/up/down is a separate Linear, so each counts.
 * - Fused checkpoints (GPT-2 c_attn, Phi-3 qkv_proj / gate_up_proj, Falcon query_key_value)
 *   have one Linear: adapting any of its parts adapts it once, r·(d_in + fused d_out).
 * - MLA (DeepSeek): q → q_proj or q_a_proj + q_b_proj, k → kv_a_proj_with_mqa, v → kv_b_proj
 *   (our convention: those modules carry the keys and values).
 * - Plain (non-gated) MLPs: up → fc1, down → fc2; gate matches nothing.
 */
import type { LoraTarget, ModelArch } from '../types';
import { blockKinds, type TensorRole } from './tensors';

const TARGETS: Record<TensorRole, readonly LoraTarget[]> = {
  attn_q: ['q'],
  attn_q_a: ['q'],
  attn_q_b: ['q'],
  attn_k: ['k'],
  attn_kv_a_mqa: ['k'],
  attn_v: ['v'],
  attn_kv_b: ['v'],
  attn_qkv: ['q', 'k', 'v'],
  attn_output: ['o'],
  ffn_gate: ['gate'],
  ffn_gate_exps: ['gate'],
  ffn_gate_shexp: ['gate'],
  ffn_up: ['up'],
  ffn_up_exps: ['up'],
  ffn_up_shexp: ['up'],
  ffn_gate_up: ['gate', 'up'],
  ffn_down: ['down'],
  ffn_down_exps: ['down'],
  ffn_down_shexp: ['down'],
  // recurrent mixers' in_proj / out_proj: no q/k/v/o/gate/up/down name matches them
  ssm_in: [],
  ssm_x: [],
  ssm_dt: [],
  ssm_ba: [],
  ssm_out: [],
  // RWKV-7 (fla RWKV7Attention): k_proj / v_proj / o_proj match; r_proj, the low-rank w/a/v/g
  // projections and the FFN's key / value do not
  time_mix_receptance: [],
  time_mix_key: ['k'],
  time_mix_value: ['v'],
  time_mix_output: ['o'],
  time_mix_lora: [],
  channel_mix_key: [],
  channel_mix_value: [],
  // Zamba2's per-use linear and built-in adapters (linear, *_adapter_list)
  shared_adapter: [],
  shared_out: [],
};

/** Trainable LoRA parameters for rank r on the given target modules; 0 for a rank that is not a positive integer. */
export function loraTrainableParams(arch: ModelArch, rank: number, targets: readonly LoraTarget[]): number {
  if (!Number.isSafeInteger(rank) || rank <= 0) return 0;
  const wanted = new Set(targets);
  let total = 0;
  for (const kind of blockKinds(arch)) {
    for (const t of kind.linears) {
      if (TARGETS[t.role].some((x) => wanted.has(x))) {
        total += kind.count * t.copies * rank * (t.din + t.dout);
      }
    }
  }
  return total;
}
