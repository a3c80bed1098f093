/**
 * LM-head logits and cross-entropy loss bytes, per code path (scenario key `logits-path`,
 * src/core/logits-path.ts) or chunked (`loss-chunks`).
 *
 * Four moments, n = s·b·V logits, n' = (s − 1)·b·V after a shift (e: logits dtype; u = 4 when
 * e < 4, the fp32 upcast, else 0 — `.float()` of an fp32 tensor returns it without a copy):
 * - `peak`: forward, while the log-softmax runs;
 * - `held`: saved into backward. The caller is taken to keep the model output (`outputs.logits`)
 *   until backward, as `out = model(...); out.loss.backward()` does; the log-softmax output is saved
 *   by `LogSoftmaxBackward` (torch derivatives.yaml `_log_softmax`: `result`);
 * - `backward`: inside the loss backward. `NllLossBackward` writes a dense gradient as large as its
 *   input (aten nll_loss_backward: zeros + scatter), then `_log_softmax_backward_data` writes another
 *   while both it and the saved output are live: held + 2 gradient-sized buffers;
 * - `headBackward`: live while the LM-head Linear's backward runs (where its weight gradient
 *   appears): the held model output + the gradient of the logits in their dtype (ToCopyBackward
 *   casts the fp32 gradient back; the fp32 one is freed when it returns).
 *
 * Paths:
 * - current (transformers ≥ 4.46, loss/loss_utils.py `ForCausalLMLoss`): `logits.float()`, the
 *   labels are padded and shifted (`nn.functional.pad(labels, (0, 1))`), so no logits copy;
 *   `fixed_cross_entropy` → `F.cross_entropy`. peak n·(e + u + 4); held n·(e + 4);
 *   backward n·(e + 12); head n·2e.
 * - upcast-in-model (transformers 4.36–4.45 modeling_llama.py `LlamaForCausalLM.forward`):
 *   `logits = logits.float()` in forward (the 16-bit output is dropped), then
 *   `shift_logits = logits[..., :-1, :].contiguous()` (a second fp32 copy) into CrossEntropyLoss.
 *   peak 4n + 8n'; held 4n + 4n'; backward max(4n + 12n', 8n + 4n' (SliceBackward scatters into
 *   zeros of the full shape), n·(8 + e) (ToCopyBackward)); head n·(4 + e).
 * - remote-code (Qwen-1 modeling_qwen.py `QWenLMHeadModel.forward`; Bloom-derived files alike):
 *   `lm_logits = self.lm_head(hidden_states)` in the model dtype, `shift_logits =
 *   lm_logits[..., :-1, :].contiguous()`, CrossEntropyLoss with no upcast. The loss runs in c = e,
 *   except under AMP where autocast runs `log_softmax` in fp32 (aten/src/ATen/autocast_mode.cpp
 *   fp32_set_opt_dtype; `log_softmax(x, dtype)` converts its input first): c = 4 and a c-sized
 *   cast of the shift copy. peak e·n + n'·(e + cast + c); held e·n + c·n';
 *   backward max(e·n + 3c·n', 2e·n + e·n'); head 2e·n.
 * - torchtune (modules/transformer.py `TransformerDecoder` unembed `self.output(h).float()`; the
 *   recipe's `_loss_step` shifts the labels with `torch.hstack` and runs `del logits` after the
 *   loss): peak max(n·(e + u), 8n); held 4n; backward 12n; head n·e.
 *
 * Chunked (torchtune `CEWithChunkedOutputLoss`, torchtune/modules/loss/ce_chunked_output_loss.py,
 * default `num_output_chunks = 8`): the decoder's `chunked_output` splits the last hidden state
 * along the sequence and returns k logit chunks, so all 16-bit logits (s·b·V·e) still exist; the
 * loss then upcasts and cross-entropies one chunk at a time:
 * - eager: each chunk's fp32 upcast (s·b·V·4/k) lives only while its log-softmax runs, but every
 *   chunk's fp32 log-softmax output is saved for backward (s·b·V·4 in all). The recipe drops its
 *   reference to the logits after the loss (`del logits`, recipes/full_finetune_single_device.py),
 *   and no backward formula needs them, so only the log-softmax outputs are held into backward;
 *   the backward of the last chunk adds its two fp32 gradients (8n/k);
 * - compiled (torchtune `compile_loss` compiles `compute_cross_entropy`, "the CE and upcasting
 *   have to be compiled together"): Inductor fuses upcast, log-softmax and NLL, so no fp32
 *   buffer is built; the compiled graph saves its input, the 16-bit chunk, to recompute the
 *   softmax in its backward (plus an fp32 log-sum-exp per row, s·b·4: negligible). Held: s·b·V·e;
 *   its backward writes one chunk's 16-bit gradient (e·n/k).
 * torch.chunk along the sequence gives at most s chunks, so k = min(chunks, s).
 * An unchunked loss keeps its eager buffers even with compile=inductor: torchtune's 2024 recipes
 * discard the module that `compile_loss` returns for a non-chunked loss and call the eager one.
 */
