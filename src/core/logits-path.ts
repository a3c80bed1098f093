/**
 * Which code computes the LM-head logits (scenario key `logits-path`), and what it allocates at
 * inference. The training side (loss and its backward) is in training/loss.ts.
 *
 * - 'current': transformers ≥ 4.46. `LlamaForCausalLM.forward` (models/llama/modeling_llama.py)
 *   computes `logits = self.lm_head(hidden_states[:, slice_indices, :])` in the model dtype and
 *   `generate` passes `logits_to_keep` (`num_logits_to_keep` from 4.45) = 1 in prefill, so only the
 *   last position exists: b·V·e, then `_sample` copies it to fp32
 *   (`outputs.logits[:, -1, :].to(copy=True, dtype=torch.float32)`): b·V·(e + 4).
 * - 'upcast-in-model': native models before 4.45 (e.g. LlamaForCausalLM 4.36–4.44):
 *   `logits = self.lm_head(hidden_states)` over every prompt position, then `logits = logits.float()`
 *   in forward, at inference too: the 16-bit output and its fp32 copy coexist, b·s·V·(e + 4).
 * - 'remote-code': `trust_remote_code` files written against transformers 4.3x, e.g. Qwen-1's
 *   modeling_qwen.py `QWenLMHeadModel.forward`: `lm_logits = self.lm_head(hidden_states)` over the
 *   whole prompt in the model dtype, no upcast and no `num_logits_to_keep`: b·s·V·e. (`generate` then
 *   reads `outputs.logits[:, -1, :]`, b·V-sized tensors: left out.)
 * - 'torchtune': training only (TransformerDecoder.unembed `self.output(h).float()`); at inference
 *   the estimate is of HF `generate`, so it counts as 'current'.
 * - 'auto': the file's own path when the config names its own modeling code (`auto_map` with
 *   AutoModelForCausalLM: transformers' auto_factory loads that class under trust_remote_code) —
 *   'remote-code', or InternLM2's 'upcast-in-model' (`ownFileLogitsPath`) — else 'current'.
 */
import type { LogitsPath, ModelArch } from './types';
import { add, sym, type Expr } from './formula';

export type ResolvedLogitsPath = Exclude<LogitsPath, 'auto'>;

export function resolveLogitsPath(path: LogitsPath, arch: ModelArch): ResolvedLogitsPath {
  if (path !== 'auto') return path;
  return arch.remoteCode ? ownFileLogitsPath(arch) : 'current';
}

/**
 * The path a model's own file takes: InternLM2's `InternLM2ForCausalLM.forward` (modeling_internlm2.py)
 * runs `logits = logits.float()` after its head, as transformers 4.36–4.45's Llama does
 * ('upcast-in-model'); the other 2023–24 files keep the model dtype (Qwen-1's 'remote-code').
 */
export function ownFileLogitsPath(arch: Pick<ModelArch, 'family'>): 'remote-code' | 'upcast-in-model' {
  return arch.family === 'internlm2' ? 'upcast-in-model' : 'remote-code';
}

export interface InferenceLogits {
  /** positions whose logits prefill computes */
  rows: number;
  /** bytes per logit live together (16-bit output + fp32 copy, or the model dtype alone) */
  perLogit: number;
  /** the same two as expressions: rows (s or 1) and bytes per logit (e + 4, or e) */
  rowsExpr: Expr;
  perLogitExpr: Expr;
  /** which positions and copies, in words */
  what: string;
  source: string;
}

/** Prefill logits of a `prompt`-token forward with activation element size e (decode: prompt = 1). */
export function inferenceLogits(path: ResolvedLogitsPath, prompt: number, e: number): InferenceLogits {
  const E = sym('e', e);
  if (path === 'upcast-in-model') {
    // logits.float() returns the same tensor when the logits are already fp32: no copy
    const upcast = e < 4 ? 4 : 0;
    return {
      rows: prompt,
      perLogit: e + upcast,
      rowsExpr: sym('s', prompt),
      perLogitExpr: upcast ? add(E, upcast) : E,
      what: 'whole prompt, logits.float() in forward',
      source: 'transformers < 4.45 modeling_llama.py LlamaForCausalLM.forward (logits = logits.float(); no num_logits_to_keep)',
    };
  }
  if (path === 'remote-code') {
    return {
      rows: prompt,
      perLogit: e,
      rowsExpr: sym('s', prompt),
      perLogitExpr: E,
      what: 'whole prompt, model dtype',
      source: 'Qwen-1 modeling_qwen.py QWenLMHeadModel.forward (lm_head over every position; no logits_to_keep)',
    };
  }
  // to(copy=True, dtype=float32) copies even an fp32 row
  return {
    rows: 1,
    perLogit: e + 4,
    rowsExpr: 1,
    perLogitExpr: add(E, 4),
    what: 'last position only, fp32 copy in _sample',
    source: 'transformers ≥ 4.45 generation/utils.py (logits_to_keep = 1 in prefill; _sample copies the last row to fp32)',
  };
}
