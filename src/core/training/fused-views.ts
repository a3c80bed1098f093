/**
 * What a fused q/k/v projection's output keeps alive when attention saves a view of it.
 *
 * Autograd saves a tensor as it is (a SavedVariable holds the tensor, and with it its storage), and
 * a slice shares its base's storage: a saved slice keeps the whole base allocated. transformers
 * splits a fused projection's output into q, k and v by slicing:
 * - Phi-3 / Phi-4 (models/phi3/modeling_phi3.py `Phi3Attention.forward`, transformers main read at
 *   00d4b3d2 and 43c2b481): `qkv = self.qkv_proj(hidden_states)`, `value_states =
 *   qkv[..., query_pos + kv:]`, then `.view(hidden_shape).transpose(1, 2)` — all views;
 * - GPT-NeoX (models/gpt_neox/modeling_gpt_neox.py `GPTNeoXAttention.forward`, read at 00d4b3d2):
 *   `qkv = self.query_key_value(...).view(...).transpose(1, 2)`, `qkv.chunk(3, dim=-1)`.
 * In both, `apply_rotary_pos_emb` replaces q and k with new tensors (`(q * cos) + (rotate_half(q) *
 * sin)`, and `torch.cat` with the pass-through part under partial rotary: Phi-4-mini, Pythia); its
 * muls by the constant cos / sin save neither q nor k, `rotate_half` and `cat` save nothing. v goes
 * to attention as the view. Where the op that saves v gets that view, the whole (a + 2g)·d-wide
 * output stays until backward: (a + g)·d more per token than the g·d of v alone. Where it gets a
 * copy, nothing else holds the output and it is freed when the attention forward returns:
 * - SDPA (integrations/sdpa_attention.py `sdpa_attention_forward`, no `.contiguous()` on q / k / v):
 *   the efficient / flash kernel's autograd node saves `value` as passed, unless `repeat_kv` copied
 *   it to all a heads (g < a with a mask or head_dim > 256: core/sdpa.ts); with g = a `repeat_kv`
 *   returns the view itself;
 * - flash_attention_2: flash-attn's `FlashAttnFunc` saves v as passed (`maybe_contiguous` copies
 *   only a tensor whose last stride is not 1; a slice's is 1). Padded batches go through `_upad_input`,
 *   whose `index_first_axis` copies: not told apart here;
 * - eager (`eager_attention_forward`): `torch.matmul(attn_weights, value_states)` reshapes v to
 *   (b·g, s, d) for `bmm` (aten LinearAlgebra.cpp `_matmul_impl`), a view only when b = 1 (a size-1
 *   dimension merges with any stride), a copy otherwise; with g < a `repeat_kv` has copied it.
 * The same holds under PEFT LoRA: `lora.Linear.forward` returns `result + lora_B(lora_A(x))·scale`,
 * a new (a + 2g)·d tensor of which q, k, v are views, the base output freed; and under torch.compile
 * the min-cut partitioner (torch/_functorch/partitioners.py) cannot recompute the qkv matmul
 * (`is_compute_intensive`) nor the RoPE outputs the attention backward reads
 * (`is_materialized_backwards`), so it saves those and either the v slice (a view of the matmul's
 * buffer in Inductor's output) or the matmul output itself: (a + 2g)·d either way.
 * Gated MLPs with a fused gate_up projection (Phi-3's `gate, up_states = up_states.chunk(2, dim=-1)`)
 * save both halves anyway (SiLU saves gate, the mul saves up): 2f, as separate gate and up.
 * Families whose q, k and v are all saved as views, or all as copies, keep exactly the separate
 * tensors' bytes: GPT-2 (`c_attn(...).split`, no RoPE) and Bloom (`_split_heads` → `torch.split`,
 * ALiBi; its `reshape`s for `baddbmm` / `bmm` copy all three when b > 1). Falcon's multi-query and
 * new-decoder layouts take k and v by list indexing (`fused_qkv[..., [-2], :]`, a copy), so the
 * fused output is freed; its multi-head layout (`fused_qkv[..., 2, :]`, views) is the ALiBi
 * falcon-rw models', where nothing is rotated. Qwen-1's own file (modeling_qwen.py
 * `QWenAttention.forward`: `query, key, value = mixed_x_layer.split(self.split_size, dim=2)`, then
 * `_split_heads` views; `apply_rotary_pos_emb` returns new q and k) passes v as the slice to its
 * flash-attn call (`rearrange` to (b·s, a, d), a view: b and s merge), to SDPA after a transpose,
 * or to `_attn`'s matmul: the Phi-3 case. InternLM2's own file (modeling_internlm2.py
 * `InternLM2Attention.forward`: `rearrange(qkv_states, "b q (h gs d) -> b q h gs d")`, v =
 * `qkv_states[..., -1, :]`, a view, k rotated into a new tensor) hands flash-attn the view and its
 * eager path the `repeat_kv` copy: the Phi-3 case as well. ChatGLM2 / ChatGLM3 copy v out to every head
 * (`expand(...).contiguous()`, sdpa.ts glmExpandsKv), so their fused output is freed. Not modelled
 * here: GPT-BigCode's multi-query eager path (q reshaped to a copy while k and v stay views).
 */
import type { Attn, ModelArch } from '../types';
import { sdpaRepeatsKv } from '../sdpa';

/** Families whose RoPE'd q and k are new tensors while v stays a slice of the fused qkv output. */
const V_VIEW_FAMILIES = new Set(['phi3', 'gpt_neox', 'qwen', 'internlm2']);

/** Share of the layers (0–1) whose attention saves v as a view of the fused qkv output. */
export function fusedQkvViewShare(arch: ModelArch, attn: Attn, b: number, maskedShare: number): number {
  if (!V_VIEW_FAMILIES.has(arch.family) || arch.mla) return 0;
  if (attn === 'eager') return arch.kvHeads === arch.heads && b === 1 ? 1 : 0;
  if (attn === 'flash' || !sdpaRepeatsKv(arch, true)) return 1;
  // SDPA with g < a: repeated (copied) in every layer past head_dim 256, else in the masked layers
  return sdpaRepeatsKv(arch, false) ? 0 : 1 - maskedShare;
}

/**
 * Elements per token (before tensor parallelism) that the fused qkv output keeps beyond the v that
 * savedKvWidth counts: (a + 2g)·d − g·d = (a + g)·d in the layers whose v is saved as a view.
 */
export function fusedQkvViewWidth(arch: ModelArch, attn: Attn, b: number, maskedShare: number): number {
  return fusedQkvViewShare(arch, attn, b, maskedShare) * (arch.heads + arch.kvHeads) * arch.headDim;
}