import type { ResolvedLogitsPath } from '../logits-path';
import { logitsBytes } from './activations';

export interface LossBytes {
  /** at the loss forward */
  peak: number;
  /** saved for the loss backward, live at the start of backward */
  held: number;
  /** inside the loss backward (log-softmax backward), held bytes included */
  backward: number;
  /** live while the LM-head backward runs (its weight gradient comes on top) */
  headBackward: number;
  formula: string;
  source: string;
}

/**
 * Logits + cross-entropy for s·b tokens over a vocabulary slice `vocab`, logits element size e.
 * `amp`: autocast is on (remote-code's 16-bit loss then runs its log-softmax in fp32).
 */
export function lossBytes(s: number, b: number, vocab: number, e: number, chunks: number, compiled: boolean, path: ResolvedLogitsPath = 'current', amp = false): LossBytes {
  const k = Math.max(1, Math.min(Math.floor(chunks), s));
  const sbv = s * b * vocab;
  if (k === 1) return unchunked(path, sbv, Math.max(0, s - 1) * b * vocab, e, amp);
  const source = 'torchtune CEWithChunkedOutputLoss (torchtune/modules/loss/ce_chunked_output_loss.py), training/_compile.py compile_loss';
  if (compiled) {
    return {
      peak: sbv * e, held: sbv * e, backward: sbv * e + (sbv * e) / k, headBackward: sbv * e,
      formula: 's·b·V·e (16-bit chunks; fused upcast + CE per chunk, the chunk saved for its backward); + s·b·V·e/k in backward', source,
    };
  }
  const upcast = e < 4 ? (sbv * 4) / k : 0;
  return {
    peak: sbv * (e + 4) + upcast,
    held: sbv * 4,
    backward: sbv * 4 + (2 * sbv * 4) / k,
    headBackward: sbv * 4 - (sbv * 4) / k + (sbv * e) / k,
    formula: 's·b·V·(e + 4) + s·b·V·4/k peak (logits, every chunk\'s fp32 log-softmax, one chunk\'s upcast); s·b·V·4 held; + 2·s·b·V·4/k in backward',
    source,
  };
}

/** One unchunked loss on path `path`: n = s·b·V logits, n1 = (s − 1)·b·V after a shift. */
function unchunked(path: ResolvedLogitsPath, n: number, n1: number, e: number, amp: boolean): LossBytes {
  const u = e < 4 ? 4 : 0;
  switch (path) {
    case 'upcast-in-model':
      return {
        peak: Math.max(n * (e + u), 4 * n + 8 * n1),
        held: 4 * n + 4 * n1,
        backward: Math.max(4 * n + 12 * n1, 8 * n + 4 * n1, n * (8 + (u > 0 ? e : 0))),
        headBackward: n * (4 + e),
        formula: "4·s·b·V + 8·(s−1)·b·V peak (fp32 logits, fp32 shift copy, fp32 log-softmax); 4·s·b·V + 4·(s−1)·b·V held; 4·s·b·V + 12·(s−1)·b·V in backward",
        source: 'transformers 4.36–4.45 modeling_llama.py LlamaForCausalLM.forward (logits.float(), shift_logits.contiguous(), CrossEntropyLoss)',
      };
    case 'remote-code': {
      const c = amp ? 4 : e;
      const cast = c > e ? c : 0;
      return {
        peak: e * n + n1 * (e + cast + c),
        held: e * n + c * n1,
        backward: Math.max(e * n + 3 * c * n1, 2 * e * n + e * n1),
        headBackward: 2 * e * n,
        formula: 'e·s·b·V + (e + cast + c)·(s−1)·b·V peak (model-dtype logits, shift copy, [autocast fp32 cast], log-softmax); e·s·b·V + c·(s−1)·b·V held; + 2c·(s−1)·b·V in backward; c = 4 under AMP, else e',
        source: 'Qwen-1 modeling_qwen.py QWenLMHeadModel.forward (16-bit lm_logits, shift_logits.contiguous(), CrossEntropyLoss); autocast_mode.cpp log_softmax fp32',
      };
    }
    case 'torchtune':
      return {
        peak: Math.max(n * (e + u), 8 * n),
        held: 4 * n,
        backward: 12 * n,
        headBackward: n * e,
        formula: 's·b·V·max(e + 4, 8) peak (fp32 model output, fp32 log-softmax); s·b·V·4 held (del logits); s·b·V·12 in backward',
        source: 'torchtune modules/transformer.py TransformerDecoder (self.output(h).float()); recipes/full_finetune_single_device.py _loss_step (del logits)',
      };
    default: {
      const { peak, held } = logitsBytes(n, 1, 1, e); // n = s·b·V as one row count
      return {
        peak, held, backward: held + 8 * n, headBackward: 2 * e * n,
        formula: 's·b·V·(e + 4 + 4) peak; s·b·V·(e + 4) held into backward; s·b·V·(e + 12) in backward',
        source: 'transformers ≥ 4.46 loss/loss_utils.py ForCausalLMLoss (logits.float(), labels shifted, F.cross_entropy); formulas.md §5.3',
      };
    }
  }
}
