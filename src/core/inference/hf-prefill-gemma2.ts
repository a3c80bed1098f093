/**
 * HF transformers' prompt pass for Gemma-2 (16-bit, SDPA, one GPU) as allocator events, beside the
 * Llama-style one (hf-prefill.ts, whose attention, MLP and rotary steps it shares). Read from
 * transformers 5.x models/gemma2/modeling_gemma2.py:
 * - `Gemma2TextScaledWordEmbedding.forward`: `super().forward(ids) * self.embed_scale.to(dtype)`,
 *   the lookup a temporary, the scaled product `inputs_embeds` (held to the end of the forward).
 * - `Gemma2Model.forward`: then both masks (masking_utils.py): `create_causal_mask` gives None for
 *   an unpadded prompt (`_ignore_causal_mask_sdpa`: SDPA runs `is_causal`, flash with `enable_gqa`);
 *   `create_sliding_window_causal_mask` builds the b·s·s bool mask once the prompt reaches the
 *   window, shared by the sliding layers — `Gemma2Config.layer_types` makes layer i sliding when
 *   (i + 1) % 2, so 0, 2, 4, …; then `rotary_emb` as Llama's.
 * - `Gemma2RMSNorm.forward`: `self._norm(x.float())` (the fp32 copy; `pow(2)` freed by `.mean`;
 *   `x * rsqrt(...)`; the copy freed when `_norm` returns), `output * (1.0 + weight.float())` a
 *   second fp32 tensor (the first freed on reassignment), `.type_as(x)` the 16-bit result.
 * - `Gemma2DecoderLayer.forward`: four norms: input_layernorm; attention; post_attention_layernorm
 *   (o_proj's output freed on reassignment); `residual + ·`; pre_feedforward_layernorm; MLP;
 *   post_feedforward_layernorm (the MLP output freed); `residual + ·`.
 * - `Gemma2Attention.forward`: as Llama's (q / k / v, `apply_rotary_pos_emb`, the cache's
 *   `update`); it passes `softcap=attn_logit_softcapping` to the attention interface, which
 *   integrations/sdpa_attention.py `sdpa_attention_forward` takes in `**kwargs` and never reads:
 *   under SDPA the scores are not soft-capped and nothing is allocated for it.
 * - `Gemma2MLP.forward`: `down_proj(act_fn(gate_proj(x)) * up_proj(x))`, act `gelu_pytorch_tanh`
 *   (activations.py `GELUTanh`: one `gelu(approximate="tanh")` output).
 * - `Gemma2ForCausalLM.forward`: the LM head on the kept position, then
 *   `logits = logits / cap; logits = torch.tanh(logits); logits = logits * cap`, each a new b·V
 *   tensor, the previous freed on reassignment.
 */
import { attention, gatedMlp, layerEnd, maskAndRotary, modelReturns, rmsNormCore, sampleLogits } from './hf-prefill';
import { FP32, type PrefillOp, type PrefillShape } from './hf-prefill-shape';

/** `Gemma2RMSNorm.forward` over `elems` elements of 16-bit `x`: its fp32 temporaries, then `out` (16-bit). */
function gemmaNorm(elems: number, e: number, out: string, p: string): PrefillOp[] {
  return [...rmsNormCore(elems, p), { op: 'alloc', id: `${p}w32`, bytes: elems * FP32 }, { op: 'free', id: `${p}y32` }, { op: 'alloc', id: out, bytes: elems * e }, { op: 'free', id: `${p}w32` }];
}

/** Before the first layer: the scaled embedding ('embeds', kept; the lookup freed), the sliding mask and the rotary cos / sin. */
export function gemma2Prologue(x: PrefillShape): PrefillOp[] {
  const H = x.b * x.s * x.hidden * x.e;
  return [{ op: 'alloc', id: 'lookup', bytes: H }, { op: 'alloc', id: 'embeds', bytes: H }, { op: 'free', id: 'lookup' }, ...maskAndRotary(x)];
}

/** Decoder layer i: the same ids in and out as hf-prefill.ts `prefillLayer`. */
export function gemma2Layer(x: PrefillShape, i: number): PrefillOp[] {
  const elems = x.b * x.s * x.hidden;
  const H = elems * x.e;
  return [
    ...gemmaNorm(elems, x.e, 'n1', 'norm1-'),
    ...attention(x, i),
    ...gemmaNorm(elems, x.e, 'p1', 'norm2-'),
    { op: 'free', id: 'a' },
    { op: 'alloc', id: 'r1', bytes: H },
    { op: 'free', id: 'p1' },
    ...gemmaNorm(elems, x.e, 'n2', 'norm3-'),
    ...gatedMlp(x),
    ...gemmaNorm(elems, x.e, 'p2', 'norm4-'),
    { op: 'free', id: 'm' },
    { op: 'alloc', id: 'r2', bytes: H },
    { op: 'free', id: 'p2' },
    ...layerEnd(x, i),
  ];
}

/** After the last layer: the final norm, the model's return, the last position's logits soft-capped (three b·V tensors in turn), `_sample`'s fp32 copy. */
export function gemma2Epilogue(x: PrefillShape): PrefillOp[] {
  const logits = x.b * x.vocab * x.e;
  return [
    ...gemmaNorm(x.b * x.s * x.hidden, x.e, 'final', 'norm-'),
    ...modelReturns(x),
    { op: 'alloc', id: 'logits', bytes: logits },
    { op: 'alloc', id: 'cap-div', bytes: logits },
    { op: 'free', id: 'logits' },
    { op: 'alloc', id: 'cap-tanh', bytes: logits },
    { op: 'free', id: 'cap-div' },
    { op: 'alloc', id: 'cap-mul', bytes: logits },
    { op: 'free', id: 'cap-tanh' },
    { op: 'rename', id: 'cap-mul', to: 'logits' },
    ...sampleLogits(x),
  ];
}
