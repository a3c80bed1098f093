/**
 * LM-head logits and cross-entropy loss bytes, unchunked or chunked.
 *
 * Unchunked: activations.ts `logitsBytes` (formulas.md §5.3, HF ForCausalLMLoss fp32 upcast).
 *
 * Chunked (torchtune `CEWithChunkedOutputLoss`, torchtune/modules/loss/ce_chunked_output_loss.py,
 * default `num_output_chunks = 8`): the decoder's `chunked_output` splits the last hidden state
 * along the sequence and returns k logit chunks, so all 16-bit logits (s·b·V·e) still exist; the
 * loss then upcasts and cross-entropies one chunk at a time:
 * - eager: each chunk's fp32 upcast (s·b·V·4/k) lives only while its log-softmax runs, but every
 *   chunk's fp32 log-softmax output is saved for backward (s·b·V·4 in all). The recipe drops its
 *   reference to the logits after the loss (`del logits`, recipes/full_finetune_single_device.py),
 *   and no backward formula needs them, so only the log-softmax outputs are held into backward;
 * - compiled (torchtune `compile_loss` compiles `compute_cross_entropy`, "the CE and upcasting
 *   have to be compiled together"): Inductor fuses upcast, log-softmax and NLL, so no fp32
 *   buffer is built; the compiled graph saves its input, the 16-bit chunk, to recompute the
 *   softmax in its backward (plus an fp32 log-sum-exp per row, s·b·4: negligible). Held: s·b·V·e.
 * torch.chunk along the sequence gives at most s chunks, so k = min(chunks, s).
 * An unchunked loss keeps its eager buffers even with compile=inductor: torchtune's 2024 recipes
 * discard the module that `compile_loss` returns for a non-chunked loss and call the eager one.
 */
import { logitsBytes } from './activations';

export interface LossBytes {
  /** at the loss forward */
  peak: number;
  /** saved for the loss backward, live at the start of backward */
  held: number;
  formula: string;
  source: string;
}

/** Logits + cross-entropy for s·b tokens over a vocabulary slice `vocab`, logits element size e. */
export function lossBytes(s: number, b: number, vocab: number, e: number, chunks: number, compiled: boolean): LossBytes {
  const k = Math.max(1, Math.min(Math.floor(chunks), s));
  const sbv = s * b * vocab;
  if (k === 1) {
    return {
      ...logitsBytes(s, b, vocab, e),
      formula: 's·b·V·(e + 4 + 4) peak; s·b·V·(e + 4) held into backward',
      source: 'formulas.md §5.3 (HF ForCausalLMLoss fp32 upcast)',
    };
  }
  const source = 'torchtune CEWithChunkedOutputLoss (torchtune/modules/loss/ce_chunked_output_loss.py), training/_compile.py compile_loss';
  if (compiled) {
    return { peak: sbv * e, held: sbv * e, formula: 's·b·V·e (16-bit chunks; fused upcast + CE per chunk, the chunk saved for its backward)', source };
  }
  const upcast = e < 4 ? (sbv * 4) / k : 0;
  return {
    peak: sbv * (e + 4) + upcast,
    held: sbv * 4,
    formula: 's·b·V·(e + 4) + s·b·V·4/k peak (logits, every chunk\'s fp32 log-softmax, one chunk\'s upcast); s·b·V·4 held',
    source,
  };
}
