/**
 * LM-head logits and cross-entropy loss bytes, per code path (scenario key `logits-path`,
 * src/core/logits-path.ts) or chunked (`loss-chunks`).
 *
 * Four moments, n = s·b·V logits, n' = (s − 1)·b·V after a shift (e: logits dtype; u = 4 when
 * e < 4, the fp32 upcast, else 0 — `.float()` of an fp32 tensor returns it without a copy):
 * - `peak`: forward, while the log-softmax runs;
 * - `held`: saved into backward: the log-softmax output, saved by `LogSoftmaxBackward` (torch
 *   derivatives.yaml `_log_softmax`: `result`). On the current path the model output is dropped
 *   before backward — HF Trainer `compute_loss` keeps only `outputs["loss"]` (it returns
 *   `(loss, outputs)` only with return_outputs=True) and `training_step` backpropagates that loss —
 *   and no backward formula saves the logits (the LM-head Linear saves its input, `.float()`'s
 *   ToCopyBackward nothing), so the 16-bit logits are freed at the end of forward (a real snapshot,
 *   tests/fixtures/torch-snapshot/train-varied.pickle.gz, frees them before NllLossBackward runs);
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
 *   `fixed_cross_entropy` → `F.cross_entropy`. peak n·(e + u + 4); held 4n; backward 12n;
 *   head n·e. Its tensors one by one (`sequence`, replayed by core/timeline): logits, upcast,
 *   log-softmax; upcast and logits freed; in backward NllLossBackward's and
 *   _log_softmax_backward_data's fp32 outputs, the first and the saved log-softmax freed, the
 *   16-bit gradient (ToCopyBackward), the fp32 one freed — the order of the real snapshot.
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
 * - ChatGLM's files (ChatGLM2/3 modeling_chatglm.py `ChatGLMForConditionalGeneration.forward`, the
 *   first ChatGLM's alike; `chatglmLossBytes`): the [s, b, V] output, its `transpose(0, 1)
 *   .contiguous()` (the first freed), `.to(torch.float32)` (the 16-bit copy freed), the fp32 shift
 *   copy, the fp32 log-softmax, and `lm_logits.to(hidden_states.dtype)` for the model output before
 *   the fp32 logits go. peak 4n + 8n' + e·n; held 4n'; backward max(12n', 4n' + 4n (SliceBackward's
 *   fp32 zeros), 4n + e·n (ToCopyBackward)); head e·n.
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
import { add, div, evaluate, max, mul, sub, sym, type Expr } from '../formula';

export interface LossBytes {
  /** at the loss forward */
  peak: number;
  /** saved for the loss backward, live at the start of backward */
  held: number;
  /** inside the loss backward (log-softmax backward), held bytes included */
  backward: number;
  /** live while the LM-head backward runs (its weight gradient comes on top) */
  headBackward: number;
  /** the four moments as expressions over s, b, V, e (k chunks, c): the numbers above are their values */
  exprs: LossExprs;
  /** what each moment holds, in words */
  formula: string;
  source: string;
  /** the tensors one by one, where the path's order is known from its source */
  sequence?: LossSequence;
}

export type LossExprs = Record<'peak' | 'held' | 'backward' | 'headBackward', Expr>;

/** A tensor made (its bytes) or freed (the index of an earlier `alloc` among all allocs). */
export type LossEvent = { alloc: number } | { free: number };

/**
 * The loss's tensors in the order eager PyTorch makes and frees them; what `backward` leaves live
 * is live during the LM-head backward. The four moments are this sequence's maxima
 * (`sequenceMoments`), so the replay and the closed form cannot drift.
 */
export interface LossSequence {
  forward: LossEvent[];
  backward: LossEvent[];
}

/** A LossBytes whose numbers are its expressions' values. */
export function lossOf(exprs: LossExprs, formula: string, source: string, sequence?: LossSequence): LossBytes {
  return {
    peak: evaluate(exprs.peak),
    held: evaluate(exprs.held),
    backward: evaluate(exprs.backward),
    headBackward: evaluate(exprs.headBackward),
    exprs,
    formula,
    source,
    ...(sequence ? { sequence } : {}),
  };
}

/** peak / held / backward / headBackward of a sequence: live bytes at its maxima and ends. */
export function sequenceMoments(q: LossSequence): Record<'peak' | 'held' | 'backward' | 'headBackward', number> {
  const sizes: number[] = [];
  let live = 0;
  const run = (evs: readonly LossEvent[]): number => {
    let top = live;
    for (const e of evs) {
      if ('alloc' in e) {
        sizes.push(e.alloc);
        live += e.alloc;
      } else live -= sizes[e.free] ?? 0;
      top = Math.max(top, live);
    }
    return top;
  };
  const peak = run(q.forward);
  const held = live;
  const backward = run(q.backward);
  return { peak, held, backward, headBackward: live };
}

