/**
 * Eager attention's score-sized tensors after `matmul(q, kᵀ)`, in order — transformers 5.x
 * `eager_attention_forward` (models/llama/modeling_llama.py; Gemma-2's in modeling_gemma2.py adds
 * the softcap), one event list for the full fine-tune layer plan (training/full-forward.ts), the
 * LoRA one (training/lora-forward.ts) and generate's prompt pass (inference/hf-prefill.ts, where
 * nothing is saved for a backward: a "saved" tensor lives until the caller frees it):
 * - `* scaling`: a new tensor, the scores freed on reassignment;
 * - Gemma-2 `attn_logit_softcapping`: `/ softcap`, `tanh` (saves its output), `* softcap`;
 * - `+ causal_mask`: in the mask's dtype (the embedding's, e_res: fp32 under AMP);
 * - `softmax(dtype=float32)`: aten SoftMax.cpp `softmax` converts a 16-bit input to fp32 first
 *   (only Half on CUDA takes the half_to_float kernel), and the fp32 output is saved; the sum goes
 *   when the `.to` below has assigned its name;
 * - the weights: `.to(query.dtype)` a 16-bit copy, saved by the PV matmul; under AMP the query is
 *   fp32, so no copy, and autocast's 16-bit cast for the matmul is what it saves; fp32: neither;
 * - `matmul(w, v)`'s bmm output, then `transpose(1, 2).contiguous()` (o_proj's input), the bmm
 *   output freed on reassignment. The weights are returned and held by the caller's locals.
 */

/** How a plan makes and frees tensors: `save` keeps one for backward (a plan may return null: kept, no handle to free). */
export interface ScoreOps<H extends number | null> {
  temp: (bytes: number) => number;
  save: (bytes: number) => H;
  free: (i: number | H | null) => void;
}

export interface EagerScores {
  /** elements of one score tensor, b·(a/t)·s² */
  elems: number;
  /** bytes per element: the matmuls' dtype, the mask's (and the `+ mask` sum's) */
  e: number;
  maskBytes: number;
  softcap: boolean;
  /** softmax converts a 16-bit sum to fp32 first (bf16; fp16 takes half_to_float) */
  upcast: boolean;
  /** the PV matmul's weights: `.to` copy, autocast's cast, or the fp32 softmax output itself */
  weights: 'copy' | 'cast' | 'none';
  /** bytes of the attention output; saved (o_proj's trained weight reads it) or not */
  output: number;
  outputSaved: boolean;
}

/** The events from `* scaling` on, given the scores' handle; returns the output and the weights the caller holds. */
export function eagerScoreEvents<H extends number | null>(ops: ScoreOps<H>, x: EagerScores, scores: number): { out: number | H; held: number | H | null } {
  const S = x.elems;
  let cur = ops.temp(S * x.e);
  ops.free(scores);
  if (x.softcap) {
    const div = ops.temp(S * x.e);
    ops.free(cur);
    const tanh = ops.save(S * x.e);
    ops.free(div);
    cur = ops.temp(S * x.e);
    ops.free(tanh);
  }
  const summed = ops.temp(S * x.maskBytes);
  ops.free(cur);
  const up = x.upcast && x.maskBytes < 4 ? ops.temp(S * 4) : null;
  const sm = ops.save(S * 4);
  ops.free(up);
  const low = x.weights === 'copy' ? ops.save(S * x.e) : null;
  // the fp32 output goes on reassignment where a copy replaces it (a no-op where it is saved)
  if (x.weights === 'copy') ops.free(sm);
  ops.free(summed);
  const cast = x.weights === 'cast' ? ops.save(S * x.e) : null;
  const pv = ops.temp(x.output);
  ops.free(cast);
  const out = x.outputSaved ? ops.save(x.output) : ops.temp(x.output);
  ops.free(pv);
  return { out, held: x.weights === 'copy' ? low : sm };
}