/**
 * Who holds the logits: HF Trainer (trainer.py `training_step` → `compute_loss`, which returns the
 * loss alone) drops the model output, and with it the logits, before `backward`; nothing in the
 * autograd graph keeps them (ToCopyBackward, SliceBackward and the LM head's mm save no output).
 * Measured: Llama-3.2-1B LoRA, 2,048 tokens, transformers 5.17 Trainer (validation/fixtures/
 * measured-gpu.json t000 / t019) peaks within 1 % of this count and 0.49 GiB (the bf16 logits) below
 * a count that holds them. A loop that keeps `outputs` alive through backward holds s·b·V·e more.
 *
 * Logits + loss bytes for s positions of b sequences over `vocab` (per GPU) with logits dtype e;
 * `chunks` > 1 selects torchtune's chunked loss, `compiled` its compiled form; `autocast`: the forward runs under
 * torch.autocast (training/autocast.ts), which runs log_softmax in fp32 on the remote-code path.
 */
export function lossBytes(s: number, b: number, vocab: number, e: number, chunks: number, compiled: boolean, path: ResolvedLogitsPath = 'current', autocast = false): LossBytes {
  const k = Math.max(1, Math.min(Math.floor(chunks), s));
  const S = sym('s', s);
  const B = sym('b', b);
  const V = sym('V', vocab);
  const E = sym('e', e);
  /** n = s·b·V logits times the factors given */
  const n = (...xs: (Expr | number)[]) => mul(S, B, V, ...xs);
  if (k === 1) return unchunked(path, n, (...xs) => mul(sub(S, 1), B, V, ...xs), E, e, autocast);
  const K = sym('k', k);
  const source = 'torchtune CEWithChunkedOutputLoss (torchtune/modules/loss/ce_chunked_output_loss.py), training/_compile.py compile_loss';
  if (compiled) {
    return lossOf(
      { peak: n(E), held: n(E), backward: add(n(E), div(n(E), K)), headBackward: n(E) },
      "16-bit chunks; fused upcast + CE per chunk, the chunk saved for its backward; one chunk's gradient in backward",
      source,
    );
  }
  return lossOf(
    {
      peak: add(n(add(E, 4)), ...(e < 4 ? [div(n(4), K)] : [])),
      held: n(4),
      backward: add(n(4), div(mul(2, n(4)), K)),
      headBackward: add(sub(n(4), div(n(4), K)), div(n(E), K)),
    },
    "peak: logits, every chunk's fp32 log-softmax, one chunk's upcast; held: the log-softmax outputs; backward: + two fp32 gradients of one chunk",
    source,
  );
}

type Rows = (...xs: (Expr | number)[]) => Expr;

function unchunked(path: ResolvedLogitsPath, n: Rows, n1: Rows, E: Expr, e: number, autocast: boolean): LossBytes {
  // u = 4: the fp32 upcast of 16-bit logits; .float() of fp32 logits returns them without a copy
  const eu = e < 4 ? add(E, 4) : E;
  switch (path) {
    case 'upcast-in-model':
      return lossOf(
        {
          peak: max(n(eu), add(n(4), n1(8))),
          held: n1(4),
          backward: max(n1(12), add(n(4), n1(4)), n(e < 4 ? add(4, E) : 4)),
          headBackward: n(E),
        },
        'fp32 logits, fp32 shift copy, fp32 log-softmax (the logits leave with the model output before backward); SliceBackward and ToCopyBackward in backward',
        'transformers 4.36–4.45 modeling_llama.py LlamaForCausalLM.forward (logits.float(), shift_logits.contiguous(), CrossEntropyLoss)',
      );
    case 'remote-code': {
      // c: the loss's dtype, fp32 under autocast (log_softmax on the fp32 list), else the logits'
      const c = autocast ? 4 : e;
      const C = sym('c', c);
      const [ne, n1e, n1c] = [evaluate(n(E)), evaluate(n1(E)), evaluate(n1(C))];
      // allocs: 0 logits, 1 shift copy, [2 autocast's fp32 cast], log-softmax (saved); the model output
      // and the shift copy go before backward. Backward: nll grad, log-softmax grad, [its 16-bit cast
      // (ToCopyBackward)], SliceBackward's zero-filled logits-sized gradient for the LM head
      const sequence: LossSequence =
        c > e
          ? {
              forward: [{ alloc: ne }, { alloc: n1e }, { alloc: n1c }, { alloc: n1c }, { free: 2 }, { free: 1 }, { free: 0 }],
              backward: [{ alloc: n1c }, { alloc: n1c }, { free: 4 }, { free: 3 }, { alloc: n1e }, { free: 5 }, { alloc: ne }, { free: 6 }],
            }
          : {
              forward: [{ alloc: ne }, { alloc: n1e }, { alloc: n1c }, { free: 1 }, { free: 0 }],
              backward: [{ alloc: n1c }, { alloc: n1c }, { free: 3 }, { free: 2 }, { alloc: ne }, { free: 4 }],
            };
      return lossOf(
        {
          peak: add(n(E), n1(c > e ? add(E, C, C) : add(E, C))),
          held: n1(C),
          backward: max(n1(3, C), add(n(E), n1(E))),
          headBackward: n(E),
        },
        'model-dtype logits, shift copy, [autocast fp32 cast], log-softmax (the logits leave with the model output before backward); c = 4 under autocast, else e',
        'Qwen-1 modeling_qwen.py QWenLMHeadModel.forward (16-bit lm_logits, shift_logits.contiguous(), CrossEntropyLoss); autocast_mode.cpp log_softmax fp32',
        sequence,
      );
    }
    case 'torchtune':
      return lossOf(
        { peak: max(n(eu), n(8)), held: n(4), backward: n(12), headBackward: n(E) },
        'fp32 model output, fp32 log-softmax; del logits after the loss',
        'torchtune modules/transformer.py TransformerDecoder (self.output(h).float()); recipes/full_finetune_single_device.py _loss_step (del logits)',
      );
    default: {
      const ne = evaluate(n(E));
      const n4 = evaluate(n(4));
      // allocs: 0 logits, [1 upcast], log-softmax, nll grad, log-softmax grad, [16-bit grad]
      const sequence: LossSequence =
        e < 4
          ? { forward: [{ alloc: ne }, { alloc: n4 }, { alloc: n4 }, { free: 1 }, { free: 0 }], backward: [{ alloc: n4 }, { alloc: n4 }, { free: 3 }, { free: 2 }, { alloc: ne }, { free: 4 }] }
          : { forward: [{ alloc: n4 }, { alloc: n4 }, { free: 0 }], backward: [{ alloc: n4 }, { alloc: n4 }, { free: 2 }, { free: 1 }] };
      return lossOf(
        { peak: n(add(eu, 4)), held: n(4), backward: n(12), headBackward: n(E) },
        'peak: logits, fp32 upcast, fp32 log-softmax; held: log-softmax (the logits are dropped); backward: + two fp32 gradients; head: the logits gradient',
        'transformers ≥ 4.46 loss/loss_utils.py ForCausalLMLoss (logits.float(), labels shifted, F.cross_entropy), trainer.py Trainer.compute_loss (outputs dropped); formulas.md §5.3',
        sequence,
      );
    }
  }
}

/**
 * The loss of ChatGLM's own files (module docstring): `lm_logits = self.transformer.output_layer(h)`
 * ([s, b, V], ChatGLM's sequence-first layout), `.transpose(0, 1).contiguous()`, then with labels
 * `lm_logits.to(torch.float32)`, `shift_logits = lm_logits[..., :-1, :].contiguous()`,
 * `CrossEntropyLoss` on fp32 (autocast changes nothing: the input already is fp32) and
 * `lm_logits = lm_logits.to(hidden_states.dtype)` for the output, which the Trainer drops before
 * backward. For b > 1 the gradient reaching the head is a transposed view, which the head's matmul
 * copies to fold (aten `_matmul_impl` reshape); for b = 1 the transpose moves a size-1 dimension.
 */
export function chatglmLossBytes(s: number, b: number, vocab: number, e: number): LossBytes {
  const S = sym('s', s);
  const B = sym('b', b);
  const V = sym('V', vocab);
  const E = sym('e', e);
  const n = (...xs: (Expr | number)[]) => mul(S, B, V, ...xs);
  const n1 = (...xs: (Expr | number)[]) => mul(sub(S, 1), B, V, ...xs);
  const [ne, n4, n14] = [evaluate(n(E)), evaluate(n(4)), evaluate(n1(4))];
  // allocs: 0 output [s, b, V], 1 its transposed copy, 2 fp32 logits, 3 fp32 shift copy, 4 log-softmax
  // (saved), 5 the 16-bit output; backward: 6 nll grad, 7 log-softmax grad, 8 SliceBackward's fp32
  // zeros, 9 ToCopyBackward's 16-bit gradient, [10 its contiguous copy for the head's matmul, b > 1]
  const sequence: LossSequence = {
    forward: [{ alloc: ne }, { alloc: ne }, { free: 0 }, { alloc: n4 }, { free: 1 }, { alloc: n14 }, { alloc: n14 }, { alloc: ne }, { free: 2 }, { free: 3 }, { free: 5 }],
    backward: [{ alloc: n14 }, { alloc: n14 }, { free: 6 }, { free: 4 }, { alloc: n4 }, { free: 7 }, { alloc: ne }, { free: 8 }, ...(b > 1 ? [{ alloc: ne }, { free: 9 }] : [])],
  };
  return lossOf(
    {
      peak: add(n(4), n1(8), n(E)),
      held: n1(4),
      backward: max(n1(12), add(n1(4), n(4)), add(n(4), n(E)), ...(b > 1 ? [n(2, E)] : [])),
      headBackward: n(E),
    },
    'transposed copy of the [s, b, V] output, fp32 logits, fp32 shift copy, fp32 log-softmax and the 16-bit logits returned (dropped with the output before backward)',
    'ChatGLM2/3 modeling_chatglm.py ChatGLMForConditionalGeneration.forward (transpose(0, 1).contiguous(), .to(torch.float32), shift_logits.contiguous(), CrossEntropyLoss, .to(hidden_states.dtype))',
    sequence,
  );
}
